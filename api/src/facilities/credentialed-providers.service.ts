import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { ACTIVE_REQUEST_STATUSES, CodedError, DivisionType, ErrorCode, UserType, type CredentialedProviderRecord, type ProviderChoice } from '@crisis/forms';
import { invalid, notFound, notUnique } from '../common/coded-error';
import type { ListQuery } from '../common/list-query';
import { auditValues } from '../common/request-context';
import type { AcceptedPatients } from './division.model';
import { normalizeAcceptedPatients } from './divisions.service';
import { escapeLike } from './facility-list.query';

/** The body of POST/PUT .../credentialed-providers, as validated by schema('credentialedProvider'). */
export interface CredentialedProviderInput {
  providerId: number;
  divisionsIds: number[];
  addToNewDivisions: boolean;
  acceptedPatients: AcceptedPatients;
}

export interface CredentialedProviderListFilter {
  q?: string | null;
  divisionsIds?: number[];
  id?: number[];
}

export const CREDENTIALED_PROVIDER_SORTABLE = ['name'] as const;

const RECORD_SQL = `
  SELECT u.id,
         json_build_object('id', u.id, 'fullName', u.first_name || ' ' || u.last_name, 'providerType', u.provider_info->>'providerType') AS provider,
         coalesce((SELECT json_agg(json_build_object('id', d.id, 'name', d.name) ORDER BY lower(d.name), d.id)
                     FROM credentialed_provider_divisions cpd JOIN divisions d ON d.id = cpd.division_id
                    WHERE cpd.credentialed_provider_id = cp.id), '[]'::json) AS divisions,
         cp.add_to_new_divisions AS "addToNewDivisions",
         cp.accepted_patients AS "acceptedPatients"
    FROM credentialed_providers cp JOIN users u ON u.id = cp.provider_id`;

/**
 * Spec 03 §4: removing a provider from divisions where he has pending requests is refused, with the
 * division names as payload (an info dialog in the UI). Pending: an active request (spec 01 §3) of a
 * case whose source division is one of them.
 */
export async function assertNoPendingRequests(sequelize: Sequelize, providerId: number, divisionIds: number[]): Promise<void> {
  if (divisionIds.length === 0) return;
  const divisions = await sequelize.query<{ name: string }>(
    `SELECT d.name FROM divisions d
      WHERE d.id = ANY($2::int[])
        AND EXISTS (SELECT 1 FROM requests r JOIN cases c ON c.id = r.case_id
                     WHERE r.evaluation_provider_id = $1 AND r.status = ANY($3::text[]) AND c.source_division_id = d.id)
      ORDER BY lower(d.name), d.id`,
    { bind: [providerId, divisionIds, ACTIVE_REQUEST_STATUSES], type: QueryTypes.SELECT },
  );
  if (divisions.length)
    throw new CodedError(
      ErrorCode.RemoveProviderFromDivisionsWithPendingRequests,
      divisions.map((d) => d.name),
      [{ field: 'divisionsIds', key: 'pendingRequests', message: 'The provider has pending requests in these divisions' }],
    );
}

/**
 * Division deactivation guard (spec 03 §4, §8): refused while providers are credentialed for it,
 * with the providers as payload ({ id, fullName } each: the ids, and the names the dialog shows).
 */
export async function assertDivisionHasNoCredentialedProviders(sequelize: Sequelize, divisionId: number): Promise<void> {
  const providers = await sequelize.query<{ id: number; fullName: string }>(
    `SELECT u.id, u.first_name || ' ' || u.last_name AS "fullName"
       FROM credentialed_provider_divisions cpd
       JOIN credentialed_providers cp ON cp.id = cpd.credentialed_provider_id
       JOIN users u ON u.id = cp.provider_id
      WHERE cpd.division_id = $1
      ORDER BY lower(u.last_name), lower(u.first_name), u.id`,
    { bind: [divisionId], type: QueryTypes.SELECT },
  );
  if (providers.length)
    throw new CodedError(ErrorCode.DeactivateDivisionWithCredentialedProviders, providers, [
      { field: 'isActive', key: 'deactivateWithCredentialedProviders', message: 'The division has credentialed providers' },
    ]);
}

/** A new active Source division gets every provider of its facility who has addToNewDivisions set. */
export async function credentialProvidersForNewDivision(
  sequelize: Sequelize,
  division: { id: number; facilityId: number; type: string; isActive: boolean },
): Promise<void> {
  if (division.type !== DivisionType.Source || !division.isActive) return;
  await sequelize.query(
    `INSERT INTO credentialed_provider_divisions (credentialed_provider_id, division_id)
     SELECT cp.id, $2 FROM credentialed_providers cp WHERE cp.facility_id = $1 AND cp.add_to_new_divisions
     ON CONFLICT DO NOTHING`,
    { bind: [division.facilityId, division.id] },
  );
}

