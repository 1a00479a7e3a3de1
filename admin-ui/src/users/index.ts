import PeopleIcon from '@mui/icons-material/People';
import { UserEdit } from './UserEdit';
import { UserList } from './UserList';

export { UserInvite } from './UserCreate';
export { withUsers } from './usersDataProvider';

export default {
  list: UserList,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`,
};
export { UnlockUsersPage } from './UnlockUsersPage';
