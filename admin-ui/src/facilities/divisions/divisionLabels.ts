import { enumLabel } from '@crisis/forms/core';

const OVERRIDES: Record<string, string> = { ErCrisis: 'ER Crisis' };

/** Label of a source or referring type ("MentalHealthInpatient" → "Mental Health Inpatient"). */
export const subtypeLabel = (value: string) => OVERRIDES[value] ?? enumLabel(value);
