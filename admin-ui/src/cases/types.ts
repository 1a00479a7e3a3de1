/** The case page's payload (GET /api/cases/{id}, shared with the API in forms) and the contract every case-page card follows. */
import type { CaseDetails } from '@crisis/forms/core';

export type { CaseDetails, CaseRequest, PersonRef } from '@crisis/forms/core';

/**
 * Every card of the case page receives the case and a callback to reload it after a change. A
 * card hides its add/edit actions when the case is closed (caseRecord.status === 'Closed') and
 * reads what the role may do from the ability (useAbility in ../auth).
 */
export interface CaseCardProps {
  caseRecord: CaseDetails;
  onChanged: () => void;
}
