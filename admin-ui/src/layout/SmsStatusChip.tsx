import { useState } from 'react';
import { Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import SmsIcon from '@mui/icons-material/Sms';
import { useSession } from '../auth/session';

/** ITP admins, users and providers: SMS-notification status. Clicking opens the settings (placeholder). */
export function SmsStatusChip() {
  const { navigation, context } = useSession();
  const [open, setOpen] = useState(false);
  if (!navigation.smsControl) return null;
  const on = !!context.smsNotifications?.isReceiving;
  return (
    <>
      <Chip
        icon={<SmsIcon />}
        label={`SMS ${on ? 'on' : 'off'}`}
        color={on ? 'success' : 'default'}
        onClick={() => setOpen(true)}
        data-testid="sms-status"
        data-state={on ? 'on' : 'off'}
        sx={{ mr: 1, bgcolor: on ? undefined : 'rgba(255,255,255,0.85)' }}
      />
      <Dialog open={open} onClose={() => setOpen(false)} data-testid="sms-dialog">
        <DialogTitle>{on ? 'Stop SMS notifications?' : 'SMS notification settings'}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {on
              ? 'You are receiving SMS notifications. Stopping them is coming soon.'
              : 'Starting SMS notifications (always, or for the next hours) is coming soon.'}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
