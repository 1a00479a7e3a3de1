import { Controller, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  ErrorCode,
  AUDIT_LOG_SORTABLE,
  type AppAbility,
  type AuditLogEntryDetail,
  type AuditLogFilter,
  type AuditLogRecord,
  type AuditLogSortField,
} from '@crisis/forms';
import { CurrentAbility } from '../auth/current-user.decorator';
import { invalid, notFound } from '../common/coded-error';
import { contentRange, queryValue } from '../common/list-query';
import { checkFilter, parseCheckedList } from '../facilities/list-params';
import { auditScope, AuditLogService, type AuditLogListQuery } from './audit-log.service';
import { Route } from '../common/route';

const FILTER_KEYS = ['from', 'to', 'mainAction', 'userId', 'user', 'success'];
const FILTER_DOC = 'from, to (ISO date-times; default the last day up to now; to not before from, neither in the future), mainAction, userId, user (name or e-mail contains), success';
const MAX_TAKE = 1000;

const bad = (field: string, message: string) => invalid([{ field, key: 'invalid', message }]);

/** The filter of get-all / csv: `filter={...}` (JSON) or the same keys as plain query parameters. */
function parseFilter(query: Record<string, unknown>): AuditLogFilter {
  let raw: Record<string, unknown> = {};
  const json = queryValue(query.filter);
  if (typeof json === 'string' && json !== '') {
    try {
      raw = JSON.parse(json);
    } catch {
      throw bad('filter', 'filter must be JSON');
    }
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw bad('filter', 'filter must be a JSON object');
  }
  for (const key of FILTER_KEYS) {
    if (query[key] === undefined) continue;
    const v = queryValue(query[key]);
    raw[key] = key === 'success' ? (v === 'true' ? true : v === 'false' ? false : v) : key === 'userId' && /^\d{1,10}$/.test(String(v)) ? Number(v) : v;
  }
  return checkFilter<AuditLogFilter>(raw, 'auditLogFilter');
}

function parseInt0(raw: unknown, field: string, def: number, min: number, max: number): number {
  const v = queryValue(raw);
  if (v === undefined || v === '') return def;
  if (!/^\d{1,10}$/.test(String(v))) throw bad(field, `${field} must be a whole number`);
  const n = Number(v);
  if (n < min || n > max) throw bad(field, `${field} must be between ${min} and ${max}`);
  return n;
}

/** Paging (skip/take), sort (fieldId/dir, default performedAt descending) and the filter. */
function parseGetAll(query: Record<string, unknown>): AuditLogListQuery & { includeTotal: boolean } {
  const fieldId = String(queryValue(query.fieldId) ?? 'performedAt');
  if (!(AUDIT_LOG_SORTABLE as readonly string[]).includes(fieldId)) throw bad('fieldId', `fieldId must be one of ${AUDIT_LOG_SORTABLE.join(', ')}`);
  const dir = String(queryValue(query.dir) ?? 'desc').toUpperCase();
  if (dir !== 'ASC' && dir !== 'DESC') throw bad('dir', 'dir must be asc or desc');
  const includeTotal = String(queryValue(query.includeTotal) ?? 'false');
  if (!['true', 'false'].includes(includeTotal)) throw bad('includeTotal', 'includeTotal must be true or false');
  return {
    filter: parseFilter(query),
    sortField: fieldId as AuditLogSortField,
    sortOrder: dir,
    offset: parseInt0(query.skip, 'skip', 0, 0, 2147483647),
    limit: parseInt0(query.take, 'take', 25, 1, MAX_TAKE),
    includeTotal: includeTotal === 'true',
  };
}

function parseTimeZone(raw: unknown): string {
  const tz = String(queryValue(raw) ?? 'UTC');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    throw bad('tz', 'tz must be an IANA time zone');
  }
}

/** An audit entry id (bigint): digits only and within JavaScript's safe integers, else 404. */
function parseEntryId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  const n = Number(raw);
  if (n < 1) throw notFound();
  return n;
}

const ENTRY = {
  type: 'object',
  properties: Object.fromEntries(
    ['id', 'performedAt', 'mainAction', 'kind', 'userId', 'userName', 'email', 'userType', 'organization', 'facilityId', 'division', 'success'].map((k) => [k, {}]),
  ),
};

/**
 * The audit log (spec 03 §7 Audit log): the ITP admin reads the global table, a facility admin her
 * facility's entries only (scope from the ability table, applied in every query).
 */
@ApiTags('audit-log')
@Controller('api/audit-log')
export class AuditLogController {
  constructor(private readonly auditLog: AuditLogService) {}

