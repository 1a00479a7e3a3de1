import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Chip, Menu, MenuItem, TextField as MuiTextField, Typography } from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import { Datagrid, FunctionField, List, TopToolbar, useListContext, useNotify, useRefresh, useUnselectAll } from 'react-admin';
import { Link } from 'react-router-dom';
import {
  AVATAR_SIZE,
  LAST_LOGIN_DANGER_DAYS,
  LAST_LOGIN_WARNING_DAYS,
  NO_SUITABLE_ROWS,
  ORGANIZATION_TYPES,
  OrganizationType,
  USER_BULK_ACTIONS,
  USER_BULK_ACTION_LABELS,
  USER_SEARCH_MIN_CHARS,
  USER_TYPES,
  USER_TYPE_LABELS,
  UserType,
  bulkActionApplies,
  enumLabel,
  formatDateTime,
  isUserLocked,
  userStatus,
  type UserBulkAction,
  type UserRecord,
} from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { FoundTotal } from '../common/ReferenceList';
import { UserAffiliationFilters } from './UserAffiliationFilters';
import { PageTitle } from '../common/PageTitle';
import { ListPager } from '../common/ListPager';
import { usersApi } from './usersDataProvider';
import { UserAvatar } from './UserAvatar';
import { UserImportDialog } from './UserImportDialog';

const DAY = 24 * 3600 * 1000;
/** Unsorted ("none" in the sort cycle). */
const NO_SORT = { field: 'id', order: 'ASC' as const };
const BULK_SUCCESS: Record<UserBulkAction, string> = {
  activate: 'Users activated',
  deactivate: 'Users deactivated',
  'resend-invitation': 'Invitations sent',
  'reset-mfa': 'MFA reset',
  'reset-password': 'Reset-password instructions sent',
  unlock: 'Users unlocked',
};

/** Column header that cycles ascending → descending → none (spec 03 §2 User list). */
function SortLabel({ field, children }: { field: string; children: ReactNode }) {
  const { sort, setSort } = useListContext();
  const active = sort.field === field;
  const next = () => {
    if (!active) setSort({ field, order: 'ASC' });
    else if (sort.order === 'ASC') setSort({ field, order: 'DESC' });
    else setSort(NO_SORT);
  };
  return (
    <Box component="span" role="button" onClick={next} sx={{ cursor: 'pointer', display: 'inline-flex', alignItems: 'center', gap: 0.5 }} data-testid={`users-sort-${field}`} data-sort={active ? sort.order : 'none'}>
      {children}
      {active && (sort.order === 'ASC' ? <ArrowUpwardIcon fontSize="inherit" /> : <ArrowDownwardIcon fontSize="inherit" />)}
    </Box>
  );
}

export function lastLoginColor(lastLogin: string | null, now = Date.now()): 'warning.main' | 'error.main' | undefined {
  if (!lastLogin) return undefined;
  const days = (now - new Date(lastLogin).getTime()) / DAY;
  if (days > LAST_LOGIN_DANGER_DAYS) return 'error.main';
  if (days > LAST_LOGIN_WARNING_DAYS) return 'warning.main';
  return undefined;
}

function StatusCell({ r }: { r: UserRecord }) {
  const status = userStatus(r);
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <Chip size="small" label={status} color={status === 'enabled' ? 'success' : status === 'pending' ? 'info' : 'default'} />
      {isUserLocked(r) && <Chip size="small" label="locked" color="error" />}
      {!r.emailConfirmed && <Chip size="small" label="not activated" variant="outlined" />}
    </Box>
  );
}

