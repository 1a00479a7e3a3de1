export { EvaluationPage } from './EvaluationPage';
export { evaluationScreenAllowed } from './access';
