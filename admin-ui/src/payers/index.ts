import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { PayerCreate } from './PayerCreate';
import { PayerEdit } from './PayerEdit';
import { PayerList } from './PayerList';

export default {
  list: PayerList,
  create: PayerCreate,
  edit: PayerEdit,
  icon: AccountBalanceIcon,
  recordRepresentation: 'name',
};
