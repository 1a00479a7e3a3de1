/** Request rules of spec 01 §4 "Request lifecycle" and §5 "Case creation", written once. */
import { REQUEST_TYPES, UserType, type RequestType } from '../enums';
import { isActiveRequestStatus, type RequestStatus } from './enums';

const ITP_STAFF: readonly string[] = [UserType.ItpAdmin, UserType.ItpUser];
const FACILITY_STAFF: readonly string[] = [UserType.FacilityAdmin, UserType.FacilityUser];
export const isItpStaff = (userType: string | null | undefined): boolean => !!userType && ITP_STAFF.includes(userType);
export const isFacilityStaff = (userType: string | null | undefined): boolean => !!userType && FACILITY_STAFF.includes(userType);

/**
 * The source side of a case (spec 01 §6: patient, insurance, vitals and case-note edits are "not
 * referring"): ITP staff and providers, or the facility staff of the case's source — its source
 * division's users, its source facility's admin. A referring facility that was granted or accepted
 * the case reads it but is not on its source side. One test for every such write.
 */
export function isCaseSourceSide(
  user: { role: string; facilityId?: number | null; divisionId?: number | null },
  c: { sourceFacilityId: number; sourceDivisionId: number },
): boolean {
  if (user.role === UserType.ItpAdmin || user.role === UserType.ItpUser || user.role === UserType.ItpProvider) return true;
  if (user.role === UserType.FacilityAdmin) return user.facilityId === c.sourceFacilityId;
  if (user.role === UserType.FacilityUser) return user.divisionId === c.sourceDivisionId;
  return false;
}

/** Request types after which a Reassessment may be requested. */
export const REASSESSMENT_PREREQUISITES: readonly RequestType[] = ['Assessment', 'PhoneConsultation'];
/** Telepsych evaluations after which a TelepsychiatryFollowUp may be requested. */
export const TELEPSYCH_EVALUATIONS: readonly RequestType[] = ['TelepsychUrgentCrisisEvaluation', 'TelepsychPsychiatryConsult'];
/** Request types only ITP admins and users may create. */
export const ITP_ONLY_REQUEST_TYPES: readonly RequestType[] = ['FileReview', 'ASAMAssessment'];

export interface RequestTypeContext {
  userType: string;
  /** The source facility allows placement-only cases. */
  allowPlacementOnly: boolean;
  /** Types of the case's requests that are Completed. */
  completedRequestTypes: readonly string[];
  /** The source division's request types (spec 03 §3 Division); null or absent: no restriction. */
  divisionRequestTypes?: readonly string[] | null;
}

/** The request types offered when creating a request (spec 01 §5 "Request type options"), in enum order. */
export function availableRequestTypes({ userType, allowPlacementOnly, completedRequestTypes, divisionRequestTypes }: RequestTypeContext): RequestType[] {
  const itp = isItpStaff(userType);
  const facility = isFacilityStaff(userType);
  const completed = new Set(completedRequestTypes);
  return REQUEST_TYPES.filter((t) => {
    if (ITP_ONLY_REQUEST_TYPES.includes(t) && !itp) return false;
    // PlacementOnly is the facility's choice (allowPlacementOnly), not one of the division's evaluation types.
    if (divisionRequestTypes?.length && t !== 'PlacementOnly' && !divisionRequestTypes.includes(t)) return false;
    if (t === 'PlacementOnly' && !allowPlacementOnly) return false;
    if (t === 'Reassessment' || t === 'TelepsychiatryFollowUp') {
      if (facility || allowPlacementOnly) return false;
      const prerequisites = t === 'Reassessment' ? REASSESSMENT_PREREQUISITES : TELEPSYCH_EVALUATIONS;
      if (!prerequisites.some((p) => completed.has(p))) return false;
    }
    return true;
  });
}

/** The request fields the edit and cancel rules read. */
export interface RequestRuleInput {
  type: string;
  status: RequestStatus | string;
  /** The provider has started the evaluation. */
  evaluationStarted?: boolean | null;
}

const EDITABLE_STATUSES: readonly string[] = ['New', 'Pending', 'OnHold'];

/**
 * Edit (spec 01 §4): partner staff edit New, Pending, OnHold, or InProgress before the evaluation
 * started; facility staff the same except FileReview requests; providers never.
 */
export function canEditRequest(userType: string, request: RequestRuleInput): boolean {
  const itp = isItpStaff(userType);
  if (!itp && !isFacilityStaff(userType)) return false;
  if (!itp && request.type === 'FileReview') return false;
  return EDITABLE_STATUSES.includes(request.status) || (request.status === 'InProgress' && !request.evaluationStarted);
}

/**
 * Cancel (spec 01 §4): partner staff cancel any active request; facility staff only New, Pending
 * or OnHold requests that are not FileReview; providers never.
 */
export function canCancelRequest(userType: string, request: RequestRuleInput): boolean {
  if (isItpStaff(userType)) return isActiveRequestStatus(request.status);
  if (isFacilityStaff(userType)) return request.type !== 'FileReview' && EDITABLE_STATUSES.includes(request.status);
  return false;
}


/**
 * What a user may do to one patient file of a case (spec 02 §6): facility staff of the case's
 * source side (never a referring facility) edit and delete only the files they submitted
 * themselves; ITP admins and users upload and hide / unhide files (they neither edit nor delete
 * them: hiding is how the ITP takes a file out of view). Nothing changes on a closed case.
 */
export function patientFileActions(
  user: { id: number; role: string; facilityId?: number | null; divisionId?: number | null },
  c: { sourceFacilityId: number; sourceDivisionId: number; closed: boolean },
  file: { submittedById: number | null },
): { canEdit: boolean; canDelete: boolean; canHide: boolean } {
  if (c.closed) return { canEdit: false, canDelete: false, canHide: false };
  const facility = user.role === UserType.FacilityAdmin || user.role === UserType.FacilityUser;
  const own = facility && isCaseSourceSide(user, c) && file.submittedById === user.id;
  const itpStaff = user.role === UserType.ItpAdmin || user.role === UserType.ItpUser;
  return { canEdit: own, canDelete: own, canHide: itpStaff };
}
