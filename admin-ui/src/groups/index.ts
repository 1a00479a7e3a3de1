import GroupsIcon from '@mui/icons-material/Groups';
import { GroupList } from './GroupList';

/** Add and edit happen in a modal over the list (spec 03 §2). */
export default {
  list: GroupList,
  icon: GroupsIcon,
  recordRepresentation: 'name',
};
