import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, payerFullAddress, type PayerAddress, type PayerInsuranceRecord, type PayerRecord } from '@crisis/forms';
import { notFound } from '../../common/coded-error';
import type { ListQuery } from '../../common/list-query';
import { auditValues } from '../../common/request-context';
import { assertUnique, containsPattern, listPage, savingUnique, select } from '../reference-sql';
import { payerUsageCount } from './payer-usage';

export interface PayerInput {
  name: string;
  code?: string | null;
  isActive: boolean;
  planName?: string | null;
  address?: PayerAddress | null;
  planPackageId?: string | null;
  forceUpdate?: boolean | null;
}

export interface PayerListFilter {
  q?: string | null;
  name?: string | null;
  showActiveOnly?: boolean | null;
  id?: number[];
}

export const PAYER_SORTABLE = ['name', 'code', 'planName', 'isActive', 'id'] as const;
const SORT_COLUMNS = { name: 'lower(name)', code: 'lower(code)', planName: 'lower(plan_name)', isActive: 'is_active', id: 'id' };
const COLUMNS = `id, name, code, is_active AS "isActive", plan_name AS "planName", address, plan_package_id AS "planPackageId"`;

type Row = Omit<PayerRecord, 'fullAddress'>;
const toRecord = (r: Row): PayerRecord => ({ ...r, fullAddress: payerFullAddress(r.address) });

/** Only the fields that matter to patients count as an edit (the force flag and ids do not). */
function cleanAddress(a: PayerAddress | null | undefined): PayerAddress | null {
  if (!a) return null;
  const out: PayerAddress = {
    streetLine: a.streetLine ?? null,
    city: a.city ?? null,
    state: a.state ?? null,
    zipCode: a.zipCode ?? null,
    phone: a.phone ?? null,
  };
  return Object.values(out).some((v) => v !== null) ? out : null;
}

@Injectable()
export class PayersService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  async list(q: ListQuery<PayerListFilter>): Promise<{ rows: PayerRecord[]; total: number }> {
    const f = q.filter;
    const where: string[] = [];
    const bind: unknown[] = [];
    const text = f.q ?? f.name;
    if (text) {
      const i = bind.push(containsPattern(text));
      where.push(`(name ILIKE $${i} OR code ILIKE $${i} OR plan_name ILIKE $${i})`);
    }
    if (f.showActiveOnly) where.push('is_active');
    if (f.id?.length) where.push(`id = ANY($${bind.push(f.id)}::int[])`);
    const page = await listPage<Row>(this.sequelize, { select: COLUMNS, from: 'payers', where, bind, sortColumns: SORT_COLUMNS, q });
    return { rows: page.rows.map(toRecord), total: page.total };
  }

  /** Payers for pickers, sorted by name (spec 03 §3 Lookups: payer); active only unless asked. */
  lookups(showActiveOnly: boolean): Promise<Array<{ id: number; name: string; code: string | null; planName: string | null; isActive: boolean }>> {
    return select(
      this.sequelize,
      `SELECT id, name, code, plan_name AS "planName", is_active AS "isActive" FROM payers ${showActiveOnly ? 'WHERE is_active' : ''} ORDER BY lower(name), id`,
    );
  }

  async get(id: number): Promise<PayerRecord> {
    const [row] = await select<Row>(this.sequelize, `SELECT ${COLUMNS} FROM payers WHERE id = $1`, [id]);
    if (!row) throw notFound();
    return toRecord(row);
  }

  async create(b: PayerInput): Promise<PayerRecord> {
    await assertUnique(this.sequelize, 'payers', 'name', 'name', b.name);
    const [row] = await savingUnique('name', () =>
      select<Row>(
        this.sequelize,
        `INSERT INTO payers (name, code, is_active, plan_name, address, plan_package_id)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6) RETURNING ${COLUMNS}`,
        [b.name, b.code ?? null, b.isActive, b.planName ?? null, JSON.stringify(cleanAddress(b.address)), b.planPackageId ?? null],
      ),
    );
    auditValues({ payerId: row.id, name: row.name, isActive: row.isActive });
    return toRecord(row);
  }

  /**
   * Updates a payer. A payer used by patients is changed only with `forceUpdate` (the UI asks
   * first): deactivating, editing, or both are refused with their own code otherwise.
   */
  async update(id: number, b: PayerInput): Promise<PayerRecord> {
    auditValues({ payerId: id });
    const [current] = await select<Row>(this.sequelize, `SELECT ${COLUMNS} FROM payers WHERE id = $1 FOR UPDATE`, [id]);
    if (!current) throw notFound();
    await assertUnique(this.sequelize, 'payers', 'name', 'name', b.name, id);
    const next = {
      name: b.name,
      code: b.code ?? null,
      planName: b.planName ?? null,
      address: cleanAddress(b.address),
      planPackageId: b.planPackageId ?? null,
    };
    const before = { name: current.name, code: current.code, planName: current.planName, address: cleanAddress(current.address), planPackageId: current.planPackageId };
    const deactivating = current.isActive && !b.isActive;
    const editing = JSON.stringify(next) !== JSON.stringify(before);
    if ((deactivating || editing) && !b.forceUpdate && (await payerUsageCount(this.sequelize, id)) > 0) {
      const code = deactivating && editing
        ? ErrorCode.DeactivateAndEditPayerUsedInPatients
        : deactivating
          ? ErrorCode.DeactivatePayerUsedInPatients
          : ErrorCode.EditPayerUsedInPatients;
      throw new CodedError(code);
    }
    const [row] = await savingUnique('name', () =>
      select<Row>(
        this.sequelize,
        `UPDATE payers SET name = $2, code = $3, is_active = $4, plan_name = $5, address = $6::jsonb, plan_package_id = $7, updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, next.name, next.code, b.isActive, next.planName, JSON.stringify(next.address), next.planPackageId],
      ),
    );
    auditValues({ name: row.name, isActive: row.isActive, forceUpdate: !!b.forceUpdate });
    return toRecord(row);
  }

  /** The plan and address fields of active payers whose plan name contains `planName`. */
  async insurance(planName: string, payerId?: number): Promise<PayerInsuranceRecord[]> {
    const bind: unknown[] = [containsPattern(planName)];
    const byPayer = payerId ? `AND id = $${bind.push(payerId)}` : '';
    const rows = await select<Row>(
      this.sequelize,
      `SELECT ${COLUMNS} FROM payers WHERE is_active AND plan_name ILIKE $1 ${byPayer} ORDER BY lower(plan_name), lower(name), id LIMIT 50`,
      bind,
    );
    return rows.map((r) => ({
      payerId: r.id,
      payerName: r.name,
      planName: r.planName ?? '',
      memberId: null, // a patient's own, entered on the patient's insurance
      insuranceAddress: r.address?.streetLine ?? null,
      insuranceCity: r.address?.city ?? null,
      insuranceState: r.address?.state ?? null,
      insuranceZipCode: r.address?.zipCode ?? null,
      insurancePhoneNumber: r.address?.phone ?? null,
    }));
  }
}
