/**
 * `@crisis/forms/rules`: the pure rule tables without ajv or CASL, for code that must stay small
 * and deterministic (Temporal workflows, activities): enumerations, case status transitions and
 * request rules, placement rules, the error registry, formatters and constants.
 */
export * from './enums';
export * from './states';
export * from './constants';
export * from './errors';
export * from './normalize';
export * from './format';
export * from './cases';
export * from './placement';
export * from './storable';
export * from './notifications';
