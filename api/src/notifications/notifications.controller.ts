import { Body, Controller, HttpCode, Query } from '@nestjs/common';
import { ApiBody, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { NOTIFICATION_PAGE_MAX, NOTIFICATION_PAGE_SIZE, USER_LOOKUP_BATCH, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { SkipAudit } from '../audit/audit.interceptor';
import { invalid } from '../common/coded-error';
import { IdParam } from '../common/id-param';
import { Route } from '../common/route';
import type { ListOptions } from './notifications.query';
import { NotificationsService, readerOf } from './notifications.service';

const one = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);

/** cursor (a notification id), limit (1..100), isRead (true/false) of a list query; else 400 INV naming the field. */
function listOptions(query: Record<string, unknown>): ListOptions {
  const cursor = one(query.cursor);
  const limit = one(query.limit);
  const isRead = one(query.isRead);
  const fields = [];
  if (cursor !== undefined && cursor !== '' && !/^[1-9]\d{0,9}$/.test(String(cursor))) fields.push({ field: 'cursor', key: 'type', message: 'Must be a notification id' });
  if (limit !== undefined && limit !== '' && !(/^\d{1,3}$/.test(String(limit)) && Number(limit) >= 1 && Number(limit) <= NOTIFICATION_PAGE_MAX))
    fields.push({ field: 'limit', key: 'range', message: `Must be 1 to ${NOTIFICATION_PAGE_MAX}` });
  if (isRead !== undefined && isRead !== '' && isRead !== 'true' && isRead !== 'false') fields.push({ field: 'isRead', key: 'type', message: 'Must be true or false' });
  if (fields.length) throw invalid(fields);
  return {
    cursor: cursor === undefined || cursor === '' ? null : Number(cursor),
    limit: limit === undefined || limit === '' ? NOTIFICATION_PAGE_SIZE : Number(limit),
    isRead: isRead === undefined || isRead === '' ? null : isRead === 'true',
  };
}

/** A list of positive ids, at most `max`, from an array or a comma-separated string; else 400 INV naming `field`. */
function idList(raw: unknown, field: string, max: number): number[] {
  const parts = Array.isArray(raw) ? raw.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])) : typeof raw === 'string' ? raw.split(',') : raw;
  if (!Array.isArray(parts) || !parts.length) throw invalid([{ field, key: 'required', message: 'Required: a list of ids' }]);
  if (parts.length > max) throw invalid([{ field, key: 'maxItems', message: `At most ${max} ids` }]);
  const ids = parts.map((p) => (typeof p === 'number' ? p : typeof p === 'string' && /^\s*\d{1,10}\s*$/.test(p) ? Number(p) : NaN));
  if (ids.some((n) => !Number.isInteger(n) || n < 1 || n > 2147483647)) throw invalid([{ field, key: 'type', message: 'Each id must be a positive integer' }]);
  return [...new Set(ids)];
}

const LIST_QUERIES = [
  ApiQuery({ name: 'cursor', required: false, description: 'The id of the last notification of the previous page (older ones follow)' }),
  ApiQuery({ name: 'limit', required: false, description: `Page size, 1 to ${NOTIFICATION_PAGE_MAX} (default ${NOTIFICATION_PAGE_SIZE})` }),
  ApiQuery({ name: 'isRead', required: false, enum: ['true', 'false'] }),
];
const apply = (decorators: MethodDecorator[]): MethodDecorator => (t, k, d) => decorators.forEach((dec) => dec(t, k, d));

/**
 * The notification bell's calls (spec 03 §7 "PUT /api/user/{id}/dismiss-notification; GET
 * /api/user/getUserNotifications"): every signed-in user, on her own notifications only.
 */
@ApiTags('notifications')
@Controller('api/user')
export class UserNotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Route('GET', 'getUserNotifications', 'access', 'NotificationBell')
  @ApiOperation({ summary: "The caller's unresolved notifications, newest first (keyset pages), and how many are unresolved (counted to 100: the badge shows 99+)" })
  @apply(LIST_QUERIES)
  @ApiOkResponse({ description: '{ items, unresolvedCount, nextCursor }' })
  list(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>) {
    return this.notifications.unresolved(readerOf(user), listOptions(query));
  }

  @Route('PUT', ':id/dismiss-notification', 'access', 'NotificationBell', 'Notification.Dismiss')
  @ApiOperation({ summary: "Dismiss the caller's resolved notification {id}: it leaves the resolved list" })
  @ApiNotFoundResponse({ description: "NTFND: no such notification of the caller's" })
  @ApiConflictResponse({ description: 'INV.NOTIFICATION.NOT.RESOLVED: only a resolved notification can be dismissed' })
  dismiss(@CurrentUser() user: UserContext, @IdParam('id') id: number) {
    return this.notifications.dismiss(readerOf(user), id);
  }
}

/** The rest of spec 02 §7 "Notifications": the filtered query, resolve, mark read, user look-ups. */
@ApiTags('notifications')
@Controller('api/notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Route('GET', 'resolved', 'access', 'NotificationBell')
  @ApiOperation({ summary: "The caller's notifications resolved within the last 2 days and not dismissed, the latest resolved first (keyset pages: ?cursor = the last id), with the resolver's full name" })
  @apply(LIST_QUERIES)
  list(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>) {
    return this.notifications.resolved(readerOf(user), listOptions(query));
  }

  @Route('PUT', ':id/resolve', 'access', 'NotificationBell', 'Notification.Resolve')
  @ApiOperation({ summary: "Resolve the caller's notification {id} (and the same event's notification of her colleagues); resolver and time recorded" })
  @ApiNotFoundResponse({ description: "NTFND: no such notification of the caller's" })
  resolve(@CurrentUser() user: UserContext, @IdParam('id') id: number) {
    return this.notifications.resolve(readerOf(user), id);
  }

  @Route('PUT', 'read', 'access', 'NotificationBell', 'Notification.MarkRead')
  @HttpCode(200)
  @ApiOperation({ summary: "Mark the caller's notifications of the given ids read (at most 100); other ids change nothing" })
  @ApiBody({ schema: { type: 'object', required: ['ids'], properties: { ids: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: NOTIFICATION_PAGE_MAX } } } })
  markRead(@CurrentUser() user: UserContext, @Body() body: unknown) {
    const ids = idList(body && typeof body === 'object' && !Array.isArray(body) ? (body as { ids?: unknown }).ids : undefined, 'ids', NOTIFICATION_PAGE_MAX);
    return this.notifications.markRead(readerOf(user), ids);
  }

  @Route('GET', 'users', 'access', 'NotificationBell')
  @SkipAudit()
  @ApiOperation({ summary: `Full names of users by id, ${USER_LOOKUP_BATCH} ids at most a call: the caller and those who resolved her notifications` })
  @ApiQuery({ name: 'ids', required: true, description: `Comma-separated user ids (at most ${USER_LOOKUP_BATCH})` })
  users(@CurrentUser() user: UserContext, @Query() query: Record<string, unknown>) {
    return this.notifications.users(readerOf(user), idList(query.ids, 'ids', USER_LOOKUP_BATCH));
  }
}
