import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import type { FacilityLookup, PreferredFacilityRecord } from '@crisis/forms';
import { invalid, notFound, notUnique } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { auditValues } from '../common/request-context';
import { escapeLike } from './facility-list.query';

export interface PreferredFacilityListFilter {
  q?: string | null;
  id?: number[];
}

export const PREFERRED_FACILITY_SORTABLE = ['name'] as const;

const RECORD_SQL = `
  SELECT f.id, f.name, json_build_object('city', f.city, 'state', f.state) AS address,
         coalesce((SELECT json_agg(json_build_object('id', d.id, 'name', d.name, 'type', d.type) ORDER BY lower(d.name), d.id)
                     FROM divisions d WHERE d.facility_id = f.id AND d.is_active), '[]'::json) AS divisions
    FROM preferred_facilities pf JOIN facilities f ON f.id = pf.preferred_facility_id`;

/** A facility a preferred one may be: active, with an active Referring division (spec 03 §5 Preferred facility). */
const QUALIFIES = `f.is_active AND EXISTS (SELECT 1 FROM divisions d WHERE d.facility_id = f.id AND d.type = 'Referring' AND d.is_active)`;

/** Preferred facilities of a facility (spec 03 §2, §7): ITP admin only. */
@Injectable()
export class PreferredFacilitiesService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  async list(facilityId: number, q: ListQuery<PreferredFacilityListFilter>): Promise<{ rows: PreferredFacilityRecord[]; total: number }> {
    await this.assertFacility(facilityId);
    const bind = [facilityId, q.filter.q ? `%${escapeLike(q.filter.q)}%` : null, q.filter.id?.length ? q.filter.id : null];
    const where = `WHERE pf.facility_id = $1 AND ($2::text IS NULL OR lower(f.name) LIKE lower($2)) AND ($3::int[] IS NULL OR f.id = ANY($3::int[]))`;
    const rows = await this.sequelize.query<PreferredFacilityRecord>(
      `${RECORD_SQL} ${where} ORDER BY lower(f.name) ${q.sortOrder === 'DESC' ? 'DESC' : 'ASC'}, f.id LIMIT $4 OFFSET $5`,
      { bind: [...bind, q.limit, q.offset], type: QueryTypes.SELECT },
    );
    const [count] = await this.sequelize.query<{ n: string }>(
      `SELECT count(*) AS n FROM preferred_facilities pf JOIN facilities f ON f.id = pf.preferred_facility_id ${where}`,
      { bind, type: QueryTypes.SELECT },
    );
    return { rows, total: Number(count.n) };
  }

  /** The add modal's choices: qualifying facilities minus this one and those already preferred. */
  async available(facilityId: number): Promise<FacilityLookup[]> {
    await this.assertFacility(facilityId);
    return this.sequelize.query<FacilityLookup>(
      `SELECT f.id, f.name, f.is_active AS "isActive", json_build_object('city', f.city, 'state', f.state) AS address,
              EXISTS (SELECT 1 FROM divisions d WHERE d.facility_id = f.id AND d.type = 'Source' AND d.is_active) AS "hasActiveSourceDivision",
              true AS "hasActiveReferringDivision"
         FROM facilities f
        WHERE ${QUALIFIES} AND f.id <> $1
          AND NOT EXISTS (SELECT 1 FROM preferred_facilities pf WHERE pf.facility_id = $1 AND pf.preferred_facility_id = f.id)
        ORDER BY lower(f.name), f.id`,
      { bind: [facilityId], type: QueryTypes.SELECT },
    );
  }

  async add(facilityId: number, preferredId: number): Promise<PreferredFacilityRecord> {
    await this.assertFacility(facilityId, true);
    auditValues({ facilityId, preferredFacilityId: preferredId });
    if (preferredId === facilityId)
      throw invalid([{ field: 'facilityId', key: 'self', message: 'A facility cannot prefer itself' }]);
    const [ok] = await this.sequelize.query(`SELECT 1 FROM facilities f WHERE f.id = $1 AND ${QUALIFIES}`, {
      bind: [preferredId],
      type: QueryTypes.SELECT,
    });
    if (!ok)
      throw invalid([{ field: 'facilityId', key: 'noActiveReferringDivision', message: 'Only active facilities with an active Referring division can be preferred' }]);
    const inserted = await this.sequelize.query(
      'INSERT INTO preferred_facilities (facility_id, preferred_facility_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING facility_id',
      { bind: [facilityId, preferredId], type: QueryTypes.SELECT },
    );
    if (!inserted.length) throw notUnique(['facilityId'], 'The facility is already preferred');
    const [row] = await this.sequelize.query<PreferredFacilityRecord>(`${RECORD_SQL} WHERE pf.facility_id = $1 AND pf.preferred_facility_id = $2`, {
      bind: [facilityId, preferredId],
      type: QueryTypes.SELECT,
    });
    return row;
  }

  async remove(facilityId: number, preferredId: number): Promise<{ id: number }> {
    auditValues({ facilityId, preferredFacilityId: preferredId });
    const deleted = await this.sequelize.query(
      'DELETE FROM preferred_facilities WHERE facility_id = $1 AND preferred_facility_id = $2 RETURNING facility_id',
      { bind: [facilityId, preferredId], type: QueryTypes.SELECT },
    );
    if (!deleted.length) throw notFound();
    return { id: preferredId };
  }

  private async assertFacility(facilityId: number, lock = false) {
    const [row] = await this.sequelize.query(`SELECT id FROM facilities WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, {
      bind: [facilityId],
      type: QueryTypes.SELECT,
    });
    if (!row) throw notFound();
  }
}