/** Credentialed providers of a facility (spec 03 §2, §3, §5 Credentialed provider). */
@Injectable()
export class CredentialedProvidersService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  async list(facilityId: number, q: ListQuery<CredentialedProviderListFilter>): Promise<{ rows: CredentialedProviderRecord[]; total: number }> {
    await this.assertFacility(facilityId);
    const f = q.filter;
    const rows = await this.sequelize.query<CredentialedProviderRecord & { total: string }>(
      `SELECT r.*, count(*) OVER () AS total FROM (${RECORD_SQL}
         WHERE cp.facility_id = $1
           AND ($2::text IS NULL OR lower(u.first_name || ' ' || u.last_name) LIKE lower($2))
           AND ($3::int[] IS NULL OR EXISTS (SELECT 1 FROM credentialed_provider_divisions x
                                              WHERE x.credentialed_provider_id = cp.id AND x.division_id = ANY($3::int[])))
           AND ($4::int[] IS NULL OR u.id = ANY($4::int[]))) r
       ORDER BY lower(r.provider->>'fullName') ${q.sortOrder === 'DESC' ? 'DESC' : 'ASC'}, r.id
       LIMIT $5 OFFSET $6`,
      {
        bind: [
          facilityId,
          f.q ? `%${escapeLike(f.q)}%` : null,
          f.divisionsIds?.length ? f.divisionsIds : null,
          f.id?.length ? f.id : null,
          q.limit,
          q.offset,
        ],
        type: QueryTypes.SELECT,
      },
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && q.offset > 0) total = await this.count(facilityId);
    return { rows: rows.map(({ total: _t, ...r }) => r), total };
  }

  async get(facilityId: number, providerId: number): Promise<CredentialedProviderRecord> {
    const [row] = await this.sequelize.query<CredentialedProviderRecord>(`${RECORD_SQL} WHERE cp.facility_id = $1 AND cp.provider_id = $2`, {
      bind: [facilityId, providerId],
      type: QueryTypes.SELECT,
    });
    if (!row) throw notFound();
    return row;
  }

  /** ITP providers the add modal may offer: active, not yet credentialed here (except the one being edited). */
  async availableProviders(facilityId: number, exceptProviderId: number | null): Promise<ProviderChoice[]> {
    await this.assertFacility(facilityId);
    return this.sequelize.query<ProviderChoice>(
      `SELECT u.id, u.first_name || ' ' || u.last_name AS "fullName", u.provider_info->>'providerType' AS "providerType"
         FROM users u
        WHERE u.user_type = $2 AND u.is_active AND NOT u.creating
          AND (u.id = $3 OR NOT EXISTS (SELECT 1 FROM credentialed_providers cp WHERE cp.facility_id = $1 AND cp.provider_id = u.id))
        ORDER BY lower(u.last_name), lower(u.first_name), u.id`,
      { bind: [facilityId, UserType.ItpProvider, exceptProviderId ?? 0], type: QueryTypes.SELECT },
    );
  }

  async create(facilityId: number, body: CredentialedProviderInput): Promise<CredentialedProviderRecord> {
    await this.assertFacility(facilityId, true);
    auditValues({ facilityId, providerId: body.providerId, divisionsIds: body.divisionsIds });
    await this.assertProvider(body.providerId);
    const [taken] = await this.sequelize.query('SELECT 1 FROM credentialed_providers WHERE facility_id = $1 AND provider_id = $2', {
      bind: [facilityId, body.providerId],
      type: QueryTypes.SELECT,
    });
    if (taken) throw notUnique(['providerId'], 'The provider is already credentialed at this facility');
    await this.assertDivisions(facilityId, body.divisionsIds, []);
    const [row] = await this.sequelize.query<{ id: number }>(
      `INSERT INTO credentialed_providers (facility_id, provider_id, add_to_new_divisions, accepted_patients)
       VALUES ($1, $2, $3, $4) RETURNING id`,
      {
        bind: [facilityId, body.providerId, body.addToNewDivisions, JSON.stringify(normalizeAcceptedPatients(body.acceptedPatients))],
        type: QueryTypes.SELECT,
      },
    );
    await this.setDivisions(row.id, body.divisionsIds);
    return this.get(facilityId, body.providerId);
  }

  async update(facilityId: number, providerId: number, body: CredentialedProviderInput): Promise<CredentialedProviderRecord> {
    auditValues({ facilityId, providerId, divisionsIds: body.divisionsIds });
    const current = await this.find(facilityId, providerId);
    if (body.providerId !== providerId)
      throw invalid([{ field: 'providerId', key: 'readOnly', message: 'The provider of a credentialed provider cannot be changed' }]);
    await this.assertDivisions(facilityId, body.divisionsIds, current.divisionIds);
    await assertNoPendingRequests(this.sequelize, providerId, current.divisionIds.filter((d) => !body.divisionsIds.includes(d)));
    await this.sequelize.query(
      'UPDATE credentialed_providers SET add_to_new_divisions = $2, accepted_patients = $3, updated_at = now() WHERE id = $1',
      { bind: [current.id, body.addToNewDivisions, JSON.stringify(normalizeAcceptedPatients(body.acceptedPatients))] },
    );
    await this.setDivisions(current.id, body.divisionsIds);
    return this.get(facilityId, providerId);
  }

  async remove(facilityId: number, providerId: number): Promise<{ id: number }> {
    auditValues({ facilityId, providerId });
    const current = await this.find(facilityId, providerId);
    await assertNoPendingRequests(this.sequelize, providerId, current.divisionIds);
    await this.sequelize.query('DELETE FROM credentialed_providers WHERE id = $1', { bind: [current.id] });
    return { id: providerId };
  }

  private async count(facilityId: number): Promise<number> {
    const [row] = await this.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM credentialed_providers WHERE facility_id = $1', {
      bind: [facilityId],
      type: QueryTypes.SELECT,
    });
    return Number(row.n);
  }

  private async find(facilityId: number, providerId: number): Promise<{ id: number; divisionIds: number[] }> {
    const [row] = await this.sequelize.query<{ id: number; divisionIds: number[] }>(
      `SELECT cp.id, coalesce(array_agg(cpd.division_id) FILTER (WHERE cpd.division_id IS NOT NULL), '{}') AS "divisionIds"
         FROM credentialed_providers cp LEFT JOIN credentialed_provider_divisions cpd ON cpd.credentialed_provider_id = cp.id
        WHERE cp.facility_id = $1 AND cp.provider_id = $2
        GROUP BY cp.id`,
      { bind: [facilityId, providerId], type: QueryTypes.SELECT },
    );
    if (!row) throw notFound();
    return row;
  }

  private async setDivisions(credentialedProviderId: number, divisionIds: number[]) {
    await this.sequelize.query(
      'DELETE FROM credentialed_provider_divisions WHERE credentialed_provider_id = $1 AND NOT (division_id = ANY($2::int[]))',
      { bind: [credentialedProviderId, divisionIds] },
    );
    await this.sequelize.query(
      `INSERT INTO credentialed_provider_divisions (credentialed_provider_id, division_id)
       SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
      { bind: [credentialedProviderId, divisionIds] },
    );
  }

  /** The provider must be a user of type ITP provider (400 INV on providerId otherwise). */
  private async assertProvider(providerId: number) {
    const [row] = await this.sequelize.query('SELECT 1 FROM users WHERE id = $1 AND user_type = $2', {
      bind: [providerId, UserType.ItpProvider],
      type: QueryTypes.SELECT,
    });
    if (!row) throw invalid([{ field: 'providerId', key: 'notAProvider', message: 'Not an ITP provider' }]);
  }

  /** Offered divisions are the facility's active Source ones (plus those the provider already has). */
  private async assertDivisions(facilityId: number, divisionIds: number[], alreadyLinked: number[]) {
    const rows = await this.sequelize.query<{ id: number }>(
      `SELECT id FROM divisions WHERE facility_id = $1 AND id = ANY($2::int[])
          AND ((type = 'Source' AND is_active) OR id = ANY($3::int[]))`,
      { bind: [facilityId, divisionIds, alreadyLinked], type: QueryTypes.SELECT },
    );
    if (rows.length !== divisionIds.length)
      throw invalid([{ field: 'divisionsIds', key: 'notActiveSourceDivision', message: 'Only active Source divisions of this facility can be chosen' }]);
  }

  private async assertFacility(facilityId: number, lock = false) {
    const [row] = await this.sequelize.query(`SELECT id FROM facilities WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, {
      bind: [facilityId],
      type: QueryTypes.SELECT,
    });
    if (!row) throw notFound();
  }
}
