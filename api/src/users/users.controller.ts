import { Body, Controller, HttpCode, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { subject } from '@casl/ability';
import {
  ErrorCode,
  normalizeInput,
  OrganizationType,
  UserType,
  validate,
  type AppAbility,
  type UserBulkAction,
  type UserContext,
  type ProfileInput,
  type UserInput,
  type UserRecord,
} from '@crisis/forms';
import { CurrentAbility, CurrentUser } from '../auth/current-user.decorator';
import { forbidden, invalid, notFound } from '../common/coded-error';
import { contentRange, type ListQuery } from '../common/list-query';
import { ApiSchemaBody } from '../common/openapi';
import { schema } from '../common/validation.pipe';
import { ApiListQuery } from '../facilities/facilities.controller';
import { parseCheckedList, parseLookupFilter } from '../facilities/list-params';
import { USER_SORTABLE, type UserListFilter, type UserScope } from './users-list.query';
import { UsersService } from './users.service';
import { Route } from '../common/route';
import { IdParam } from '../common/id-param';

const ARRAY_KEYS = ['organizationIds', 'organizationTypes', 'divisionsIds', 'userTypes', 'id'];
/** The spec's own list parameters (spec 03 §7); anything else is the ra-data-simple-rest form. */
const SPEC_PAGING_KEYS = ['skip', 'take', 'includeTotal', 'sorting'];

/** Which users the caller may list: all (ITP admin), her facility's (facility admin), facility users (ITP user). */
function scopeOf(user: UserContext): UserScope {
  if (user.role === UserType.FacilityAdmin) return { organizationType: OrganizationType.Facility, organizationId: user.organizationId };
  if (user.role === UserType.ItpUser) return { organizationType: OrganizationType.Facility };
  return {};
}

/** The ability table's record check (a facility admin: users of her own facility only). */
function mayManage(ability: AppAbility, _user: UserContext, u: Pick<UserRecord, 'organizationId' | 'organizationType'>): boolean {
  return ability.can('manage', subject('User', { organizationType: u.organizationType, organizationId: u.organizationId }) as never);
}

/** The unlock-users list (spec 03 §4): ITP users may unlock facility admins and facility users only. */
function mayUnlockAsItpUser(ability: AppAbility, u: Pick<UserRecord, 'organizationType' | 'userType'>): boolean {
  return (
    ability.can('access', 'UnlockUsers') &&
    u.organizationType === OrganizationType.Facility &&
    (u.userType === UserType.FacilityAdmin || u.userType === UserType.FacilityUser)
  );
}

@ApiTags('users')
@Controller('api/user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Route('GET', '', 'list', 'User')
  @ApiListQuery(USER_SORTABLE, 'nameOrEmail (3+ characters), organizationIds[], organizationTypes[], divisionsIds[], userTypes[], status, enabledOnly, lockedOnly, notActivatedOnly, id[]')
  @ApiQuery({ name: 'skip', required: false, description: 'Spec form: rows to skip (with take, includeTotal, sorting "field asc|desc" and the filter keys as plain parameters)' })
  @ApiQuery({ name: 'take', required: false })
  @ApiQuery({ name: 'includeTotal', required: false })
  @ApiQuery({ name: 'sorting', required: false })
  @ApiOkResponse({ description: 'A page of users (Content-Range "users 0-24/80"); the spec form answers { items, total }' })
  async list(@Query() query: Record<string, unknown>, @CurrentUser() user: UserContext, @Res({ passthrough: true }) reply: FastifyReply) {
    const specForm = SPEC_PAGING_KEYS.some((k) => k in query) || (!('range' in query) && !('sort' in query) && !('filter' in query) && Object.keys(query).length > 0);
    const q = specForm ? this.specQuery(query) : parseCheckedList<UserListFilter>(query, { sortable: USER_SORTABLE, defaultSort: ['fullName', 'ASC'], schema: 'userListFilter' });
    const { rows, total } = await this.users.list(q, scopeOf(user));
    reply.header('Content-Range', contentRange('users', q.offset, rows.length, total));
    if (specForm) return { items: rows, total: query.includeTotal === 'false' ? null : total };
    return rows;
  }

  /** skip/take/includeTotal/sorting with the filter keys as plain query parameters. */
  private specQuery(query: Record<string, unknown>): ListQuery<UserListFilter> {
    const { skip, take, includeTotal: _i, sorting, ...rest } = query;
    const num = (v: unknown, dflt: number, name: string) => {
      if (v === undefined || v === '') return dflt;
      if (!/^\d{1,6}$/.test(String(v))) throw invalid([{ field: name, key: 'invalid', message: `${name} must be a whole number` }]);
      return Number(v);
    };
    const offset = num(skip, 0, 'skip');
    const limit = Math.min(Math.max(num(take, 25, 'take'), 1), 1000);
    let sortField = 'fullName';
    let sortOrder: 'ASC' | 'DESC' = 'ASC';
    if (sorting !== undefined && sorting !== '') {
      const m = /^(\w+)(?:[ _:](asc|desc))?$/i.exec(String(sorting));
      if (!m || !(USER_SORTABLE as readonly string[]).includes(m[1]))
        throw invalid([{ field: 'sorting', key: 'invalid', message: `sorting must be one of ${USER_SORTABLE.join(', ')} with asc or desc` }]);
      sortField = m[1];
      sortOrder = (m[2] ?? 'asc').toUpperCase() as 'ASC' | 'DESC';
    }
    const filter = parseLookupFilter<UserListFilter>(rest, 'userListFilter', ARRAY_KEYS);
    for (const k of ['organizationIds', 'divisionsIds'] as const) if (filter[k]) filter[k] = filter[k]!.map(Number);
    return { sortField, sortOrder, offset, limit, filter };
  }

  @Route('GET', 'lookups', 'list', 'User')
  @ApiQuery({ name: 'filter', required: false, description: 'JSON or plain parameters: enabledOnly, nameOrEmail, userTypes[], id[] (batches of 25)' })
  @ApiBadRequestResponse({ description: 'INV: a bad filter' })
  @ApiOkResponse({ description: 'Matching users: id, fullName, email, userType' })
  lookups(@Query() query: Record<string, unknown>, @CurrentUser() user: UserContext) {
    const filter = parseLookupFilter<UserListFilter>(query, 'userListFilter', ARRAY_KEYS);
    if (filter.id) filter.id = filter.id.map(Number);
    return this.users.lookups(filter, scopeOf(user));
  }

  @Route('POST', 'invite', 'create', 'User', 'User.Invite')
  @ApiSchemaBody('user')
  @ApiCreatedResponse({ description: 'The invited user (pending until the set-password link is used)' })
  @ApiConflictResponse({ description: "INV.NOT.UNIQ on email: 'User with email {email} already exists'" })
  invite(@Body() raw: unknown, @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility): Promise<UserRecord> {
    const body = normalizeInput((raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>);
    // A facility admin invites into her own facility only: the organization is fixed (spec 03 §6).
    if (user.role === UserType.FacilityAdmin) Object.assign(body, { organizationType: OrganizationType.Facility, organizationId: user.organizationId });
    const errors = validate('user', body);
    if (errors.length) throw invalid(errors);
    const input = body as unknown as UserInput;
    if (!mayManage(ability, user, { organizationId: input.organizationId ?? null, organizationType: input.organizationType })) throw forbidden();
    return this.users.invite(input);
  }

  @Route('GET', 'profile/:id', 'read', 'Profile')
  @ApiOkResponse({ description: 'Own profile; the affiliation is read-only' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  getProfile(@IdParam() id: number, @CurrentAbility() ability: AppAbility) {
    // Another user's profile does not exist from here (no 403 that would confirm the id).
    if (!ability.can('read', subject('Profile', { id }) as never)) throw notFound();
    return this.users.get(id);
  }

  @Route('PUT', 'profile/:id', 'update', 'Profile', 'User.UpdateProfile')
  @ApiSchemaBody('profile')
  @ApiOkResponse({ description: 'The updated profile' })
  updateProfile(
    @IdParam() id: number,
    @Body(schema('profile')) body: ProfileInput,
    @CurrentAbility() ability: AppAbility,
  ) {
    if (!ability.can('update', subject('Profile', { id }) as never)) throw notFound();
    return this.users.updateProfile(id, body);
  }

  @Route('PUT', 'unlock', 'list', 'User', 'User.Unlock')
  @ApiSchemaBody('userIds')
  @ApiOkResponse({ description: '{ applied, skipped, ids }: clears the lock-outs and the failure count (ITP users: facility admins and facility users only)' })
  @ApiBadRequestResponse({ description: 'users.table.actions.no-suitable-rows: none of them is locked (or the caller may not unlock them)' })
  unlock(@Body(schema('userIds')) ids: number[], @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility) {
    return this.users.bulk('unlock', ids, (u) => mayManage(ability, user, u) || mayUnlockAsItpUser(ability, u));
  }

  @Route('POST', 'activate', 'update', 'User', 'User.Activate')
  @HttpCode(200)
  @ApiSchemaBody('userIds')
  @ApiOkResponse({ description: '{ applied, skipped, ids }' })
  @ApiBadRequestResponse({ description: 'users.table.actions.no-suitable-rows' })
  activate(@Body(schema('userIds')) ids: number[], @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility) {
    return this.bulk('activate', ids, user, ability);
  }

  @Route('POST', 'deactivate', 'update', 'User', 'User.Deactivate')
  @HttpCode(200)
  @ApiSchemaBody('userIds')
  @ApiOkResponse({ description: '{ applied, skipped, ids }; their tokens are revoked' })
  @ApiBadRequestResponse({ description: 'users.table.actions.no-suitable-rows' })
  deactivate(@Body(schema('userIds')) ids: number[], @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility) {
    return this.bulk('deactivate', ids, user, ability);
  }

  @Route('POST', 'resend-invitation', 'update', 'User', 'User.ResendInvitation')
  @HttpCode(200)
  @ApiSchemaBody('userIds')
  @ApiOkResponse({ description: '{ applied, skipped, ids }' })
  @ApiBadRequestResponse({ description: 'users.table.actions.no-suitable-rows' })
  resendInvitation(@Body(schema('userIds')) ids: number[], @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility) {
    return this.bulk('resend-invitation', ids, user, ability);
  }

  @Route('POST', 'reset-password', 'update', 'User', 'User.ResetPassword')
  @HttpCode(200)
  @ApiSchemaBody('userIds')
  @ApiOkResponse({ description: '{ applied, skipped, ids }; each gets a reset-password link by e-mail' })
  @ApiBadRequestResponse({ description: 'users.table.actions.no-suitable-rows' })
  resetPassword(@Body(schema('userIds')) ids: number[], @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility) {
    return this.bulk('reset-password', ids, user, ability);
  }

  @Route('POST', 'reset-mfa', 'update', 'Profile', 'User.ResetMfa')
  @HttpCode(200)
  @ApiSchemaBody('userIds')
  @ApiOkResponse({ description: '{ applied, skipped, ids }: an admin for the users she manages, anyone for herself (profile menu)' })
  @ApiBadRequestResponse({ description: 'users.table.actions.no-suitable-rows' })
  resetMfa(@Body(schema('userIds')) ids: number[], @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility) {
    return this.users.bulk('reset-mfa', ids, (u) => u.id === user.id || mayManage(ability, user, u));
  }

  private bulk(action: UserBulkAction, ids: number[], user: UserContext, ability: AppAbility) {
    return this.users.bulk(action, ids, (u) => mayManage(ability, user, u));
  }

  @Route('GET', ':id', 'read', 'User')
  @ApiOkResponse({ description: 'The user (a facility admin: her facility only)' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  async get(@IdParam() id: number, @CurrentUser() user: UserContext, @CurrentAbility() ability: AppAbility): Promise<UserRecord> {
    const record = await this.users.get(id);
    if (!mayManage(ability, user, record)) throw forbidden();
    return record;
  }

  @Route('PUT', ':id', 'update', 'User', 'User.Update')
  @ApiSchemaBody('user')
  @ApiOkResponse({ description: 'The updated user; deactivation or a new user type revokes their tokens' })
  @ApiNotFoundResponse({ description: ErrorCode.NotFound })
  @ApiConflictResponse({ description: "INV.NOT.UNIQ on email: 'User with email {email} already exists'" })
  async update(
    @IdParam() id: number,
    @Body(schema('user')) body: UserInput,
    @CurrentUser() user: UserContext,
    @CurrentAbility() ability: AppAbility,
  ): Promise<UserRecord> {
    const record = await this.users.get(id);
    if (!mayManage(ability, user, record)) throw forbidden();
    return this.users.update(id, body);
  }
}
