export * from './questionnaire';
export * from './schemas';
// answer-validation (ajv) is exported by the validators entry (../validators.ts), not from here.
