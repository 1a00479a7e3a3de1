import GroupsIcon from '@mui/icons-material/Groups';
import { lazyPage } from '../common/lazyPage';

const GroupList = lazyPage(() => import('./GroupList').then((m) => m.GroupList));

/** Add and edit happen in a modal over the list (spec 03 §2). */
export default {
  list: GroupList,
  icon: GroupsIcon,
  recordRepresentation: 'name',
};
