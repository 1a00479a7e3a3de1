import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { lazyPage } from '../common/lazyPage';

const PayerCreate = lazyPage(() => import('./PayerCreate').then((m) => m.PayerCreate));
const PayerEdit = lazyPage(() => import('./PayerEdit').then((m) => m.PayerEdit));
const PayerList = lazyPage(() => import('./PayerList').then((m) => m.PayerList));

export default {
  list: PayerList,
  create: PayerCreate,
  edit: PayerEdit,
  icon: AccountBalanceIcon,
  recordRepresentation: 'name',
};
