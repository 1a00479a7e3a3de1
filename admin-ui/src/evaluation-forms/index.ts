import AssignmentIcon from '@mui/icons-material/Assignment';
import { EvaluationFormCreate, EvaluationFormEdit } from './EvaluationFormEditor';
import { EvaluationFormList } from './EvaluationFormList';

/** Evaluation forms (spec 02 §2): list, create, edit at /evaluation-forms, /create, /{id} — ITP admin. */
export default {
  list: EvaluationFormList,
  create: EvaluationFormCreate,
  edit: EvaluationFormEdit,
  icon: AssignmentIcon,
  recordRepresentation: 'name',
};
