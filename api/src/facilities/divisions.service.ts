import { Injectable } from '@nestjs/common';
import { Op, QueryTypes, Sequelize, UniqueConstraintError, type Order, type WhereOptions } from 'sequelize';
import {
  AGE_BANDS,
  CodedError,
  DEFAULT_DIVISION_SCORE,
  ErrorCode,
  DivisionType,
  REQUEST_TYPES,
  criteriaAllowedFor,
  type CredentialedProviderLookup,
  type RequestType,
  type DivisionLookup,
  type DivisionRecord,
  type ReferringType,
} from '@crisis/forms';
import { invalid, notFound, notUnique } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { auditValues } from '../common/request-context';
import { activeCasePatients } from './active-cases';
import { Division, type AcceptedPatients } from './division.model';
import { escapeLike } from './facility-list.query';
import { Facility } from './facility.model';
import { assertDivisionHasNoCredentialedProviders, credentialProvidersForNewDivision } from './credentialed-providers.service';

/** The body of POST/PUT .../divisions, as validated by schema('division') and divisionRules. */
export type DivisionInput = Omit<DivisionRecord, 'id' | 'facilityId' | 'npi' | 'description' | 'isActive'> & {
  npi?: string | null;
  description?: string | null;
  isActive: boolean;
};

export interface DivisionListFilter {
  q?: string | null;
  type?: DivisionType | null;
  showActiveOnly?: boolean | null;
  id?: number[];
}

export const DIVISION_SORTABLE = ['name', 'type', 'isActive'] as const;
const DIVISION_UNIQUE_INDEX = 'divisions_facility_name_uniq';

const SOURCE_FIELDS = ['sourceType', 'documentInEHR', 'noPlacement', 'outcomeRequired', 'showBillingCode', 'requestTypes'] as const;
const REFERRING_FIELDS = ['referringType', 'criteria', 'acceptedPatients', 'genders', 'veteranOnly', 'extendMaximumCallbackTime', 'score'] as const;

/** "All ages" clears the bands; an unchecked band keeps no range (spec 03 §4; credentialed providers too). */
export function normalizeAcceptedPatients(ap: AcceptedPatients): AcceptedPatients {
  const out: AcceptedPatients = { allAges: ap.allAges };
  for (const band of AGE_BANDS) {
    const b = ap[band];
    out[band] = !ap.allAges && b?.isActive ? { isActive: true, from: b.from, to: b.to } : { isActive: false, from: null, to: null };
  }
  return out;
}

/** The columns of a division: only the fields of its type are kept, the others are null. */
export function divisionColumns(b: DivisionInput) {
  const base = {
    name: b.name,
    npi: b.npi ?? null,
    isActive: b.isActive,
    description: b.description ?? null,
    type: b.type,
    contacts: b.contacts ?? {},
  };
  const nulls = Object.fromEntries([...SOURCE_FIELDS, ...REFERRING_FIELDS].map((f) => [f, null]));
  if (b.type === DivisionType.Source)
    return {
      ...base,
      ...nulls,
      sourceType: b.sourceType,
      documentInEHR: b.documentInEHR ?? null,
      // With documentInEHR off there is no "no placement" option.
      noPlacement: b.documentInEHR ? (b.noPlacement ?? false) : false,
      outcomeRequired: b.outcomeRequired ?? null,
      showBillingCode: b.showBillingCode ?? null,
      requestTypes: b.requestTypes,
    };
  const allowed = criteriaAllowedFor(b.referringType as ReferringType);
  return {
    ...base,
    ...nulls,
    referringType: b.referringType,
    criteria: allowed.length ? b.criteria : null,
    acceptedPatients: b.acceptedPatients ? normalizeAcceptedPatients(b.acceptedPatients) : null,
    genders: b.genders,
    veteranOnly: b.veteranOnly,
    extendMaximumCallbackTime: b.extendMaximumCallbackTime,
    score: b.score ?? DEFAULT_DIVISION_SCORE,
  };
}

export function toDivisionRecord(d: Division): DivisionRecord {
  return {
    id: d.id,
    facilityId: d.facilityId,
    name: d.name,
    npi: d.npi,
    isActive: d.isActive,
    description: d.description,
    type: d.type,
    contacts: d.contacts ?? {},
    sourceType: d.sourceType,
    documentInEHR: d.documentInEHR,
    noPlacement: d.noPlacement,
    outcomeRequired: d.outcomeRequired,
    showBillingCode: d.showBillingCode,
    requestTypes: d.requestTypes,
    referringType: d.referringType,
    criteria: d.criteria,
    acceptedPatients: d.acceptedPatients,
    genders: d.genders,
    veteranOnly: d.veteranOnly,
    extendMaximumCallbackTime: d.extendMaximumCallbackTime,
    score: d.score,
  };
}

const lowerName = () => Sequelize.fn('lower', Sequelize.col('name'));

function divisionWhere(facilityId: number, f: DivisionListFilter): WhereOptions {
  const and: unknown[] = [{ facilityId }];
  if (f.q) and.push(Sequelize.where(lowerName(), { [Op.like]: Sequelize.fn('lower', `%${escapeLike(f.q)}%`) }));
  if (f.type) and.push({ type: f.type });
  if (f.showActiveOnly) and.push({ isActive: true });
  if (f.id) and.push({ id: { [Op.in]: f.id } });
  return { [Op.and]: and } as WhereOptions;
}

const ORDER: Record<(typeof DIVISION_SORTABLE)[number], (dir: string) => Order> = {
  name: (dir) => [[lowerName(), dir], ['id', dir]],
  type: (dir) => [['type', dir], [lowerName(), dir], ['id', dir]],
  isActive: (dir) => [['isActive', dir], [lowerName(), dir], ['id', dir]],
};

