import AssignmentIcon from '@mui/icons-material/Assignment';
import { lazyPage } from '../common/lazyPage';

const EvaluationFormCreate = lazyPage(() => import('./EvaluationFormEditor').then((m) => m.EvaluationFormCreate));
const EvaluationFormEdit = lazyPage(() => import('./EvaluationFormEditor').then((m) => m.EvaluationFormEdit));
const EvaluationFormList = lazyPage(() => import('./EvaluationFormList').then((m) => m.EvaluationFormList));

/** Evaluation forms (spec 02 §2): list, create, edit at /evaluation-forms, /create, /{id} — ITP admin. */
export default {
  list: EvaluationFormList,
  create: EvaluationFormCreate,
  edit: EvaluationFormEdit,
  icon: AssignmentIcon,
  recordRepresentation: 'name',
};
