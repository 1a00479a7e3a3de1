import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, Radio, RadioGroup } from '@mui/material';
import type { ReferringDivisionOption } from '@crisis/forms/core';
import { useAppData } from '../../data/query';

/**
 * Remove from accepted (spec 01 §4): the coordinator picks the division whose acceptance is taken
 * back (preselected when only one accepts). The case leaves that facility's accepted list; it goes
 * back to contacting service organizations only when no other division still accepts.
 */
export function RemoveFromAcceptedDialog({
  open,
  caseId,
  busy,
  onClose,
  onSubmit,
}: {
  open: boolean;
  caseId: number;
  busy: boolean;
  onClose: () => void;
  onSubmit: (divisionId: number) => void;
}) {
  const dp = useAppData();
  const [accepted, setAccepted] = useState<ReferringDivisionOption[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [divisionId, setDivisionId] = useState<number | null>(null);

  useEffect(() => {
    if (!open) return;
    setAccepted(null);
    setFailed(null);
    dp.caseCloseOptions(caseId).then(
      (r) => {
        setAccepted(r.accepted);
        setDivisionId(r.accepted.length === 1 ? r.accepted[0].divisionId : null);
      },
      (e) => setFailed((e as Error).message),
    );
  }, [open, caseId, dp]);

  return (
    <Dialog open={open} onClose={onClose} data-testid="remove-accepted-dialog" maxWidth="xs" fullWidth>
      <DialogTitle>Remove from accepted</DialogTitle>
      <DialogContent>
        {failed && <Alert severity="error">{failed}</Alert>}
        {!accepted && !failed && <CircularProgress size={24} />}
        {accepted && accepted.length === 0 && <DialogContentText>No division has accepted the patient.</DialogContentText>}
        {accepted && accepted.length > 0 && (
          <>
            <DialogContentText sx={{ mb: 1 }}>
              The case leaves this division&apos;s accepted list. It goes back to contacting service organizations when no other division still accepts the patient.
            </DialogContentText>
            <RadioGroup value={divisionId === null ? '' : String(divisionId)} onChange={(e) => setDivisionId(Number(e.target.value))}>
              {accepted.map((d) => (
                <FormControlLabel
                  key={d.divisionId}
                  value={String(d.divisionId)}
                  control={<Radio />}
                  label={`${d.facilityName} — ${d.divisionName}`}
                  data-testid={`remove-accepted-division-${d.divisionId}`}
                />
              ))}
            </RadioGroup>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={busy || divisionId === null} onClick={() => divisionId !== null && onSubmit(divisionId)} data-testid="remove-accepted-confirm">
          Remove
        </Button>
      </DialogActions>
    </Dialog>
  );
}
