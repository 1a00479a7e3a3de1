import { Inject, Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import {
  CodedError,
  ErrorCode,
  type EhrDialectName,
  type FacilityEhrConnectionRecord,
  type FacilityEhrKeyRecord,
  type FacilityEhrTestRecord,
} from '@crisis/forms';
import { notFound } from '../common/coded-error';
import { auditValues, requestContext } from '../common/request-context';
import { EHR_PORT, EhrError, type EhrConnection, type EhrPort } from './ehr.port';
import { openEhrKey, sealEhrKey } from './key-at-rest';

export interface EhrConnectionInput {
  dialect: EhrDialectName;
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  keyId?: string | null;
}

interface Row {
  facility_id: number;
  dialect: EhrDialectName | null;
  base_url: string | null;
  token_url: string | null;
  client_id: string | null;
  key_id: string | null;
  private_key_pem: string | null;
  department_id: string | null;
  updated_at: Date | null;
}

/** The EhrError of the adapter as the coded error a route answers (forms/src/errors.ts). */
export function ehrFailure(err: unknown): unknown {
  if (!(err instanceof EhrError)) return err;
  const payload = { kind: err.kind, ehrStatus: err.status ?? null };
  switch (err.kind) {
    case 'unauthorized':
      return new CodedError(ErrorCode.EhrKeyRefused, payload, undefined, err.message);
    case 'unavailable':
      return new CodedError(ErrorCode.EhrUnavailable, payload, undefined, err.message);
    case 'misconfigured':
      return new CodedError(ErrorCode.EhrNotConfigured, payload, undefined, err.message);
    case 'not-found':
    case 'rejected':
      return new CodedError(ErrorCode.EhrRejected, payload, undefined, err.message);
  }
}

const complete = (r: Row | undefined): boolean =>
  !!r && !!r.dialect && !!r.base_url && !!r.token_url && !!r.client_id && !!r.key_id && !!r.private_key_pem;

/**
 * The same rule for a query: facility `f` (an alias) is EHR-integrated — a department id and a
 * complete connection, as `forFacility` decides.
 */
export const ehrIntegratedSql = (f: string) => `(nullif(btrim(${f}.ehr_department_id), '') IS NOT NULL AND EXISTS (
    SELECT 1 FROM facility_ehr_connections x WHERE x.facility_id = ${f}.id AND x.dialect IS NOT NULL AND x.base_url IS NOT NULL
       AND x.token_url IS NOT NULL AND x.client_id IS NOT NULL AND x.key_id IS NOT NULL AND x.private_key_pem IS NOT NULL))`;

/**
 * Facilities' EHR connections (table facility_ehr_connections): the settings of the facility
 * edit page, key generation, the test button, and the connection the case look-ups, the
 * evaluation upload and the claims use. A facility is EHR-integrated when it has an EHR
 * department id AND a complete connection.
 */
@Injectable()
export class EhrConnections {
  constructor(
    @InjectConnection() private readonly sequelize: Sequelize,
    @Inject(EHR_PORT) private readonly ehr: EhrPort,
  ) {}

  private async row(facilityId: number): Promise<Row | undefined> {
    const [row] = await this.sequelize.query<Row>(
      `SELECT f.id AS facility_id, c.dialect, c.base_url, c.token_url, c.client_id, c.key_id, c.private_key_pem,
              nullif(btrim(f.ehr_department_id), '') AS department_id, c.updated_at
         FROM facilities f LEFT JOIN facility_ehr_connections c ON c.facility_id = f.id
        WHERE f.id = $1`,
      { bind: [facilityId], type: QueryTypes.SELECT },
    );
    return row;
  }

  private toConnection(r: Row): EhrConnection {
    return {
      facilityId: r.facility_id,
      dialect: r.dialect!,
      baseUrl: r.base_url!.replace(/\/+$/, ''),
      tokenUrl: r.token_url!,
      clientId: r.client_id!,
      // A key that cannot be opened (APP_SECRET changed) reaches the adapter as missing: 'misconfigured'.
      privateKeyPem: openEhrKey(r.facility_id, r.private_key_pem!) ?? '',
      keyId: r.key_id!,
      departmentId: r.department_id ?? '',
    };
  }

  /** The facility's connection when it is EHR-integrated (department id and a complete connection), else null. */
  async forFacility(facilityId: number): Promise<EhrConnection | null> {
    const r = await this.row(facilityId);
    return r && r.department_id && complete(r) ? this.toConnection(r) : null;
  }

  /** The connection of the division's facility when it is EHR-integrated, else null. */
  async forDivision(divisionId: number): Promise<EhrConnection | null> {
    const [d] = await this.sequelize.query<{ facility_id: number }>('SELECT facility_id FROM divisions WHERE id = $1', {
      bind: [divisionId],
      type: QueryTypes.SELECT,
    });
    return d ? this.forFacility(d.facility_id) : null;
  }

  /**
   * The connection for the payer search (spec 02 §1 "Athena payer search"): the EHR-integrated
   * facility with dialect athena, else the first EHR-integrated one.
   */
  async forPayerSearch(): Promise<EhrConnection | null> {
    const rows = await this.sequelize.query<{ facility_id: number }>(
      `SELECT c.facility_id FROM facility_ehr_connections c JOIN facilities f ON f.id = c.facility_id
        WHERE ${ehrIntegratedSql('f')}
        ORDER BY (c.dialect = 'athena') DESC, f.is_active DESC, c.facility_id`,
      { type: QueryTypes.SELECT },
    );
    for (const r of rows) {
      const conn = await this.forFacility(r.facility_id);
      if (conn) return conn;
    }
    return null;
  }

  async get(facilityId: number): Promise<FacilityEhrConnectionRecord> {
    const r = await this.row(facilityId);
    if (!r) throw notFound();
    return {
      facilityId: r.facility_id,
      dialect: r.dialect,
      baseUrl: r.base_url,
      tokenUrl: r.token_url,
      clientId: r.client_id,
      keyId: r.key_id,
      hasPrivateKey: !!r.private_key_pem,
      departmentId: r.department_id,
      isIntegrated: !!r.department_id && complete(r),
      updatedAt: r.updated_at ? new Date(r.updated_at).toISOString() : null,
    };
  }

  async save(facilityId: number, body: EhrConnectionInput): Promise<FacilityEhrConnectionRecord> {
    if (!(await this.row(facilityId))) throw notFound();
    auditValues({ facilityId, dialect: body.dialect, baseUrl: body.baseUrl, tokenUrl: body.tokenUrl, clientId: body.clientId, keyId: body.keyId ?? null });
    await this.sequelize.query(
      `INSERT INTO facility_ehr_connections (facility_id, dialect, base_url, token_url, client_id, key_id, updated_at, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, now(), $7)
       ON CONFLICT (facility_id) DO UPDATE
         SET dialect = EXCLUDED.dialect, base_url = EXCLUDED.base_url, token_url = EXCLUDED.token_url, client_id = EXCLUDED.client_id,
             key_id = coalesce(EXCLUDED.key_id, facility_ehr_connections.key_id), updated_at = now(), updated_by = EXCLUDED.updated_by`,
      { bind: [facilityId, body.dialect, body.baseUrl, body.tokenUrl, body.clientId, body.keyId ?? null, this.userId()] },
    );
    return this.get(facilityId);
  }

  /**
   * A new RS384 key pair: the private key is stored sealed (key-at-rest.ts; replacing the previous one), the public half
   * is answered as a JWK and a JWKS to register with the EHR under the connection's client id.
   */
  async generateKey(facilityId: number): Promise<FacilityEhrKeyRecord> {
    if (!(await this.row(facilityId))) throw notFound();
    const { privateKey, publicKey } = await generateKeyPair('RS384', { modulusLength: 2048, extractable: true });
    const keyId = `crisis-${facilityId}-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(4).toString('hex')}`;
    const pem = await exportPKCS8(privateKey);
    const publicJwk = { ...(await exportJWK(publicKey)), kid: keyId, alg: 'RS384', use: 'sig' };
    auditValues({ facilityId, keyId });
    await this.sequelize.query(
      `INSERT INTO facility_ehr_connections (facility_id, dialect, key_id, private_key_pem, updated_at, updated_by)
       VALUES ($1, 'epic', $2, $3, now(), $4)
       ON CONFLICT (facility_id) DO UPDATE
         SET key_id = EXCLUDED.key_id, private_key_pem = EXCLUDED.private_key_pem, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      { bind: [facilityId, keyId, sealEhrKey(facilityId, pem), this.userId()] },
    );
    return { keyId, publicJwk, jwks: { keys: [publicJwk] } };
  }

  /** The settings' test button: a token with the stored key, then the CapabilityStatement. */
  async test(facilityId: number): Promise<FacilityEhrTestRecord> {
    const r = await this.row(facilityId);
    if (!r) throw notFound();
    if (!complete(r)) {
      const missing = [
        !r.base_url && 'FHIR base URL',
        !r.token_url && 'token URL',
        !r.client_id && 'client id',
        !(r.key_id && r.private_key_pem) && 'key (generate one)',
      ].filter(Boolean);
      throw new CodedError(ErrorCode.EhrNotConfigured, { missing }, undefined, `The EHR connection is incomplete: ${missing.join(', ')} missing`);
    }
    auditValues({ facilityId });
    try {
      const result = await this.ehr.testConnection(this.toConnection(r));
      return { ok: true, ...result };
    } catch (err) {
      throw ehrFailure(err);
    }
  }

  private userId(): number | null {
    return requestContext.getStore()?.user?.id ?? null;
  }
}
