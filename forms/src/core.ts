/**
 * `@crisis/forms/core`: everything of the package but its validators (../validators.ts: ajv, its
 * formats, ipaddr.js): enumerations, rules, schemas as data, formatters, abilities, navigation.
 * What the browser's first load imports; a page that validates input adds `@crisis/forms/validators`.
 */
export * from './enums';
export * from './states';
export * from './constants';
export * from './errors';
export * from './normalize';
export * from './password';
export * from './format';
export * from './phone';
export * from './schemas';
export * from './abilities';
export * from './claims';
export * from './user-context';
export * from './navigation';
export * from './cases';
export * from './placement';
export * from './address';
export * from './live';
export * from './responses';
export * from './storable';
export * from './evaluation';
export * from './patients';
export * from './notifications';
