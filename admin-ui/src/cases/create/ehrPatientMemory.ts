import type { EhrPatientLookup } from '@crisis/forms/core';

/**
 * What the EHR said of a patient id on the search screen, kept for this tab's creation form (the
 * next screen gets only names and dates in its URL): gender, phone and address fill in there.
 */
const key = (patientId: string) => `ehr-patient:${patientId.trim()}`;

export function rememberEhrPatient(patientId: string, p: EhrPatientLookup): void {
  try {
    sessionStorage.setItem(key(patientId), JSON.stringify(p));
  } catch {
    // storage full or disabled: the form just starts without the extra fields
  }
}

export function recallEhrPatient(patientId: string | null | undefined): EhrPatientLookup | null {
  if (!patientId) return null;
  try {
    const raw = sessionStorage.getItem(key(patientId));
    return raw ? (JSON.parse(raw) as EhrPatientLookup) : null;
  } catch {
    return null;
  }
}
