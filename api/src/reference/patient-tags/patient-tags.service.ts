import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import type { PatientTagRecord } from '@crisis/forms';
import { notFound } from '../../common/coded-error';
import type { ListQuery } from '../../common/list-query';
import { auditValues } from '../../common/request-context';
import { assertUnique, containsPattern, listPage, savingUnique, select } from '../reference-sql';

export interface PatientTagListFilter {
  q?: string | null;
  id?: number[];
}

export const PATIENT_TAG_SORTABLE = ['name', 'id'] as const;
const SORT_COLUMNS = { name: 'lower(name)', id: 'id' };
const COLUMNS = 'id, name';

@Injectable()
export class PatientTagsService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  list(q: ListQuery<PatientTagListFilter>) {
    const where: string[] = [];
    const bind: unknown[] = [];
    if (q.filter.q) where.push(`name ILIKE $${bind.push(containsPattern(q.filter.q))}`);
    if (q.filter.id?.length) where.push(`id = ANY($${bind.push(q.filter.id)}::int[])`);
    return listPage<PatientTagRecord>(this.sequelize, { select: COLUMNS, from: 'patient_tags', where, bind, sortColumns: SORT_COLUMNS, q });
  }

  /** Every tag, sorted by name (spec 03 §3 Lookups: patient tag). */
  lookups(): Promise<PatientTagRecord[]> {
    return select<PatientTagRecord>(this.sequelize, `SELECT ${COLUMNS} FROM patient_tags ORDER BY lower(name), id`);
  }

  async get(id: number): Promise<PatientTagRecord> {
    const [row] = await select<PatientTagRecord>(this.sequelize, `SELECT ${COLUMNS} FROM patient_tags WHERE id = $1`, [id]);
    if (!row) throw notFound();
    return row;
  }

  async create(body: { name: string }): Promise<PatientTagRecord> {
    await assertUnique(this.sequelize, 'patient_tags', 'name', 'name', body.name);
    const [row] = await savingUnique('name', () =>
      select<PatientTagRecord>(this.sequelize, `INSERT INTO patient_tags (name) VALUES ($1) RETURNING ${COLUMNS}`, [body.name]),
    );
    auditValues({ patientTagId: row.id, name: row.name });
    return row;
  }

  async remove(id: number): Promise<PatientTagRecord> {
    const [row] = await select<PatientTagRecord>(this.sequelize, `DELETE FROM patient_tags WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
    if (!row) throw notFound();
    auditValues({ patientTagId: id, name: row.name });
    return row;
  }
}