/** Bulk actions: the §4 applicability rules of forms/ decide; rows that do not qualify are skipped. */
function BulkActionsMenu() {
  const { selectedIds, data } = useListContext<UserRecord>();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll('users');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const run = async (action: UserBulkAction) => {
    setAnchor(null);
    const selected = (data ?? []).filter((r) => selectedIds.includes(r.id));
    const ids = selected.filter((r) => bulkActionApplies(action, r)).map((r) => r.id);
    if (ids.length === 0) return notify('None of the selected users is suitable for this action', { type: 'warning', messageArgs: { code: NO_SUITABLE_ROWS } });
    try {
      const res = await usersApi.bulk(action, ids);
      notify(`${BULK_SUCCESS[action]}: ${res.applied}${selected.length > res.applied ? ` (${selected.length - res.applied} skipped)` : ''}`, { type: 'success' });
      unselectAll();
      refresh();
    } catch (e: any) {
      notify(e?.message ?? 'Action failed', { type: 'error' });
    }
  };
  return (
    <>
      <Button variant="outlined" size="small" onClick={(e) => setAnchor(e.currentTarget)} data-testid="users-bulk-actions">
        Actions
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {USER_BULK_ACTIONS.map((a) => (
          <MenuItem key={a} onClick={() => run(a)} data-testid={`users-bulk-${a}`}>
            {USER_BULK_ACTION_LABELS[a]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

function UserFilters() {
  const { context } = useSession();
  const { filterValues, setFilters } = useListContext();
  const [text, setText] = useState<string>(filterValues.nameOrEmail ?? '');
  useEffect(() => {
    const handle = setTimeout(() => {
      const value = text.trim().length >= USER_SEARCH_MIN_CHARS ? text.trim() : undefined;
      if (value !== filterValues.nameOrEmail) setFilters({ ...filterValues, nameOrEmail: value }, undefined, false);
    }, 400);
    return () => clearTimeout(handle);
  }, [text]);
  const set = (key: string, value: unknown) => setFilters({ ...filterValues, [key]: value || undefined }, undefined, false);
  const isItpAdmin = context.role === UserType.ItpAdmin;
  const typeChoices = isItpAdmin ? USER_TYPES : [UserType.FacilityAdmin, UserType.FacilityUser];
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
      <MuiTextField
        size="small"
        label="Search by name or e-mail"
        value={text}
        onChange={(e) => setText(e.target.value)}
        helperText={text.trim() && text.trim().length < USER_SEARCH_MIN_CHARS ? `At least ${USER_SEARCH_MIN_CHARS} characters` : ' '}
        slotProps={{ htmlInput: { 'data-testid': 'users-filter-search' } }}
      />
      {isItpAdmin && (
        <MuiTextField select size="small" label="Organization type" value={filterValues.organizationTypes?.[0] ?? ''} onChange={(e) => setFilters({ ...filterValues, organizationTypes: e.target.value ? [e.target.value] : undefined, organizationIds: undefined, divisionsIds: undefined }, undefined, false)} sx={{ minWidth: 180 }} helperText=" ">
          <MenuItem value="">Any</MenuItem>
          {ORGANIZATION_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {t === OrganizationType.ITP ? 'ITP' : enumLabel(t)}
            </MenuItem>
          ))}
        </MuiTextField>
      )}
      <UserAffiliationFilters
        organizationType={filterValues.organizationTypes?.[0]}
        organizationIds={filterValues.organizationIds}
        divisionsIds={filterValues.divisionsIds}
        onOrganization={(ids) => setFilters({ ...filterValues, organizationIds: ids, divisionsIds: undefined }, undefined, false)}
        onDivisions={(ids) => set('divisionsIds', ids)}
      />
      <MuiTextField select size="small" label="User type" value={filterValues.userTypes?.[0] ?? ''} onChange={(e) => set('userTypes', e.target.value ? [e.target.value] : undefined)} sx={{ minWidth: 180 }} helperText=" ">
        <MenuItem value="">Any</MenuItem>
        {typeChoices.map((t) => (
          <MenuItem key={t} value={t}>
            {USER_TYPE_LABELS[t]}
          </MenuItem>
        ))}
      </MuiTextField>
      <MuiTextField select size="small" label="Status" value={filterValues.status ?? ''} onChange={(e) => set('status', e.target.value)} sx={{ minWidth: 160 }} helperText=" ">
        <MenuItem value="">Any</MenuItem>
        <MenuItem value="enabledOnly">Enabled only</MenuItem>
        <MenuItem value="lockedOnly">Locked only</MenuItem>
        <MenuItem value="notActivatedOnly">Not activated only</MenuItem>
      </MuiTextField>
    </Box>
  );
}

function ListActions() {
  const [importing, setImporting] = useState(false);
  return (
    <TopToolbar sx={{ alignItems: 'center' }}>
      <FoundTotal testId="users-total" />
      <Button variant="outlined" size="small" onClick={() => setImporting(true)} data-testid="users-import">
        Import
      </Button>
      <UserImportDialog open={importing} onClose={() => setImporting(false)} />
      <Button component={Link} to="/users/invite" variant="contained" size="small" data-testid="users-invite">
        Invite user
      </Button>
    </TopToolbar>
  );
}

function UserRows() {
  const { data, isPending } = useListContext<UserRecord>();
  const unselectAll = useUnselectAll('users');
  // The selection is cleared after each load (spec 03 §2).
  useEffect(() => {
    if (!isPending) unselectAll();
  }, [data, isPending]);
  return (
    <Datagrid bulkActionButtons={<BulkActionsMenu />} rowClick={false} data-testid="users-table" empty={<Typography sx={{ p: 2 }}>No users found</Typography>}>
      <FunctionField
        label={<SortLabel field="fullName">Name</SortLabel>}
        sortable={false}
        render={(r: UserRecord) => (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <UserAvatar reference={r.avatar} name={`${r.firstName} ${r.lastName}`} size={AVATAR_SIZE.list} testId="user-avatar" />
            <Link to={`/users/${r.id}`} data-testid="user-link">
              {r.firstName} {r.lastName}
            </Link>
          </Box>
        )}
      />
      <FunctionField label={<SortLabel field="email">E-mail</SortLabel>} sortable={false} render={(r: UserRecord) => r.email} />
      <FunctionField label={<SortLabel field="userType">User type</SortLabel>} sortable={false} render={(r: UserRecord) => USER_TYPE_LABELS[r.userType]} />
      <FunctionField label={<SortLabel field="organizationName">Organization</SortLabel>} sortable={false} render={(r: UserRecord) => r.organizationName ?? '—'} />
      <FunctionField label={<SortLabel field="isActive">Status</SortLabel>} sortable={false} render={(r: UserRecord) => <StatusCell r={r} />} />
      <FunctionField
        label={<SortLabel field="lastLogin">Last login</SortLabel>}
        sortable={false}
        render={(r: UserRecord) => (
          <Typography variant="body2" sx={{ color: lastLoginColor(r.lastLogin) }} data-testid="user-last-login">
            {r.lastLogin ? formatDateTime(r.lastLogin) : '—'}
          </Typography>
        )}
      />
    </Datagrid>
  );
}

/** /users: ITP admin (all users) and facility admin (her facility's users). */
export function UserList() {
  return (
    <Box>
      <PageTitle title="Users" />
      <List resource="users" title=" " sort={NO_SORT} perPage={25} pagination={<ListPager />} actions={<ListActions />} empty={false} storeKey="users.listParams" disableSyncWithLocation={false}>
        <UserFilters />
        <UserRows />
      </List>
    </Box>
  );
}
