import { once } from 'events';
import type { Readable } from 'stream';
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/sequelize';
import { QueryTypes } from 'sequelize';
import { Sequelize } from 'sequelize-typescript';
import { stringify } from 'csv-stringify';
import { flattenValues, formatDateTimeIn, type AppAbility, type AuditLogEntryDetail, type AuditLogFilter, type AuditLogRecord, type AuditLogSortField } from '@crisis/forms';
import { assertCan } from '../auth/abilities.guard';
import { forbidden, notFound } from '../common/coded-error';
import { windowedPage } from '../common/windowed-page';
import { auditLogCountSql, auditLogPageSql, mainActionsSql, AUDIT_LOG_COLUMNS, type AuditLogScope } from './audit-log.query';

export interface AuditLogListQuery {
  filter: AuditLogFilter;
  sortField: AuditLogSortField;
  sortOrder: 'ASC' | 'DESC';
  offset: number;
  limit: number;
}

/** CSV columns (spec 03 §3): performed at in MM/dd/yyyy hh:mm aa, then the entry's who and what. */
export const AUDIT_CSV_COLUMNS = [
  { key: 'performedAt', header: 'Performed at' },
  { key: 'mainAction', header: 'Main action' },
  { key: 'kind', header: 'Kind' },
  { key: 'userName', header: 'User' },
  { key: 'email', header: 'E-mail' },
  { key: 'userType', header: 'User type' },
  { key: 'organization', header: 'Organization' },
  { key: 'division', header: 'Division' },
  { key: 'success', header: 'Success' },
] as const;
const CSV_BATCH = 1000;
/** An export is at most this many rows (a narrower range or filter gets the rest). */
export const CSV_MAX_ROWS = 200_000;

/**
 * Which entries a user may read, from the ability table: a rule without conditions is the global
 * table (ITP admin); `read AuditLog {facilityId}` is that facility's entries (facility admin).
 */
export function auditScope(ability: AppAbility): AuditLogScope {
  const rules = ability.rulesFor('read', 'AuditLog').filter((r) => !r.inverted);
  if (rules.some((r) => !r.conditions)) return { facilityId: null };
  const facilityId = rules.map((r) => (r.conditions as { facilityId?: unknown } | undefined)?.facilityId).find((v) => typeof v === 'number');
  if (typeof facilityId !== 'number') throw forbidden();
  return { facilityId };
}

/** MM/dd/yyyy hh:mm aa in the given IANA time zone. */
/** MM/dd/yyyy hh:mm AM in the caller's time zone (spec 03 §9). */
export function formatPerformedAt(d: Date, timeZone: string): string {
  return formatDateTimeIn(d, timeZone);
}

const toRecord = (r: any): AuditLogRecord => ({ ...r, id: Number(r.id), performedAt: new Date(r.performedAt).toISOString() });

/** Reads of the append-only audit log. Writes go through AuditService only. */
@Injectable()
export class AuditLogService {
  constructor(@InjectConnection() private readonly sequelize: Sequelize) {}

  /** A page of entries, without the total. */
  async page(q: AuditLogListQuery, scope: AuditLogScope, now = Date.now()): Promise<AuditLogRecord[]> {
    const { sql, params } = auditLogPageSql({ ...q, scope }, now, { withTotal: false });
    const rows = await this.sequelize.query(sql, { bind: params, type: QueryTypes.SELECT });
    return rows.map(toRecord);
  }

  /** A page and its total, counted up to AUDIT_LOG_COUNT_CAP + 1 (the UI shows "1,000+"). */
  async list(q: AuditLogListQuery, scope: AuditLogScope): Promise<{ items: AuditLogRecord[]; total: number }> {
    const now = Date.now();
    const page = auditLogPageSql({ ...q, scope }, now);
    // The time range alone (the default page) plans alike for any range; a text or an action decides its own plan.
    const plan = q.filter.user || q.filter.mainAction || q.filter.userId ? 'auto' : 'generic';
    const { rows, total } = await windowedPage<unknown>(this.sequelize, page.sql, page.params, auditLogCountSql(q.filter, scope, now).sql, q.offset, { plan });
    return { items: rows.map(toRecord), total };
  }

  async get(id: number, ability: AppAbility): Promise<AuditLogEntryDetail> {
    const [row] = await this.sequelize.query<any>(
      `SELECT ${AUDIT_LOG_COLUMNS}, method, path, status_code AS "statusCode", correlation_id AS "correlationId", body, "values"
         FROM audit_log WHERE id = $1`,
      { bind: [id], type: QueryTypes.SELECT },
    );
    if (!row) throw notFound();
    assertCan(ability, 'read', 'AuditLog', { facilityId: row.facilityId });
    return { ...toRecord(row), values: flattenValues(row.values ?? {}) } as AuditLogEntryDetail;
  }

  async mainActions(scope: AuditLogScope): Promise<string[]> {
    const { sql, params } = mainActionsSql(scope);
    const rows = await this.sequelize.query<{ mainAction: string }>(sql, { bind: params, type: QueryTypes.SELECT });
    return rows.map((r) => r.mainAction);
  }

  /** The filtered list as CSV, read in batches and streamed through csv-stringify (never whole in memory). */
  csv(q: Omit<AuditLogListQuery, 'offset' | 'limit'>, scope: AuditLogScope, timeZone: string): Readable {
    const now = Date.now();
    const out = stringify({ header: true, columns: AUDIT_CSV_COLUMNS.map((c) => ({ key: c.key, header: c.header })) });
    void (async () => {
      try {
        for (let offset = 0; offset < CSV_MAX_ROWS; offset += CSV_BATCH) {
          const rows = await this.page({ ...q, offset, limit: Math.min(CSV_BATCH, CSV_MAX_ROWS - offset) }, scope, now);
          for (const r of rows) {
            const line = {
              ...r,
              performedAt: formatPerformedAt(new Date(r.performedAt), timeZone),
              success: r.success ? 'Yes' : 'No',
            };
            if (!out.write(line)) await once(out, 'drain');
          }
          if (rows.length < CSV_BATCH) break;
        }
        out.end();
      } catch (err) {
        out.destroy(err as Error);
      }
    })();
    return out;
  }
}
