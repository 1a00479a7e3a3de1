/**
 * `@crisis/forms/validators`: the checks of input that bring heavy libraries — the named schemas
 * compiled with ajv (validate, SCHEMAS), a questionnaire's answers (ajv), IP allow-lists (ipaddr.js).
 */
export * from './validation';
export * from './evaluation/answer-validation';
export * from './schemas/ip-list';
