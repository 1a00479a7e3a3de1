import { Create, useNotify, useRedirect } from 'react-admin';
import { useSession } from '../auth/session';
import { PageTitle } from '../common/PageTitle';
import { UserForm } from './UserForm';
import { newUserDefaults, toUserPayload } from './userPayload';

/** /users/invite: the invitation e-mail carries a one-time set-password link. */
export function UserInvite() {
  const { context } = useSession();
  const notify = useNotify();
  const redirect = useRedirect();
  return (
    <Create
      resource="users"
      title=" "
      component="div"
      mutationMode="pessimistic"
      transform={(values: any) => toUserPayload(values)}
      mutationOptions={{
        onSuccess: () => {
          notify('User invited', { type: 'success' });
          redirect('list', 'users');
        },
      }}
    >
      <PageTitle title="Invite user" />
      <UserForm isNew defaultValues={newUserDefaults(context)} />
    </Create>
  );
}
