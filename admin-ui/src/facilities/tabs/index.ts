export { CredentialedProvidersTab } from './CredentialedProvidersTab';
export { PreferredFacilitiesTab } from './PreferredFacilitiesTab';
export { EvaluationFormsTab } from './EvaluationFormsTab';
export { RestrictionsTab } from './RestrictionsTab';
