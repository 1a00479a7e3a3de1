import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, List, ListItem, ListItemText } from '@mui/material';
import {
  ALREADY_ACCEPTED_MESSAGE,
  OLD_SYSTEM_CASE_MESSAGE,
  RECENT_VISIT_MESSAGE,
  caseReference,
  formatDay,
  recentVisitsToReview,
  type PatientMatch,
} from '@crisis/forms/core';

/**
 * What continuing with a matched patient leads to (spec 01 §2, §8, §9), decided once for the search
 * page (facility staff: their own facility) and the result page (ITP staff: any facility):
 * refused when another facility already accepted the patient or a case is active; otherwise a
 * review prompt when the patient was seen in the last 3 months, and the old-system notice.
 */
export type PatientStep =
  | { kind: 'accepted'; match: PatientMatch }
  | { kind: 'active'; match: PatientMatch }
  | { kind: 'review'; match: PatientMatch; visits: PatientMatch['recentVisits']; oldSystem: boolean }
  | { kind: 'go'; match: PatientMatch };

export function patientStep(match: PatientMatch, facilityId: number | null): PatientStep {
  if (match.acceptedIn) return { kind: 'accepted', match };
  if (match.activeCase) return { kind: 'active', match };
  const visits = recentVisitsToReview(match.recentVisits, facilityId);
  if (visits.length || match.lastCaseFromOldSystem) return { kind: 'review', match, visits, oldSystem: !!match.lastCaseFromOldSystem };
  return { kind: 'go', match };
}

/** 'Patient is already accepted in the other facility': no new case. */
export function AlreadyAcceptedDialog({ step, onClose }: { step: PatientStep | null; onClose: () => void }) {
  const accepted = step?.kind === 'accepted' ? step.match.acceptedIn : null;
  return (
    <Dialog open={!!accepted} onClose={onClose} data-testid="already-accepted-dialog" maxWidth="xs" fullWidth>
      <DialogTitle>Patient already accepted</DialogTitle>
      <DialogContent>
        <DialogContentText>{ALREADY_ACCEPTED_MESSAGE}.</DialogContentText>
        {accepted?.facilityName && (
          <DialogContentText sx={{ mt: 1 }} data-testid="already-accepted-where">
            {accepted.facilityName}
            {accepted.divisionName ? ` — ${accepted.divisionName}` : ''} ({caseReference(accepted.caseId)})
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" data-testid="already-accepted-ok">
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The review prompt (seen in the last 3 months) and the old-system notice: cancel, or continue. */
export function PatientReviewDialog({ step, onCancel, onContinue }: { step: PatientStep | null; onCancel: () => void; onContinue: () => void }) {
  const review = step?.kind === 'review' ? step : null;
  return (
    <Dialog open={!!review} onClose={onCancel} data-testid="patient-review-dialog" maxWidth="sm" fullWidth>
      <DialogTitle>Review the patient</DialogTitle>
      <DialogContent>
        {!!review?.visits.length && (
          <>
            <DialogContentText data-testid="patient-review-recent">{RECENT_VISIT_MESSAGE}</DialogContentText>
            <List dense>
              {review.visits.map((v) => (
                <ListItem key={v.facilityId} disableGutters>
                  <ListItemText primary={v.facilityName} secondary={`Last case ${formatDay(v.lastSeenAt)}`} />
                </ListItem>
              ))}
            </List>
          </>
        )}
        {review?.oldSystem && (
          <Alert severity="info" sx={{ mt: 1 }} data-testid="patient-review-old-system">
            {OLD_SYSTEM_CASE_MESSAGE}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} data-testid="patient-review-cancel">
          Cancel
        </Button>
        <Button onClick={onContinue} variant="contained" data-testid="patient-review-continue">
          Continue
        </Button>
      </DialogActions>
    </Dialog>
  );
}
