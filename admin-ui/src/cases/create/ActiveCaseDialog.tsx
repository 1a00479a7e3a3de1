import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { formatPhone } from '@crisis/forms/core';
import { useSession } from '../../auth/session';

/**
 * The patient already has a case that is not closed (spec 01 §2, §8 'active case exists (contact
 * the ITP team)'): no new case; the ER line of the ITP team is shown.
 */
export function ActiveCaseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { context } = useSession();
  const erLine = context.erLine ? formatPhone(context.erLine) : null;
  return (
    <Dialog open={open} onClose={onClose} data-testid="active-case-dialog" maxWidth="xs" fullWidth>
      <DialogTitle>Active case exists</DialogTitle>
      <DialogContent>
        <DialogContentText>
          This patient already has an active case, so a new case cannot be created. Please contact the ITP team
          {erLine ? ' at the ER line:' : '.'}
        </DialogContentText>
        {erLine && (
          <DialogContentText sx={{ mt: 1, fontWeight: 600, color: 'text.primary' }} data-testid="active-case-er-line">
            <a href={`tel:${context.erLine}`}>{erLine}</a>
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" data-testid="active-case-ok">
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
