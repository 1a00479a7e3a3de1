import ApartmentIcon from '@mui/icons-material/Apartment';
import { gated } from '../common/gated';
import { FacilityCreate } from './FacilityCreate';
import { FacilityEdit } from './FacilityEdit';
import { FacilityList } from './FacilityList';

export default {
  list: gated(FacilityList, '/facilities'),
  create: gated(FacilityCreate, '/facilities'),
  edit: gated(FacilityEdit, '/facilities'),
  icon: ApartmentIcon,
  recordRepresentation: 'name',
};
