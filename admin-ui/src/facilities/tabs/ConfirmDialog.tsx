import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { Confirmation } from './tabsApi';

/** "Are you sure?" before a removal or an auto-submitted change (spec 03 §8: a confirmation precedes removals). */
export function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation | null; onClose: () => void }) {
  return (
    <Dialog open={!!confirmation} onClose={onClose} data-testid="confirm-dialog">
      <DialogTitle>{confirmation?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{confirmation?.message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="confirm-no">
          Cancel
        </Button>
        <Button
          variant="contained"
          data-testid="confirm-yes"
          onClick={async () => {
            const c = confirmation;
            onClose();
            await c?.onConfirm();
          }}
        >
          Confirm
        </Button>
      </DialogActions>
    </Dialog>
  );
}
