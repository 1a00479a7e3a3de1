import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useDataProvider, useNotify } from 'react-admin';
import type { AppDataProvider } from '../data/dataProvider';
import { useReloadSession, useSession } from '../auth/session';

const METHOD_LABEL: Record<string, string> = { Sms: 'SMS', Email: 'Email' };

/** Confirms resetting one's own MFA; the text names the method (SMS or Email). */
export function ResetMfaDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { context } = useSession();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notify = useNotify();
  const reloadSession = useReloadSession();
  const [busy, setBusy] = useState(false);
  const method = context.mfaMethod ? METHOD_LABEL[context.mfaMethod] ?? context.mfaMethod : '';
  const confirm = async () => {
    setBusy(true);
    try {
      await dataProvider.resetOwnMfa(context.id);
      notify('MFA has been reset', { type: 'success' });
      onClose();
      await reloadSession().catch(() => undefined);
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} data-testid="reset-mfa-dialog">
      <DialogTitle>Reset MFA</DialogTitle>
      <DialogContent>
        <DialogContentText data-testid="reset-mfa-text">
          Your multi-factor authentication by {method} will be reset. You will set it up again at your next sign-in. Continue?
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button onClick={confirm} disabled={busy} variant="contained" color="warning" data-testid="reset-mfa-confirm">
          Reset MFA
        </Button>
      </DialogActions>
    </Dialog>
  );
}
