import { AGE_RANGES, type AgeRangeName } from '@crisis/forms/core';
import { humanize } from '../common/humanize';

/** 'YYYY-MM-DD' → MM/dd/yyyy (spec 03 §9), without a time zone shifting the day. */
export const dobText = (d: string | null | undefined) => (d ? `${d.slice(5, 7)}/${d.slice(8, 10)}/${d.slice(0, 4)}` : '');

/** 'Transgender_Female' → 'Transgender: Female'. */
export const genderText = (g: string | null | undefined) => humanize(g);

/** 'Child (5–12)', 'Adult (18+)': the age-range filter's choices. */
export const AGE_RANGE_CHOICES = AGE_RANGES.map((r) => ({ id: r.name as AgeRangeName, name: `${r.name} (${r.max === null ? `${r.min}+` : `${r.min}–${r.max}`})` }));

/** A facility name, with city and state where another facility has the same name (spec 02 §2). */
export const facilityText = (f: { name: string; city: string | null; state: string | null; nameRepeats?: boolean }) =>
  f.nameRepeats ? `${f.name} (${[f.city, f.state].filter(Boolean).join(', ')})` : f.name;

/** The merge page's address of a duplicate group. */
export const mergePath = (g: { firstName: string; lastName: string; dateOfBirth: string }) =>
  `/patients/merge?${new URLSearchParams({ firstName: g.firstName, lastName: g.lastName, dateOfBirth: g.dateOfBirth })}`;