@Injectable()
export class DivisionsService {
  async list(facilityId: number, q: ListQuery<DivisionListFilter>): Promise<{ rows: DivisionRecord[]; total: number }> {
    await this.assertFacility(facilityId);
    const { rows, count } = await Division.findAndCountAll({
      where: divisionWhere(facilityId, q.filter),
      order: ORDER[q.sortField as keyof typeof ORDER](q.sortOrder),
      offset: q.offset,
      limit: q.limit,
    });
    return { rows: rows.map(toDivisionRecord), total: count };
  }

  async lookups(facilityId: number, filter: DivisionListFilter): Promise<DivisionLookup[]> {
    await this.assertFacility(facilityId);
    const rows = await Division.findAll({
      attributes: ['id', 'name', 'isActive', 'type'],
      where: divisionWhere(facilityId, filter),
      order: ORDER.name('ASC'),
    });
    return rows.map((d) => ({ id: d.id, name: d.name, isActive: d.isActive, type: d.type }));
  }

  /**
   * GET .../divisions/{divisionId}/credentialed-providers/lookups: the enabled providers credentialed
   * to this division (id, fullName, providerType), sorted by name.
   */
  async credentialedProviderLookups(facilityId: number, divisionId: number): Promise<CredentialedProviderLookup[]> {
    await this.find(facilityId, divisionId);
    return (await Division.sequelize!.query(
      `SELECT u.id, u.first_name || ' ' || u.last_name AS "fullName", u.provider_info->>'providerType' AS "providerType"
         FROM credentialed_provider_divisions cpd
         JOIN credentialed_providers cp ON cp.id = cpd.credentialed_provider_id AND cp.facility_id = :facilityId
         JOIN users u ON u.id = cp.provider_id
        WHERE cpd.division_id = :divisionId AND u.is_active AND NOT u.creating
        ORDER BY lower(u.first_name || ' ' || u.last_name), u.id`,
      { replacements: { facilityId, divisionId }, type: QueryTypes.SELECT },
    )) as CredentialedProviderLookup[];
  }

  /**
   * GET .../divisions/{divisionId}/request-types/lookups: the request types the division offers
   * (a Source division's requestTypes; none for a Referring one), in the enumeration's order.
   */
  async requestTypeLookups(facilityId: number, divisionId: number): Promise<RequestType[]> {
    const division = await this.find(facilityId, divisionId);
    const offered = new Set(division.type === DivisionType.Source ? (division.requestTypes ?? []) : []);
    return REQUEST_TYPES.filter((t) => offered.has(t));
  }

  async get(facilityId: number, divisionId: number): Promise<DivisionRecord> {
    return toDivisionRecord(await this.find(facilityId, divisionId));
  }

  async create(facilityId: number, body: DivisionInput): Promise<DivisionRecord> {
    await this.assertFacility(facilityId);
    auditValues({ facilityId });
    const values = divisionColumns(body);
    await this.assertUnique(facilityId, values.name);
    const division = await this.saving(() => Division.create({ ...values, facilityId }));
    // Providers credentialed with addToNewDivisions get a new active Source division (spec 03 §4).
    await credentialProvidersForNewDivision(Division.sequelize as never, division);
    auditValues({ divisionId: division.id, divisionName: division.name, isActive: division.isActive });
    return toDivisionRecord(division);
  }

  async update(facilityId: number, divisionId: number, body: DivisionInput): Promise<DivisionRecord> {
    const division = await this.find(facilityId, divisionId, true);
    auditValues({ facilityId, divisionId, divisionName: division.name });
    // Type and subtype are fixed once the division exists (spec 03 §5 Division).
    const fixed = division.type === DivisionType.Source ? 'sourceType' : 'referringType';
    if (body.type !== division.type)
      throw invalid([{ field: 'type', key: 'readOnly', message: 'The division type cannot be changed' }]);
    if (body[fixed] !== division[fixed])
      throw invalid([{ field: fixed, key: 'readOnly', message: 'The division subtype cannot be changed' }]);
    const values = divisionColumns(body);
    await this.assertUnique(facilityId, values.name, divisionId);
    // Division deactivation guards (spec 03 §4, §5): no credentialed providers, no open case.
    if (division.isActive && !values.isActive) {
      await assertDivisionHasNoCredentialedProviders(Division.sequelize as never, divisionId);
      const patients = await activeCasePatients(Division.sequelize as never, { divisionId });
      if (patients.length)
        throw new CodedError(ErrorCode.DeactivateDivisionWithActiveCases, patients, [
          { field: 'isActive', key: 'deactivateWithActiveCases', message: 'The division has active cases' },
        ]);
    }
    await this.saving(() => division.update(values));
    auditValues({ divisionName: division.name, isActive: division.isActive });
    return toDivisionRecord(division);
  }

  private async find(facilityId: number, divisionId: number, lock = false): Promise<Division> {
    // A division of another facility is "not found" here, like an unknown id.
    const division = await Division.findOne({ where: { id: divisionId, facilityId }, lock });
    if (!division) throw notFound();
    return division;
  }

  private async assertFacility(facilityId: number) {
    if (!(await Facility.findByPk(facilityId, { attributes: ['id'] }))) throw notFound();
  }

  private async assertUnique(facilityId: number, name: string, exceptId = 0) {
    const clash = await Division.findOne({
      attributes: ['id'],
      where: { facilityId, id: { [Op.ne]: exceptId }, [Op.and]: [Sequelize.where(lowerName(), Sequelize.fn('lower', name))] },
    });
    if (clash) throw notUnique(['name']);
  }

  private async saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof UniqueConstraintError && (err.original as { constraint?: string })?.constraint === DIVISION_UNIQUE_INDEX)
        throw notUnique(['name']);
      throw err;
    }
  }
}
