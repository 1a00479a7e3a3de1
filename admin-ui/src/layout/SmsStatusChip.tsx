import { Suspense, lazy, useEffect, useState } from 'react';
import { Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import SmsIcon from '@mui/icons-material/Sms';
import { useNotify } from 'react-admin';
import { formatDateTime, isReceivingSms } from '@crisis/forms/core';
import { useReloadSession, useSession } from '../auth/session';
import { useAppData } from '../data/query';

// The settings form (and its validator) loads when the dialog first opens, not with every page.
const SmsSettingsDialog = lazy(() => import('../sms-notifications/SmsSettingsDialog').then((m) => ({ default: m.SmsSettingsDialog })));

/** "3h 05m" left of a timed window. */
function remaining(until: string, now: number): string {
  const ms = Math.max(0, new Date(until).getTime() - now);
  const h = Math.floor(ms / 3600_000);
  const m = Math.floor((ms % 3600_000) / 60_000);
  return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m ${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

/**
 * ITP admins, users and providers: SMS-notification status (spec 03 §2). Clicking opens the
 * settings when off and asks to stop when on; a timed window counts down (SMS clock, every 1 s)
 * and turns off by itself when it lapses.
 */
export function SmsStatusChip() {
  const { navigation, context } = useSession();
  const reload = useReloadSession();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const dp = useAppData();
  const [now, setNow] = useState(Date.now());
  const sms = context.smsNotifications;
  const until = !sms?.alwaysReceive ? sms?.receiveUntil ?? null : null;
  useEffect(() => {
    if (!until) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [until]);
  if (!navigation.smsControl) return null;
  const on = isReceivingSms(sms, new Date(now));
  const stop = async () => {
    try {
      await dp.smsStop();
      notify('SMS notifications stopped', { type: 'success' });
      await reload();
    } catch (e: any) {
      notify(e?.message ?? 'Stopping SMS notifications failed', { type: 'error' });
    }
    setOpen(false);
  };
  return (
    <>
      <Chip
        icon={<SmsIcon />}
        label={on ? (until ? `SMS on · ${remaining(until, now)}` : 'SMS on') : 'SMS off'}
        color={on ? 'success' : 'default'}
        onClick={() => setOpen(true)}
        data-testid="sms-status"
        data-state={on ? 'on' : 'off'}
        sx={{ mr: 1, bgcolor: on ? undefined : 'rgba(255,255,255,0.85)' }}
      />
      {on ? (
        <Dialog open={open} onClose={() => setOpen(false)} data-testid="sms-stop-dialog">
          <DialogTitle>Stop SMS notifications?</DialogTitle>
          <DialogContent>
            <DialogContentText>
              You are receiving SMS notifications at {sms?.phone ?? 'your phone'}
              {until ? ` until ${formatDateTime(until)}` : ''}. Stop them now?
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="contained" color="error" onClick={stop} data-testid="sms-stop">
              Stop
            </Button>
          </DialogActions>
        </Dialog>
      ) : (
        open && (
          <Suspense fallback={null}>
            <SmsSettingsDialog open={open} onClose={() => setOpen(false)} onChanged={reload} />
          </Suspense>
        )
      )}
    </>
  );
}
