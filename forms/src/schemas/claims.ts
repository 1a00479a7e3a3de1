import { mediumText, objectSchema } from './common';

/** POST /api/claims (spec 03 §7): claim an object for editing. */
export const claimCreateSchema = objectSchema('claimCreate', ['objectId', 'objectType'], {
  objectId: { anyOf: [{ type: 'integer', minimum: 1 }, { ...mediumText, minLength: 1 }] },
  objectType: { ...mediumText, pattern: '^[A-Za-z][A-Za-z0-9_.-]*$' },
  /** Seconds the claim lasts without a renewal; the default is 60. */
  extendBy: { type: ['integer', 'null'], minimum: 1, maximum: 3600 },
});

export const claimExtendSchema = {
  $id: 'claimExtend',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: { extendBy: { type: ['integer', 'null'], minimum: 1, maximum: 3600 } },
} as const;

/** GET /api/claims/actual?objectId=&objectType= (query values arrive as text). */
export const claimActualQuerySchema = objectSchema('claimActualQuery', ['objectId', 'objectType'], {
  objectId: { ...mediumText, minLength: 1 },
  objectType: claimCreateSchema.properties.objectType,
});
