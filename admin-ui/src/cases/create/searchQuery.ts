import type { SearchData } from '@crisis/forms/core';
import { qs } from '../../data/methods/caseCreate';

/** The search data carried from /cases/create/search to the next screens, as a query string. */
export const searchToQuery = (d: SearchData, extra: Record<string, string | number | null | undefined> = {}) =>
  qs({ firstName: d.firstName, lastName: d.lastName, dateOfBirth: d.dateOfBirth, patientEpicId: d.patientEpicId, encounterIdentifier: d.encounterIdentifier, ...extra });

export function searchFromQuery(params: URLSearchParams): SearchData | null {
  const firstName = params.get('firstName');
  const lastName = params.get('lastName');
  const dateOfBirth = params.get('dateOfBirth');
  if (!firstName || !lastName || !dateOfBirth) return null;
  return { firstName, lastName, dateOfBirth, patientEpicId: params.get('patientEpicId'), encounterIdentifier: params.get('encounterIdentifier') };
}
