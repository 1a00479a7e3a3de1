import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes, UniqueConstraintError } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { CodedError, ErrorCode, type FacilityRecord } from '@crisis/forms';
import { notFound, notUnique } from '../common/coded-error';
import { preparedRead } from '../common/prepared-read';
import { auditValues } from '../common/request-context';
import { activeCasePatients } from './active-cases';
import type { ListQuery } from '../common/list-query';
import { Facility } from './facility.model';
import {
  buildFacilityGetQuery,
  buildFacilityListQuery,
  buildFacilityLookupQuery,
  type FacilityListFilter,
} from './facility-list.query';

/** The body of POST/PUT /api/facilities, as validated by schema('facility'). */
export interface FacilityInput {
  name: string;
  description?: string | null;
  allowReferringDivisionsAccess: boolean;
  allowPlacementOnlyCases: boolean;
  isActive: boolean;
  isMfaEnabled: boolean;
  isGeoPositionManually: boolean;
  ehrDepartmentId?: string | null;
  address: { streetLine: string; apartmentNumber?: string | null; city: string; state: string; zipCode: string; county?: string | null };
  geoPosition: { latitude: number; longitude: number };
  contacts?: Record<string, string | null> | null;
}

/** A facility's identity is name + zip: the fields the UI marks on INV.NOT.UNIQ. */
const NOT_UNIQUE_FIELDS = ['name', 'address.zipCode'];
const FACILITY_UNIQUE_INDEX = 'facilities_name_zip_uniq';

/** 9-digit zips are stored as 12345-6789, so the same zip cannot be entered twice in two spellings. */
export const normalizeZip = (zip: string) => (/^\d{9}$/.test(zip) ? `${zip.slice(0, 5)}-${zip.slice(5)}` : zip);

function columns(b: FacilityInput) {
  return {
    name: b.name,
    description: b.description ?? null,
    allowReferringDivisionsAccess: b.allowReferringDivisionsAccess,
    allowPlacementOnlyCases: b.allowPlacementOnlyCases,
    isActive: b.isActive,
    isMfaEnabled: b.isMfaEnabled,
    isGeoPositionManually: b.isGeoPositionManually,
    ehrDepartmentId: b.ehrDepartmentId ?? null,
    streetLine: b.address.streetLine,
    apartmentNumber: b.address.apartmentNumber ?? null,
    city: b.address.city,
    state: b.address.state,
    zipCode: normalizeZip(b.address.zipCode),
    county: b.address.county ?? null,
    latitude: b.geoPosition.latitude,
    longitude: b.geoPosition.longitude,
    contacts: b.contacts ?? {},
  };
}

@Injectable()
export class FacilitiesService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** One statement: the page (as JSON text, sent as is) and the filtered total. */
  async list(q: ListQuery<FacilityListFilter>): Promise<{ json: string; total: number; count: number }> {
    const { sql, params } = buildFacilityListQuery(q);
    const [row] = await this.read<{ total: number; rows: string }>(sql, params);
    // Page and total come from one snapshot, so the page size follows from them.
    const count = Math.max(0, Math.min(q.limit, row.total - q.offset));
    return { json: row.rows, total: row.total, count };
  }

  async lookups(filter: FacilityListFilter): Promise<string> {
    const { sql, params } = buildFacilityLookupQuery(filter);
    const [row] = await this.read<{ rows: string }>(sql, params);
    return row.rows;
  }

  async get(id: number): Promise<FacilityRecord> {
    const { sql, params } = buildFacilityGetQuery(id);
    const [row] = await this.sequelize.query<{ record: FacilityRecord }>(sql, { bind: params, type: QueryTypes.SELECT });
    if (!row) throw notFound();
    return row.record;
  }

  async create(body: FacilityInput): Promise<FacilityRecord> {
    const values = columns(body);
    await this.assertUnique(values.name, values.zipCode);
    const facility = await this.saving(() => Facility.create(values));
    auditValues({ facilityId: facility.id, isActive: facility.isActive });
    return this.get(facility.id);
  }

  async update(id: number, body: FacilityInput): Promise<FacilityRecord> {
    const facility = await Facility.findByPk(id, { lock: true });
    if (!facility) throw notFound();
    auditValues({ facilityId: id });
    const values = columns(body);
    await this.assertUnique(values.name, values.zipCode, id);
    if (facility.isActive && !values.isActive) await this.assertCanDeactivate(id);
    await this.saving(() => facility.update(values));
    auditValues({ isActive: values.isActive });
    return this.get(id);
  }

  /** The facility admin's only change to her facility (spec 03 §2 Facility detail tabs). */
  async setMfa(id: number, isMfaEnabled: boolean): Promise<FacilityRecord> {
    const [affected] = await Facility.update({ isMfaEnabled }, { where: { id } });
    if (!affected) throw notFound();
    auditValues({ facilityId: id, isMfaEnabled });
    return this.get(id);
  }

  /** The read-only hot path (list, lookups): see preparedRead. */
  private read<T>(sql: string, params: unknown[]): Promise<T[]> {
    return preparedRead<T>(this.sequelize, sql, params);
  }

  private async assertUnique(name: string, zipCode: string, exceptId = 0) {
    const rows = await this.sequelize.query(
      'SELECT 1 FROM facilities WHERE lower(name) = lower($1) AND zip_code = $2 AND id <> $3 LIMIT 1',
      { bind: [name, zipCode, exceptId], type: QueryTypes.SELECT },
    );
    if (rows.length) throw notUnique(NOT_UNIQUE_FIELDS);
  }

  /** A concurrent insert of the same name + zip gets past assertUnique; the unique index still refuses it. */
  private async saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof UniqueConstraintError && (err.original as { constraint?: string })?.constraint === FACILITY_UNIQUE_INDEX)
        throw notUnique(NOT_UNIQUE_FIELDS);
      throw err;
    }
  }

  /** Deactivation guards (spec 03 §4, §5): no active divisions, no group organization using it, no open case. */
  private async assertCanDeactivate(id: number) {
    const [active] = await this.sequelize.query<{ names: string[] | null }>(
      'SELECT array_agg(name ORDER BY lower(name)) AS names FROM divisions WHERE facility_id = $1 AND is_active',
      { bind: [id], type: QueryTypes.SELECT },
    );
    if (active.names?.length)
      throw new CodedError(ErrorCode.DeactivateFacilityWithActiveDivisions, active.names, [
        { field: 'isActive', key: 'deactivateWithActiveDivisions', message: 'The facility has active divisions' },
      ]);
    const groups = await this.sequelize.query<{ name: string }>(
      `SELECT DISTINCT g.name, lower(g.name) FROM group_organization_facilities gf
         JOIN group_organizations g ON g.id = gf.group_id
        WHERE gf.facility_id = $1 AND gf.kind IN ('included', 'placement')
        ORDER BY lower(g.name)`,
      { bind: [id], type: QueryTypes.SELECT },
    );
    if (groups.length)
      throw new CodedError(
        ErrorCode.DeactivateFacilityWithGroups,
        groups.map((g) => g.name),
        [{ field: 'isActive', key: 'deactivateWithGroups', message: 'The facility belongs to group organizations' }],
      );
    const patients = await activeCasePatients(this.sequelize, { facilityId: id });
    if (patients.length)
      throw new CodedError(ErrorCode.DeactivateFacilityWithActiveCases, patients, [
        { field: 'isActive', key: 'deactivateWithActiveCases', message: 'The facility has active cases' },
      ]);
  }
}
