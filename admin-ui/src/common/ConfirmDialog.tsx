import { useState } from 'react';
import { Button } from '@mui/material';
import { MessageDialog, type Message } from './MessageDialog';

/** A confirmation dialog's state: what to ask and what to do on yes. */
export interface Confirmation extends Message {
  onConfirm: () => void | Promise<void>;
}

/** "Are you sure?" before a removal or an auto-submitted change (spec 03 §8: a confirmation precedes removals). */
export function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation | null; onClose: () => void }) {
  const confirm = async () => {
    const c = confirmation;
    onClose();
    await c?.onConfirm();
  };
  return (
    <MessageDialog
      content={confirmation}
      onClose={onClose}
      testId="confirm-dialog"
      actions={
        <>
          <Button onClick={onClose} data-testid="confirm-no">
            Cancel
          </Button>
          <Button variant="contained" data-testid="confirm-yes" onClick={confirm}>
            Confirm
          </Button>
        </>
      }
    />
  );
}

/** A screen's confirmation: `ask` opens the dialog, `dialog` is the element to render. */
export function useConfirmation() {
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  return { ask: setConfirmation, dialog: <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} /> };
}
