import PeopleIcon from '@mui/icons-material/People';
import { lazyPage } from '../common/lazyPage';

export { withUsers } from './usersDataProvider';

const UserEdit = lazyPage(() => import('./UserEdit').then((m) => m.UserEdit));
const UserList = lazyPage(() => import('./UserList').then((m) => m.UserList));
export const UserInvite = lazyPage(() => import('./UserCreate').then((m) => m.UserInvite));
export const UnlockUsersPage = lazyPage(() => import('./UnlockUsersPage').then((m) => m.UnlockUsersPage));

export default {
  list: UserList,
  edit: UserEdit,
  icon: PeopleIcon,
  recordRepresentation: (r: { firstName: string; lastName: string }) => `${r.firstName} ${r.lastName}`,
};
