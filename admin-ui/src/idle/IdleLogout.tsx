import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Typography } from '@mui/material';
import { useLogout } from 'react-admin';
import { IDLE_COUNTDOWN_TICK_MS } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { SIGNED_OUT_PATH } from '../auth/signedOut';
import { ACTIVITY_EVENTS, LAST_ACTIVITY_KEY, lastActivity, markActivity } from './activityClock';
import { claimLogoutLeadership } from './logoutLeader';

const SLOW_TICK_MS = 1000;
/** A tab that lost the leadership waits this long for the leader's sign-out before leaving itself. */
const FOLLOWER_FALLBACK_MS = 5000;
const WRITE_THROTTLE_MS = 1000;

const mmss = (ms: number) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * Auto-logout (spec 03 §2, §9): after idleLogoutMs without activity in any tab the user is logged
 * out; idleWarningMs before that a dialog counts down (every 50 ms) and offers to stay or leave.
 * The tabs share one last-activity time in localStorage. Not react-idle-timer's cross-tab mode: it
 * logs out only once every registered tab reports idle, and a tab that goes without `beforeunload`
 * (discarded by a tablet's OS, crashed) stays registered as active, so no tab would ever log out.
 */
export function IdleLogout() {
  const { settings } = useSession();
  const logout = useLogout();
  const { idleLogoutMs, idleWarningMs } = settings;
  const [remaining, setRemaining] = useState<number | null>(null); // null: no warning shown
  const warning = remaining !== null;
  const warningRef = useRef(false);
  warningRef.current = warning;
  const loggingOut = useRef(false);

  // Activity in this tab (ignored while the warning is up: only the buttons count then).
  useEffect(() => {
    markActivity();
    let lastWrite = 0;
    const onActivity = () => {
      if (warningRef.current) return;
      const now = Date.now();
      if (now - lastWrite < WRITE_THROTTLE_MS) return;
      lastWrite = now;
      markActivity(now);
    };
    ACTIVITY_EVENTS.forEach((e) => window.addEventListener(e, onActivity, { passive: true, capture: true }));
    return () => ACTIVITY_EVENTS.forEach((e) => window.removeEventListener(e, onActivity, { capture: true }));
  }, []);

  // The clock: slow while all is well, every 50 ms during the countdown; other tabs' activity via storage events.
  useEffect(() => {
    const check = () => {
      const left = idleLogoutMs - (Date.now() - lastActivity());
      if (left <= 0) {
        setRemaining(0);
        if (!loggingOut.current) {
          loggingOut.current = true;
          void claimLogoutLeadership().then((leader) => {
            if (leader) logout();
            else window.setTimeout(() => window.location.replace(SIGNED_OUT_PATH), FOLLOWER_FALLBACK_MS);
          });
        }
      } else setRemaining(left <= idleWarningMs ? left : null);
    };
    check();
    const timer = window.setInterval(check, warning ? IDLE_COUNTDOWN_TICK_MS : Math.min(SLOW_TICK_MS, idleWarningMs / 4));
    const onStorage = (e: StorageEvent) => e.key === LAST_ACTIVITY_KEY && check();
    window.addEventListener('storage', onStorage);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('storage', onStorage);
    };
  }, [idleLogoutMs, idleWarningMs, warning, logout]);

  if (!warning) return null;
  const stay = () => {
    markActivity();
    setRemaining(null);
  };
  const leave = () => {
    loggingOut.current = true;
    logout();
  };
  return (
    <Dialog open onClose={stay} data-testid="idle-warning" aria-labelledby="idle-title">
      <DialogTitle id="idle-title">Are you still there?</DialogTitle>
      <DialogContent>
        <Typography gutterBottom>
          You will be signed out in <strong data-testid="idle-countdown">{mmss(remaining)}</strong> because of inactivity.
        </Typography>
        <LinearProgress variant="determinate" value={Math.max(0, (remaining / idleWarningMs) * 100)} />
      </DialogContent>
      <DialogActions>
        <Button onClick={leave} data-testid="idle-logout">
          Log out
        </Button>
        <Button onClick={stay} variant="contained" autoFocus data-testid="idle-stay">
          Stay signed in
        </Button>
      </DialogActions>
    </Dialog>
  );
}
