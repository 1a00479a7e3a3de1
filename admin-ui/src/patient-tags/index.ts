import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { PatientTagCreate } from './PatientTagCreate';
import { PatientTagList } from './PatientTagList';
import { PatientTagShow } from './PatientTagShow';

export default {
  list: PatientTagList,
  create: PatientTagCreate,
  edit: PatientTagShow,
  icon: LocalOfferIcon,
  recordRepresentation: 'name',
};
