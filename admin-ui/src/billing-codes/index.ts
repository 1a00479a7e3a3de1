import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { BillingCodeList } from './BillingCodeList';

/** Create and edit happen in a modal over the list (spec 03 §2). */
export default {
  list: BillingCodeList,
  icon: ReceiptLongIcon,
  recordRepresentation: 'code',
};
