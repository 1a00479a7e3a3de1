import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import type { BillingCodeRecord } from '@crisis/forms';
import { notFound } from '../../common/coded-error';
import type { ListQuery } from '../../common/list-query';
import { auditValues } from '../../common/request-context';
import { assertUnique, containsPattern, listPage, savingUnique, select } from '../reference-sql';

export interface BillingCodeInput {
  code: string;
  description: string;
  sourceDivisionTypes: string[];
  requestTypes: string[];
  isActive: boolean;
}

export interface BillingCodeListFilter {
  q?: string | null;
  showActiveOnly?: boolean | null;
  sourceDivisionType?: string | null;
  requestType?: string | null;
  id?: number[];
}

export const BILLING_CODE_SORTABLE = ['code', 'description', 'isActive', 'id'] as const;
const SORT_COLUMNS = { code: 'lower(code)', description: 'lower(description)', isActive: 'is_active', id: 'id' };
const COLUMNS = `id, code, description, source_division_types AS "sourceDivisionTypes", request_types AS "requestTypes", is_active AS "isActive"`;

@Injectable()
export class BillingCodesService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  list(q: ListQuery<BillingCodeListFilter>) {
    const f = q.filter;
    const where: string[] = [];
    const bind: unknown[] = [];
    if (f.q) {
      const i = bind.push(containsPattern(f.q));
      where.push(`(code ILIKE $${i} OR description ILIKE $${i})`);
    }
    if (f.showActiveOnly) where.push('is_active');
    if (f.sourceDivisionType) where.push(`$${bind.push(f.sourceDivisionType)} = ANY(source_division_types)`);
    if (f.requestType) where.push(`$${bind.push(f.requestType)} = ANY(request_types)`);
    if (f.id?.length) where.push(`id = ANY($${bind.push(f.id)}::int[])`);
    return listPage<BillingCodeRecord>(this.sequelize, { select: COLUMNS, from: 'billing_codes', where, bind, sortColumns: SORT_COLUMNS, q });
  }

  async get(id: number): Promise<BillingCodeRecord> {
    const [row] = await select<BillingCodeRecord>(this.sequelize, `SELECT ${COLUMNS} FROM billing_codes WHERE id = $1`, [id]);
    if (!row) throw notFound();
    return row;
  }

  async create(b: BillingCodeInput): Promise<BillingCodeRecord> {
    await assertUnique(this.sequelize, 'billing_codes', 'code', 'code', b.code);
    const [row] = await savingUnique('code', () =>
      select<BillingCodeRecord>(
        this.sequelize,
        `INSERT INTO billing_codes (code, description, source_division_types, request_types, is_active)
         VALUES ($1, $2, $3::text[], $4::text[], $5) RETURNING ${COLUMNS}`,
        [b.code, b.description, b.sourceDivisionTypes, b.requestTypes, b.isActive],
      ),
    );
    auditValues({ billingCodeId: row.id, code: row.code, isActive: row.isActive });
    return row;
  }

  async update(id: number, b: BillingCodeInput): Promise<BillingCodeRecord> {
    auditValues({ billingCodeId: id });
    const [current] = await select(this.sequelize, 'SELECT id FROM billing_codes WHERE id = $1 FOR UPDATE', [id]);
    if (!current) throw notFound();
    await assertUnique(this.sequelize, 'billing_codes', 'code', 'code', b.code, id);
    const [row] = await savingUnique('code', () =>
      select<BillingCodeRecord>(
        this.sequelize,
        `UPDATE billing_codes SET code = $2, description = $3, source_division_types = $4::text[], request_types = $5::text[],
                is_active = $6, updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, b.code, b.description, b.sourceDivisionTypes, b.requestTypes, b.isActive],
      ),
    );
    auditValues({ code: row.code, isActive: row.isActive });
    return row;
  }
}
