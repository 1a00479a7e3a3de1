import ApartmentIcon from '@mui/icons-material/Apartment';
import { FacilityCreate } from './FacilityCreate';
import { FacilityEdit } from './FacilityEdit';
import { FacilityList } from './FacilityList';

export default {
  list: FacilityList,
  create: FacilityCreate,
  edit: FacilityEdit,
  icon: ApartmentIcon,
  recordRepresentation: 'name',
};
