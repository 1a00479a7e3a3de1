import ApartmentIcon from '@mui/icons-material/Apartment';
import { gated } from '../common/gated';
import { lazyPage } from '../common/lazyPage';

const FacilityCreate = lazyPage(() => import('./FacilityCreate').then((m) => m.FacilityCreate));
const FacilityEdit = lazyPage(() => import('./FacilityEdit').then((m) => m.FacilityEdit));
const FacilityList = lazyPage(() => import('./FacilityList').then((m) => m.FacilityList));

export default {
  list: gated(FacilityList, '/facilities'),
  create: gated(FacilityCreate, '/facilities'),
  edit: gated(FacilityEdit, '/facilities'),
  icon: ApartmentIcon,
  recordRepresentation: 'name',
};
