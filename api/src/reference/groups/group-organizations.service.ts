import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { Sequelize } from 'sequelize-typescript';
import type { FieldError, GroupOrganizationRecord } from '@crisis/forms';
import { invalid, notFound } from '../../common/coded-error';
import type { ListQuery } from '../../common/list-query';
import { auditValues } from '../../common/request-context';
import { assertUnique, containsPattern, listPage, savingUnique, select } from '../reference-sql';

/** The body of create and update: the record without its id. */
export type GroupOrganizationInput = Omit<GroupOrganizationRecord, 'id' | 'description'> & { description?: string | null };

export interface GroupOrganizationListFilter {
  q?: string | null;
  name?: string | null;
  showActiveOnly?: boolean | null;
  id?: number[];
}

export const GROUP_SORTABLE = ['name', 'isActive', 'id'] as const;
const SORT_COLUMNS = { name: 'lower(g.name)', isActive: 'g.is_active', id: 'g.id' };

const facilitiesOf = (kind: string) =>
  `COALESCE((SELECT array_agg(gf.facility_id ORDER BY gf.facility_id) FROM group_organization_facilities gf
              WHERE gf.group_id = g.id AND gf.kind = '${kind}'), '{}')`;
const COLUMNS = `g.id, g.name, g.description, g.is_active AS "isActive", g.mfa_enabled AS "mfaEnabled", g.states, g.counties,
  ${facilitiesOf('included')} AS facilities, ${facilitiesOf('excluded')} AS "excludedFacilities",
  ${facilitiesOf('placement')} AS "placementFacilities"`;

const LISTS = [
  ['facilities', 'included'],
  ['excludedFacilities', 'excluded'],
  ['placementFacilities', 'placement'],
] as const;

@Injectable()
export class GroupOrganizationsService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  list(q: ListQuery<GroupOrganizationListFilter>) {
    const f = q.filter;
    const where: string[] = [];
    const bind: unknown[] = [];
    const text = f.q ?? f.name;
    if (text) where.push(`g.name ILIKE $${bind.push(containsPattern(text))}`);
    if (f.showActiveOnly) where.push('g.is_active');
    if (f.id?.length) where.push(`g.id = ANY($${bind.push(f.id)}::int[])`);
    return listPage<GroupOrganizationRecord>(this.sequelize, {
      select: COLUMNS,
      from: 'group_organizations g',
      where,
      bind,
      sortColumns: SORT_COLUMNS,
      q,
    });
  }

  /** Groups for pickers (the user form's organization), sorted by name (spec 03 §3 Lookups: group). */
  lookups(showActiveOnly: boolean): Promise<Array<{ id: number; name: string; isActive: boolean }>> {
    return select(
      this.sequelize,
      `SELECT id, name, is_active AS "isActive" FROM group_organizations ${showActiveOnly ? 'WHERE is_active' : ''} ORDER BY lower(name), id`,
    );
  }

  async get(id: number): Promise<GroupOrganizationRecord> {
    const [row] = await select<GroupOrganizationRecord>(this.sequelize, `SELECT ${COLUMNS} FROM group_organizations g WHERE g.id = $1`, [id]);
    if (!row) throw notFound();
    return row;
  }

  async create(b: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    await assertUnique(this.sequelize, 'group_organizations', 'name', 'name', b.name);
    await this.assertFacilities(b);
    const [{ id }] = await savingUnique('name', () =>
      select<{ id: number }>(
        this.sequelize,
        `INSERT INTO group_organizations (name, description, is_active, mfa_enabled, states, counties)
         VALUES ($1, $2, $3, $4, $5::text[], $6::text[]) RETURNING id`,
        [b.name, b.description ?? null, b.isActive, b.mfaEnabled, b.states, b.counties],
      ),
    );
    await this.writeFacilities(id, b);
    auditValues({ groupId: id, name: b.name, isActive: b.isActive });
    return this.get(id);
  }

  async update(id: number, b: GroupOrganizationInput): Promise<GroupOrganizationRecord> {
    auditValues({ groupId: id });
    const [current] = await select(this.sequelize, 'SELECT id FROM group_organizations WHERE id = $1 FOR UPDATE', [id]);
    if (!current) throw notFound();
    await assertUnique(this.sequelize, 'group_organizations', 'name', 'name', b.name, id);
    await this.assertFacilities(b);
    await savingUnique('name', () =>
      select(
        this.sequelize,
        `UPDATE group_organizations SET name = $2, description = $3, is_active = $4, mfa_enabled = $5, states = $6::text[],
                counties = $7::text[], updated_at = now() WHERE id = $1`,
        [id, b.name, b.description ?? null, b.isActive, b.mfaEnabled, b.states, b.counties],
      ),
    );
    await select(this.sequelize, 'DELETE FROM group_organization_facilities WHERE group_id = $1', [id]);
    await this.writeFacilities(id, b);
    auditValues({ name: b.name, isActive: b.isActive });
    return this.get(id);
  }

  private async writeFacilities(groupId: number, b: GroupOrganizationInput) {
    for (const [field, kind] of LISTS)
      if (b[field].length)
        await select(
          this.sequelize,
          `INSERT INTO group_organization_facilities (group_id, facility_id, kind) SELECT $1, unnest($2::int[]), $3`,
          [groupId, b[field], kind],
        );
  }

  /** Every listed facility exists and lies in one of the group's states (spec 03 §5 Group). */
  private async assertFacilities(b: GroupOrganizationInput) {
    const ids = [...new Set(LISTS.flatMap(([field]) => b[field]))];
    const rows = ids.length
      ? await select<{ id: number; state: string }>(this.sequelize, 'SELECT id, state FROM facilities WHERE id = ANY($1::int[])', [ids])
      : [];
    const stateOf = new Map(rows.map((r) => [r.id, r.state.trim()]));
    const errors: FieldError[] = [];
    for (const [field] of LISTS) {
      if (b[field].some((fid) => !stateOf.has(fid))) errors.push({ field, key: 'unknownFacility', message: 'Unknown facility' });
      else if (b[field].some((fid) => !b.states.includes(stateOf.get(fid)!)))
        errors.push({ field, key: 'facilityNotInStates', message: 'The facility is not in the chosen states' });
    }
    if (errors.length) throw invalid(errors);
  }
}
