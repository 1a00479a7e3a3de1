import { Button, Chip } from '@mui/material';
import { Edit, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { userStatus, type UserRecord } from '@crisis/forms/core';
import { PageTitle } from '../common/PageTitle';
import { useSavedThen } from '../common/RecordForm';
import { UserForm } from './UserForm';
import { toUserPayload } from './userPayload';
import { usersApi } from './usersDataProvider';

function UserHeader() {
  const record = useRecordContext<UserRecord>();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const unlock = () =>
    usersApi.bulk('unlock', [record.id]).then(
      () => (notify('User unlocked', { type: 'success' }), refresh()),
      (e) => notify(e?.message ?? 'Unlock failed', { type: 'error' }),
    );
  const status = userStatus(record);
  return (
    <PageTitle title={`${record.firstName} ${record.lastName}`}>
      <Chip size="small" label={status} color={status === 'enabled' ? 'success' : status === 'pending' ? 'info' : 'default'} data-testid="user-status" />
      {(record.passwordLockedOut || record.lockedDueInactivity) && (
        <>
          <Chip size="small" color="error" label="locked" />
          <Button size="small" variant="outlined" onClick={unlock} data-testid="user-unlock">
            Unlock
          </Button>
        </>
      )}
    </PageTitle>
  );
}

/** /users/{id}: organization type and organization are fixed; a provider's user type too. */
export function UserEdit() {
  const saved = useSavedThen('User updated', 'list', 'users');
  return (
    <Edit
      title=" "
      component="div"
      mutationMode="pessimistic"
      transform={(values: any) => toUserPayload(values)}
      mutationOptions={saved}
    >
      <UserHeader />
      <UserForm isNew={false} />
    </Edit>
  );
}
