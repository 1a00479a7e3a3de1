import { CLAIM_OBJECT_TYPES } from '../claims';
import { mediumText, objectSchema } from './common';

/** Only the object types of the claim rules (forms/src/claims.ts) can be claimed. */
const objectType = { type: 'string', enum: CLAIM_OBJECT_TYPES } as const;

/** POST /api/claims (spec 03 §7): claim an object for editing. */
export const claimCreateSchema = objectSchema('claimCreate', ['objectId', 'objectType'], {
  objectId: { anyOf: [{ type: 'integer', minimum: 1 }, { ...mediumText, minLength: 1 }] },
  objectType,
  /** Seconds the claim lasts without a renewal; the default is 60, the most CLAIM_MAX_SECONDS (the API grants no more). */
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
  objectType,
});
