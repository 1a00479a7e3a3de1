import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, type EvaluationFormInput, type EvaluationFormLookup, type EvaluationFormRecord } from '@crisis/forms';
import { notFound } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { auditValues, requestContext } from '../common/request-context';
import { assertUnique, containsPattern, listPage, savingUnique, select } from '../reference/reference-sql';

export interface EvaluationFormListFilter {
  q?: string | null;
  id?: number[];
}

export const EVALUATION_FORM_SORTABLE = ['name', 'isDefault', 'updatedAt', 'id'] as const;
const SORT_COLUMNS = { name: 'lower(name)', isDefault: 'is_default', updatedAt: 'updated_at', id: 'id' };
const COLUMNS = `id, name, is_default AS "isDefault", version, jsonb_build_object('items', items) AS options, updated_at AS "updatedAt"`;
const LIVE = 'removed_at IS NULL';

/**
 * Evaluation forms (spec 02 §2 "Evaluation forms list", §4, §5, §7): the ITP admin's list, the
 * questionnaire saved as a new version each time (evaluations keep theirs), clone, and removal —
 * never of a default form, never while facilities use it (the refusal names them).
 */
@Injectable()
export class EvaluationFormsService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  list(q: ListQuery<EvaluationFormListFilter>) {
    const where = [LIVE];
    const bind: unknown[] = [];
    if (q.filter.q) where.push(`name ILIKE $${bind.push(containsPattern(q.filter.q))}`);
    if (q.filter.id?.length) where.push(`id = ANY($${bind.push(q.filter.id)}::int[])`);
    return listPage<EvaluationFormRecord>(this.sequelize, { select: COLUMNS, from: 'evaluation_forms', where, bind, sortColumns: SORT_COLUMNS, q });
  }

  /** Every form as a lookup for the facility's evaluation-forms tab: defaults first, then by name. */
  lookups(): Promise<EvaluationFormLookup[]> {
    return select<EvaluationFormLookup>(
      this.sequelize,
      `SELECT id, name, is_default AS "isDefault" FROM evaluation_forms WHERE ${LIVE} ORDER BY is_default DESC, lower(name), id`,
    );
  }

  async get(id: number): Promise<EvaluationFormRecord> {
    const [row] = await select<EvaluationFormRecord>(this.sequelize, `SELECT ${COLUMNS} FROM evaluation_forms WHERE id = $1 AND ${LIVE}`, [id]);
    if (!row) throw notFound();
    return row;
  }

  /** The facilities whose request types use the form (spec 02 §7 GET {id}/facilities). */
  async facilities(id: number): Promise<{ id: number; name: string }[]> {
    await this.get(id);
    return select(
      this.sequelize,
      `SELECT DISTINCT f.id, f.name FROM facility_evaluation_forms fe JOIN facilities f ON f.id = fe.facility_id
        WHERE fe.evaluation_form_id = $1 ORDER BY f.name, f.id`,
      [id],
    );
  }

  async create(body: EvaluationFormInput): Promise<EvaluationFormRecord> {
    await assertUnique(this.sequelize, 'evaluation_forms', 'name', 'name', body.name, 0, LIVE);
    const [row] = await savingUnique('name', () =>
      select<{ id: number }>(this.sequelize, `INSERT INTO evaluation_forms (name, is_default, items) VALUES ($1, false, $2) RETURNING id`, [
        body.name,
        JSON.stringify(body.options.items),
      ]),
    );
    await this.recordVersion(row.id, 1, body);
    auditValues({ evaluationFormId: row.id, name: body.name, questions: body.options.items.length });
    return this.get(row.id);
  }

  /** A save is a new version: evaluations answered on the old one keep it. */
  async update(id: number, body: EvaluationFormInput): Promise<EvaluationFormRecord> {
    const current = await this.get(id);
    if (current.isDefault && body.name !== current.name)
      throw new CodedError(ErrorCode.DefaultEvaluationForm, undefined, [{ field: 'name', key: 'defaultFormName', message: "A default form's name cannot change" }]);
    await assertUnique(this.sequelize, 'evaluation_forms', 'name', 'name', body.name, id, LIVE);
    const [row] = await savingUnique('name', () =>
      select<{ version: number }>(
        this.sequelize,
        `UPDATE evaluation_forms SET name = $2, items = $3, version = version + 1, updated_at = now() WHERE id = $1 AND ${LIVE} RETURNING version`,
        [id, body.name, JSON.stringify(body.options.items)],
      ),
    );
    if (!row) throw notFound();
    await this.recordVersion(id, row.version, body);
    auditValues({ evaluationFormId: id, name: body.name, version: row.version, questions: body.options.items.length });
    return this.get(id);
  }

  /** A copy named "<name> (copy)" (or "(copy 2)" …), custom even when the original is a default. */
  async clone(id: number): Promise<EvaluationFormRecord> {
    const source = await this.get(id);
    const taken = new Set(
      (await select<{ name: string }>(this.sequelize, `SELECT lower(name) AS name FROM evaluation_forms WHERE ${LIVE} AND lower(name) LIKE lower($1)`, [`${source.name.replace(/[\\%_]/g, (c) => `\\${c}`)} (copy%`])).map((r) => r.name),
    );
    let name = `${source.name} (copy)`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${source.name} (copy ${n})`;
    return this.create({ name: name.slice(0, 256), options: source.options });
  }

  async remove(id: number): Promise<EvaluationFormRecord> {
    const form = await this.get(id);
    if (form.isDefault) throw new CodedError(ErrorCode.DefaultEvaluationForm);
    const users = await this.facilities(id);
    if (users.length) throw new CodedError(ErrorCode.DeleteEvaluationFormAssignedToFacilities, users.map((f) => f.name));
    // Kept, not deleted: its versions are what earlier evaluations were answered on.
    await select(this.sequelize, `UPDATE evaluation_forms SET removed_at = now(), updated_at = now() WHERE id = $1`, [id]);
    auditValues({ evaluationFormId: id, name: form.name });
    return form;
  }

  private async recordVersion(id: number, version: number, body: EvaluationFormInput) {
    await select(
      this.sequelize,
      `INSERT INTO evaluation_form_versions (evaluation_form_id, version, items, created_by) VALUES ($1, $2, $3, $4)`,
      [id, version, JSON.stringify(body.options.items), requestContext.getStore()?.user?.id ?? null],
    );
  }
}
