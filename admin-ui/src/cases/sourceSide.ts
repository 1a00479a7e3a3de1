import { isCaseSourceSide, type CaseDetails, type UserContext } from '@crisis/forms/core';

/**
 * Whether the signed-in user edits this case's own record (patient, source details, insurances,
 * vitals, case notes): the API's one source-side rule (forms/ isCaseSourceSide), so a referring
 * facility that was granted the case sees no edit it would be refused.
 */
export const onSourceSide = (context: UserContext, c: Pick<CaseDetails, 'sourceFacility' | 'sourceDivision'>): boolean =>
  isCaseSourceSide(context, { sourceFacilityId: c.sourceFacility.id, sourceDivisionId: c.sourceDivision.id });