  @Route('GET', '', 'read', 'AuditLog')
  @ApiQuery({ name: 'sort', required: false, description: `JSON ["field","ASC"|"DESC"]; field one of ${AUDIT_LOG_SORTABLE.join(', ')}; default performedAt DESC` })
  @ApiQuery({ name: 'range', required: false, description: 'JSON [first, last] row numbers, e.g. [0,24]' })
  @ApiQuery({ name: 'filter', required: false, description: `JSON object with ${FILTER_DOC}` })
  @ApiBadRequestResponse({ description: "INV: bad sort, range or filter (to before from: key crossTime, 'cross time')" })
  @ApiOkResponse({ description: 'A page of entries (ra-data-simple-rest); the filtered total in Content-Range', schema: { type: 'array', items: ENTRY } })
  async list(@Query() query: Record<string, unknown>, @CurrentAbility() ability: AppAbility, @Res({ passthrough: true }) reply: FastifyReply): Promise<AuditLogRecord[]> {
    const q = parseCheckedList<AuditLogFilter>(query, { sortable: AUDIT_LOG_SORTABLE, defaultSort: ['performedAt', 'DESC'], schema: 'auditLogFilter', maxPage: MAX_TAKE });
    const { items, total } = await this.auditLog.list({ ...q, sortField: q.sortField as AuditLogSortField }, auditScope(ability));
    reply.header('Content-Range', contentRange('audit-log', q.offset, items.length, total));
    return items;
  }

  @Route('GET', 'get-all', 'read', 'AuditLog')
  @ApiQuery({ name: 'skip', required: false, type: Number })
  @ApiQuery({ name: 'take', required: false, type: Number, description: `1 to ${MAX_TAKE}, default 25` })
  @ApiQuery({ name: 'fieldId', required: false, description: `sort field: ${AUDIT_LOG_SORTABLE.join(', ')} (default performedAt)` })
  @ApiQuery({ name: 'dir', required: false, description: 'asc | desc (default desc)' })
  @ApiQuery({ name: 'includeTotal', required: false, type: Boolean })
  @ApiQuery({ name: 'filter', required: false, description: `JSON object (or the same keys as query parameters): ${FILTER_DOC}` })
  @ApiBadRequestResponse({ description: 'INV: bad paging, sort or filter' })
  @ApiOkResponse({ description: '{ items, total? }', schema: { type: 'object', properties: { items: { type: 'array', items: ENTRY }, total: { type: 'integer' } } } })
  async getAll(@Query() query: Record<string, unknown>, @CurrentAbility() ability: AppAbility): Promise<{ items: AuditLogRecord[]; total?: number }> {
    const { includeTotal, ...q } = parseGetAll(query);
    const scope = auditScope(ability);
    if (!includeTotal) return { items: await this.auditLog.page(q, scope) };
    return this.auditLog.list(q, scope);
  }

  @Route('GET', 'main-actions', 'read', 'AuditLog')
  @ApiOkResponse({ description: 'The distinct main actions (of the entries the caller may read), sorted', schema: { type: 'array', items: { type: 'string' } } })
  mainActions(@CurrentAbility() ability: AppAbility): Promise<string[]> {
    return this.auditLog.mainActions(auditScope(ability));
  }

  @Route('GET', 'csv', 'read', 'AuditLog')
  @ApiProduces('text/csv')
  @ApiQuery({ name: 'filter', required: false, description: `JSON object (or the same keys as query parameters): ${FILTER_DOC}` })
  @ApiQuery({ name: 'fieldId', required: false })
  @ApiQuery({ name: 'dir', required: false })
  @ApiQuery({ name: 'tz', required: false, description: 'IANA time zone of the performed-at column (default UTC)' })
  @ApiBadRequestResponse({ description: 'INV: bad sort or filter' })
  @ApiOkResponse({ description: 'CSV attachment audit-log-<date>.csv with a header row' })
  csv(@Query() query: Record<string, unknown>, @CurrentAbility() ability: AppAbility): StreamableFile {
    const { filter, sortField, sortOrder } = parseGetAll({ ...query, skip: undefined, take: undefined, includeTotal: undefined });
    const timeZone = parseTimeZone(query.tz);
    const stream = this.auditLog.csv({ filter, sortField, sortOrder }, auditScope(ability), timeZone);
    const date = new Date().toISOString().slice(0, 10);
    return new StreamableFile(stream, { type: 'text/csv; charset=utf-8', disposition: `attachment; filename="audit-log-${date}.csv"` });
  }

  @Route('GET', 'audit-log-value/:id', 'read', 'AuditLog')
  @ApiOkResponse({ description: 'The entry with its body and its values as path/value pairs' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  get(@Param('id') rawId: string, @CurrentAbility() ability: AppAbility): Promise<AuditLogEntryDetail> {
    return this.auditLog.get(parseEntryId(rawId), ability);
  }
}
