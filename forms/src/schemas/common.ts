import { TEXT_LARGE, TEXT_MEDIUM } from '../constants';

/** JSON Schema fragments shared by every form (spec 03 §5). `null` is how a blank field arrives. */
export const mediumText = { type: 'string', maxLength: TEXT_MEDIUM } as const;
export const largeText = { type: 'string', maxLength: TEXT_LARGE } as const;
export const optionalMediumText = { type: ['string', 'null'], maxLength: TEXT_MEDIUM } as const;
export const optionalLargeText = { type: ['string', 'null'], maxLength: TEXT_LARGE } as const;
/** A phone number (forms/src/phone.ts): US format, international when the setting allows; stored in E.164. */
export const phone = { type: 'string', maxLength: TEXT_MEDIUM, format: 'phone' } as const;
export const optionalPhone = { type: ['string', 'null'], maxLength: TEXT_MEDIUM, format: 'phone' } as const;
export const optionalExtension = { type: ['string', 'null'], maxLength: 10, pattern: '^\\d+$' } as const;
export const ZIP_PATTERN = '^\\d{5}(-?\\d{4})?$';
export const id = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;

/** Phone and fax numbers of a facility or a division, each with an extension. */
export const contactsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    phone1: optionalPhone,
    phone1Ext: optionalExtension,
    phone2: optionalPhone,
    phone2Ext: optionalExtension,
    fax1: optionalPhone,
    fax1Ext: optionalExtension,
    fax2: optionalPhone,
    fax2Ext: optionalExtension,
  },
} as const;

/** List filters (ra-data-simple-rest `filter`): react-admin's getMany sends the ids to fetch. */
export const idsFilter = { type: 'array', items: id, maxItems: 1000 } as const;
/** List filters: the "active only" switch. */
export const showActiveOnlyFilter = { type: ['boolean', 'null'] } as const;

/**
 * A payload's schema: a closed object registered under `$id` (fields beyond `properties` are
 * refused, spec 03 §5), with the fields it requires.
 */
export function objectSchema<const P extends Record<string, unknown>, const R extends readonly (keyof P & string)[]>($id: string, required: R, properties: P) {
  return { $id, type: 'object', additionalProperties: false, ...(required.length ? { required } : {}), properties } as const;
}
