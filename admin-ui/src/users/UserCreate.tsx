import { Create } from 'react-admin';
import { useSession } from '../auth/session';
import { PageTitle } from '../common/PageTitle';
import { useSavedThen } from '../common/RecordForm';
import { UserForm } from './UserForm';
import { newUserDefaults, toUserPayload } from './userPayload';

/** /users/invite: the invitation e-mail carries a one-time set-password link. */
export function UserInvite() {
  const { context } = useSession();
  const saved = useSavedThen('User invited', 'list', 'users');
  return (
    <Create
      resource="users"
      title=" "
      component="div"
      mutationMode="pessimistic"
      transform={(values: any) => toUserPayload(values)}
      mutationOptions={saved}
    >
      <PageTitle title="Invite user" />
      <UserForm isNew defaultValues={newUserDefaults(context)} />
    </Create>
  );
}
