import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { lazyPage } from '../common/lazyPage';

const BillingCodeList = lazyPage(() => import('./BillingCodeList').then((m) => m.BillingCodeList));

/** Create and edit happen in a modal over the list (spec 03 §2). */
export default {
  list: BillingCodeList,
  icon: ReceiptLongIcon,
  recordRepresentation: 'code',
};
