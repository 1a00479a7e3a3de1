import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { lazyPage } from '../common/lazyPage';

const PatientTagCreate = lazyPage(() => import('./PatientTagCreate').then((m) => m.PatientTagCreate));
const PatientTagList = lazyPage(() => import('./PatientTagList').then((m) => m.PatientTagList));
const PatientTagShow = lazyPage(() => import('./PatientTagShow').then((m) => m.PatientTagShow));

export default {
  list: PatientTagList,
  create: PatientTagCreate,
  edit: PatientTagShow,
  icon: LocalOfferIcon,
  recordRepresentation: 'name',
};
