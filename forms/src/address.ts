/**
 * Address helpers shared by the API and the UI (spec 03 §5 facility address, spec 01 §5 patient
 * address): minimum lengths of the look-ups and the apartment parser used when a street line is
 * picked from the autocomplete.
 */

/** Street autocomplete starts after this many characters (spec 03 §5: "street autocomplete 4"). */
export const STREET_AUTOCOMPLETE_MIN_CHARS = 4;
/** City autocomplete starts after this many characters (spec 03 §5). */
export const CITY_AUTOCOMPLETE_MIN_CHARS = 2;
/** County autocomplete starts after this many characters (spec 02 §5, spec 03 §5). */
export const COUNTY_AUTOCOMPLETE_MIN_CHARS = 2;
/** Most suggestions one look-up returns. */
export const ADDRESS_SUGGESTIONS_MAX = 20;
/** A US ZIP code as the look-up takes it: 5 digits, optionally followed by -4 digits (ignored). */
export const ZIP_LOOKUP_PATTERN = /^(\d{5})(?:-?\d{4})?$/;

export interface StreetParts {
  streetLine: string;
  apartmentNumber: string | null;
}

// "Apt 4B", "Apt. 4B", "Apartment 12", "Unit 3", "Suite 200", "Ste 200", "Ste. 200", "# 5", "#5", "Apt #5".
const UNIT = String.raw`(?:apartment|apt\.?|unit|suite|ste\.?|#)`;
const UNIT_VALUE = String.raw`#?\s*([A-Za-z0-9][A-Za-z0-9-]*)`;
const TRAILING = new RegExp(String.raw`^(.*?\S)\s*,?\s+${UNIT}\s*${UNIT_VALUE}\s*$|^(.*?[^\s#])\s*,?\s*#\s*([A-Za-z0-9][A-Za-z0-9-]*)\s*$`, 'i');
const LEADING = new RegExp(String.raw`^${UNIT}\s*${UNIT_VALUE}\s*,\s*(.+)$`, 'i');

/**
 * Splits the apartment part of a street line ("100 Main St Apt 4B" → street "100 Main St",
 * apartment "4B"). Recognises Apt/Apartment/Unit/Suite/Ste/# at the end (optionally after a comma)
 * or at the start followed by a comma ("Apt 4, 100 Main St"). A line without such a part is
 * returned trimmed with apartmentNumber null.
 */
export function splitApartment(streetLine: string | null | undefined): StreetParts {
  const line = (streetLine ?? '').replace(/\s+/g, ' ').trim();
  const trailing = TRAILING.exec(line);
  if (trailing) {
    const street = (trailing[1] ?? trailing[3]).replace(/[\s,]+$/, '');
    const apartment = trailing[2] ?? trailing[4];
    // "Unit 5" alone or "# 12" alone is not a street with an apartment.
    if (/\d|[A-Za-z]{2,}/.test(street) && !new RegExp(`^${UNIT}$`, 'i').test(street)) {
      return { streetLine: street, apartmentNumber: apartment };
    }
  }
  const leading = LEADING.exec(line);
  if (leading) return { streetLine: leading[2].trim(), apartmentNumber: leading[1] };
  return { streetLine: line, apartmentNumber: null };
}

// Answers of GET /api/address/* (US address look-ups)

/** One ZIP code of the data set. */
export interface ZipInfo {
  zipCode: string;
  city: string;
  state: string;
  county: string;
  latitude: number;
  longitude: number;
}

/** One street suggestion: a line already known, or the typed text split into street and apartment. */
export interface StreetSuggestion {
  source: 'typed' | 'facility' | 'patient';
  streetLine: string;
  apartmentNumber: string | null;
  city: string | null;
  state: string | null;
  county: string | null;
  zipCode: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface CountySuggestion {
  county: string;
  state: string;
}
