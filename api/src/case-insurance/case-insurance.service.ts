import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import {
  CaseStatus,
  ErrorCode,
  MAX_INSURANCES,
  responsiblePartyForRelation,
  type InsuranceInput,
  type UserContext,
} from '@crisis/forms';
import { CaseCommandsHandler } from '../cases/case-commands.handler';
import { afterCommit } from '../common/after-commit';
import { CodedError, invalid, notFound } from '../common/coded-error';
import { auditValues } from '../common/request-context';
import { FILE_STORAGE, type FileStorage } from '../files/storage';
import { select } from '../reference/reference-sql';
import { caseClosed } from '../patients/patients.service';
import { insurancesOfCase } from './insurance-sql';

export const INSURANCE_CARD_AREA = 'insurance-cards';
export type CardSide = 'front' | 'back';

interface CaseRow {
  id: number;
  status: string;
  patientId: number;
  uninsured: boolean;
}

const maxInsurances = () =>
  new CodedError(ErrorCode.MaxInsurances, { max: MAX_INSURANCES }, undefined, `A case can have at most ${MAX_INSURANCES} insurances`);

/** Insurances of a case (spec 01 §3 Insurance, §4 Insurance states, §5 Insurance; spec 02 §4). */
@Injectable()
export class CaseInsuranceService {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly writer: CaseCommandsHandler,
  ) {}

  async list(caseId: number) {
    const [c] = await select<{ uninsured: boolean }>(this.sequelize, 'SELECT uninsured FROM cases WHERE id = $1', [caseId]);
    const insurances = await insurancesOfCase(this.sequelize, caseId);
    const status = c.uninsured ? 'Uninsured' : insurances.length ? null : 'NotProvided';
    return { caseId, uninsured: c.uninsured, status, maxInsurances: MAX_INSURANCES, insurances };
  }

  /** Payers for the insurance form: active ones and those already on this case's insurances. */
  payerChoices(caseId: number) {
    return select<{ id: number; name: string; planName: string | null; isActive: boolean }>(
      this.sequelize,
      `SELECT id, name, plan_name AS "planName", is_active AS "isActive" FROM payers
        WHERE is_active OR id IN (SELECT payer_id FROM patient_insurances WHERE case_id = $1)
        ORDER BY lower(name), id`,
      [caseId],
    );
  }

  /** The case, locked for the change; refused when closed. */
  private async caseForWrite(caseId: number): Promise<CaseRow> {
    const [c] = await select<CaseRow>(
      this.sequelize,
      'SELECT id, status, patient_id AS "patientId", uninsured FROM cases WHERE id = $1 FOR UPDATE',
      [caseId],
    );
    if (c.status === CaseStatus.Closed) throw caseClosed();
    return c;
  }

  private async insuranceOf(caseId: number, insuranceId: number, lock = false) {
    const [row] = await select<{ id: number; position: number; front_image: string | null; back_image: string | null; verified: boolean }>(
      this.sequelize,
      `SELECT id, position, front_image, back_image, verified FROM patient_insurances WHERE id = $1 AND case_id = $2 ${lock ? 'FOR UPDATE' : ''}`,
      [insuranceId, caseId],
    );
    if (!row) throw notFound();
    return row;
  }

  /** The responsible party for the relation (forms/ responsiblePartyForRelation), whatever the client sent. */
  private async responsibleParty(patientId: number, input: InsuranceInput) {
    if (!input.relationToInsured && !input.responsibleParty) return null;
    const [p] = await select<{ firstName: string; lastName: string; phone: string | null; dateOfBirth: string }>(
      this.sequelize,
      'SELECT first_name AS "firstName", last_name AS "lastName", phone, date_of_birth::text AS "dateOfBirth" FROM patients WHERE id = $1',
      [patientId],
    );
    return responsiblePartyForRelation(input.relationToInsured, p, input.responsibleParty);
  }

  private async assertPayer(payerId: number, field: string, keepId?: number) {
    // An inactive payer may stay on an insurance that already has it, but not be chosen anew.
    const [p] = await select<{ active: boolean; kept: boolean }>(
      this.sequelize,
      `SELECT is_active AS active, EXISTS (SELECT 1 FROM patient_insurances WHERE id = $2 AND payer_id = $1) AS kept FROM payers WHERE id = $1`,
      [payerId, keepId ?? 0],
    );
    if (!p || (!p.active && !p.kept)) throw invalid([{ field, key: 'invalid', message: 'Unknown or inactive payer' }]);
  }

  private async insert(c: CaseRow, input: InsuranceInput, position: number, field: string): Promise<number> {
    await this.assertPayer(input.payerId, field);
    const party = await this.responsibleParty(c.patientId, input);
    const [row] = await select<{ id: number }>(
      this.sequelize,
      `INSERT INTO patient_insurances (case_id, patient_id, payer_id, insurance_id, group_id, relation_to_insured, responsible_party,
                                       verified, patient_phone, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        c.id,
        c.patientId,
        input.payerId,
        input.insuranceId,
        input.groupId ?? null,
        input.relationToInsured ?? null,
        party ? JSON.stringify(party) : null,
        input.verified ?? true,
        input.patientPhone ?? null,
        position,
      ],
    );
    return row.id;
  }

  private async updateRow(c: CaseRow, insuranceId: number, input: InsuranceInput, field: string, position?: number) {
    await this.assertPayer(input.payerId, field, insuranceId);
    const party = await this.responsibleParty(c.patientId, input);
    await select(
      this.sequelize,
      `UPDATE patient_insurances SET payer_id = $2, insurance_id = $3, group_id = $4, relation_to_insured = $5, responsible_party = $6,
              verified = coalesce($7, verified), patient_phone = $8, position = coalesce($9, position), updated_at = now()
        WHERE id = $1`,
      [
        insuranceId,
        input.payerId,
        input.insuranceId,
        input.groupId ?? null,
        input.relationToInsured ?? null,
        party ? JSON.stringify(party) : null,
        input.verified ?? null,
        input.patientPhone ?? null,
        position ?? null,
      ],
    );
  }

  private removeImagesAfterCommit(keys: Array<string | null>) {
    const present = keys.filter((k): k is string => !!k);
    if (present.length)
      return afterCommit('remove insurance card images', async () => {
        for (const k of present) await this.storage.remove(INSURANCE_CARD_AREA, k);
      });
  }

  /** POST: adds one insurance at the end; a 4th is refused (INV.MAX.INSURANCES). Adding clears "uninsured". */
  async add(user: UserContext, caseId: number, input: InsuranceInput) {
    const c = await this.caseForWrite(caseId);
    const [{ n }] = await select<{ n: number }>(this.sequelize, 'SELECT count(*)::int AS n FROM patient_insurances WHERE case_id = $1', [caseId]);
    if (n >= MAX_INSURANCES) throw maxInsurances();
    const id = await this.insert(c, input, n, 'payerId');
    if (c.uninsured) await this.writer.updateDetails(caseId, { uninsured: false });
    auditValues({ caseId, insuranceId: id, userId: user.id });
    return (await insurancesOfCase(this.sequelize, caseId)).find((i) => i.id === id);
  }

  /** PUT /{insuranceId}: edits one insurance. */
  async update(caseId: number, insuranceId: number, input: InsuranceInput) {
    const c = await this.caseForWrite(caseId);
    await this.insuranceOf(caseId, insuranceId, true);
    await this.updateRow(c, insuranceId, input, 'payerId');
    auditValues({ caseId, insuranceId });
    return (await insurancesOfCase(this.sequelize, caseId)).find((i) => i.id === insuranceId);
  }

  /** PUT (full update): the list in order; listed ids are kept and edited, new ones added, the others removed. */
  async replaceAll(caseId: number, body: { insurances: InsuranceInput[]; uninsured?: boolean }) {
    const c = await this.caseForWrite(caseId);
    const uninsured = body.uninsured === true;
    if (uninsured && body.insurances.length)
      throw invalid([{ field: 'insurances', key: 'uninsured', message: 'An uninsured patient has no insurances' }]);
    if (body.insurances.length > MAX_INSURANCES) throw maxInsurances();
    const existing = await select<{ id: number; front_image: string | null; back_image: string | null }>(
      this.sequelize,
      'SELECT id, front_image, back_image FROM patient_insurances WHERE case_id = $1 FOR UPDATE',
      [caseId],
    );
    const existingIds = new Set(existing.map((e) => e.id));
    body.insurances.forEach((ins, i) => {
      if (ins.id && !existingIds.has(ins.id)) throw invalid([{ field: `insurances.${i}.id`, key: 'invalid', message: 'Unknown insurance of this case' }]);
    });
    const kept = new Set(body.insurances.map((i) => i.id).filter(Boolean) as number[]);
    const removed = existing.filter((e) => !kept.has(e.id));
    if (removed.length)
      await select(this.sequelize, 'DELETE FROM patient_insurances WHERE id = ANY($1::int[])', [removed.map((r) => r.id)]);
    // Positions are rewritten in two steps so no two rows ever share one mid-way.
    await select(this.sequelize, 'UPDATE patient_insurances SET position = position + 10 WHERE case_id = $1', [caseId]);
    for (const [i, ins] of body.insurances.entries()) {
      if (ins.id) await this.updateRow(c, ins.id, ins, `insurances.${i}.payerId`, i);
      else await this.insert(c, ins, i, `insurances.${i}.payerId`);
    }
    await this.writer.updateDetails(caseId, { uninsured });
    await this.removeImagesAfterCommit(removed.flatMap((r) => [r.front_image, r.back_image]));
    auditValues({ caseId, insuranceIds: body.insurances.map((i) => i.id ?? 'new'), uninsured });
    return this.list(caseId);
  }

  /** DELETE /{insuranceId}: removes it and closes the gap in the order. */
  async remove(caseId: number, insuranceId: number) {
    await this.caseForWrite(caseId);
    const row = await this.insuranceOf(caseId, insuranceId, true);
    await select(this.sequelize, 'DELETE FROM patient_insurances WHERE id = $1', [insuranceId]);
    await select(this.sequelize, 'UPDATE patient_insurances SET position = position - 1 WHERE case_id = $1 AND position > $2', [caseId, row.position]);
    await this.removeImagesAfterCommit([row.front_image, row.back_image]);
    auditValues({ caseId, insuranceId });
    return this.list(caseId);
  }

  /** PUT /{insuranceId}/verify: Unverified ⇄ Verified ("needs verification" sets it back). */
  async toggleVerified(caseId: number, insuranceId: number) {
    await this.caseForWrite(caseId);
    const row = await this.insuranceOf(caseId, insuranceId, true);
    await select(this.sequelize, 'UPDATE patient_insurances SET verified = $2, updated_at = now() WHERE id = $1', [insuranceId, !row.verified]);
    auditValues({ caseId, insuranceId, verified: !row.verified });
    return (await insurancesOfCase(this.sequelize, caseId)).find((i) => i.id === insuranceId);
  }

  /** PUT /uninsured: marking the patient uninsured removes the insurances. */
  async setUninsured(caseId: number, uninsured: boolean) {
    await this.caseForWrite(caseId);
    if (uninsured) {
      const removed = await select<{ front_image: string | null; back_image: string | null }>(
        this.sequelize,
        'DELETE FROM patient_insurances WHERE case_id = $1 RETURNING front_image, back_image',
        [caseId],
      );
      await this.removeImagesAfterCommit(removed.flatMap((r) => [r.front_image, r.back_image]));
    }
    await this.writer.updateDetails(caseId, { uninsured });
    auditValues({ caseId, uninsured });
    return this.list(caseId);
  }

  /** PUT /order: ids of every insurance of the case, in the new order. */
  async reorder(caseId: number, ids: number[]) {
    await this.caseForWrite(caseId);
    const existing = await select<{ id: number }>(this.sequelize, 'SELECT id FROM patient_insurances WHERE case_id = $1 FOR UPDATE', [caseId]);
    const same = existing.length === ids.length && existing.every((e) => ids.includes(e.id));
    if (!same) throw invalid([{ field: 'ids', key: 'invalid', message: 'List every insurance of the case exactly once' }]);
    await select(this.sequelize, 'UPDATE patient_insurances SET position = position + 10 WHERE case_id = $1', [caseId]);
    for (const [i, id] of ids.entries())
      await select(this.sequelize, 'UPDATE patient_insurances SET position = $2, updated_at = now() WHERE id = $1', [id, i]);
    auditValues({ caseId, ids });
    return this.list(caseId);
  }

  /** Records a stored card image on the insurance; the previous one is removed after commit. */
  async setImage(caseId: number, insuranceId: number, side: CardSide, key: string) {
    await this.caseForWrite(caseId);
    const row = await this.insuranceOf(caseId, insuranceId, true);
    const column = side === 'front' ? 'front_image' : 'back_image';
    await select(this.sequelize, `UPDATE patient_insurances SET ${column} = $2, updated_at = now() WHERE id = $1`, [insuranceId, key]);
    await this.removeImagesAfterCommit([side === 'front' ? row.front_image : row.back_image]);
    auditValues({ caseId, insuranceId, side, image: key });
  }

  async assertWritable(caseId: number, insuranceId: number) {
    await this.caseForWrite(caseId);
    await this.insuranceOf(caseId, insuranceId);
  }

  async imageKey(caseId: number, insuranceId: number, side: CardSide): Promise<string | null> {
    const row = await this.insuranceOf(caseId, insuranceId);
    return side === 'front' ? row.front_image : row.back_image;
  }
}
