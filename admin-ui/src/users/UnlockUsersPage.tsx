import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useNotify } from 'react-admin';
import { USER_TYPE_LABELS, type UserRecord } from '@crisis/forms/core';
import { PageTitle } from '../common/PageTitle';
import { api } from '../data/httpClient';
import { usersApi } from './usersDataProvider';

const QUERY = `filter=${encodeURIComponent(JSON.stringify({ lockedOnly: true, enabledOnly: true }))}&range=${encodeURIComponent('[0,199]')}&sort=${encodeURIComponent('["fullName","ASC"]')}`;

/** /unlock-users (ITP users): locked, enabled facility users and admins, each with an unlock button. */
export function UnlockUsersPage() {
  const notify = useNotify();
  const [rows, setRows] = useState<UserRecord[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const load = useCallback(() => {
    api.get<UserRecord[]>(`/api/user?${QUERY}`).then(setRows, (e) => setFailed(e?.message ?? 'Loading failed'));
  }, []);
  useEffect(load, [load]);
  const unlock = async (id: number) => {
    try {
      await usersApi.bulk('unlock', [id]);
      notify('User unlocked', { type: 'success' });
      load();
    } catch (e: any) {
      notify(e?.message ?? 'Unlock failed', { type: 'error' });
    }
  };
  return (
    <Box data-testid="unlock-users">
      <PageTitle title="Unlock users" />
      {failed && <Alert severity="error">{failed}</Alert>}
      {rows && rows.length === 0 && <Typography data-testid="unlock-users-empty">No locked users</Typography>}
      {rows && rows.length > 0 && (
        <Card>
          <Table size="small" data-testid="unlock-users-table">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>E-mail</TableCell>
                <TableCell>User type</TableCell>
                <TableCell>Facility</TableCell>
                <TableCell>Locked</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.id}>
                  <TableCell>
                    {r.firstName} {r.lastName}
                  </TableCell>
                  <TableCell>{r.email}</TableCell>
                  <TableCell>{USER_TYPE_LABELS[r.userType]}</TableCell>
                  <TableCell>{r.organizationName ?? '—'}</TableCell>
                  <TableCell>{r.passwordLockedOut ? 'Wrong passwords' : 'Inactivity'}</TableCell>
                  <TableCell align="right">
                    <Button size="small" variant="outlined" onClick={() => unlock(r.id)} data-testid="unlock-user">
                      Unlock
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
    </Box>
  );
}
