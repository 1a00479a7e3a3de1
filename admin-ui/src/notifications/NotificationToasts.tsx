import { useEffect, type MouseEvent } from 'react';
import { Alert, AlertTitle, Box, Button, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { TOAST_AUTO_CLOSE_MS, notificationText, type NotificationItem } from '@crisis/forms/core';
import { useNotificationFeed } from './NotificationFeed';
import { useOpenNotification } from './openNotification';

function Toast({ n }: { n: NotificationItem }) {
  const feed = useNotificationFeed()!;
  const open = useOpenNotification();
  // Each toast closes by itself after 10 s (spec 02 §9).
  useEffect(() => {
    const t = setTimeout(() => feed.closeToast(n.id), TOAST_AUTO_CLOSE_MS);
    return () => clearTimeout(t);
  }, [n.id, feed.closeToast]);
  /** A button of the toast: its own action, not the toast's click (which opens the case). */
  const only = (action: () => void) => (e: MouseEvent) => {
    e.stopPropagation();
    action();
  };
  return (
    <Alert
      severity="info"
      variant="filled"
      data-testid="notification-toast"
      data-id={n.id}
      // Heard through the page's live region (NotificationFeed), not as an interrupting alert.
      role="group"
      aria-label="New notification"
      sx={{ width: 400, maxWidth: 'calc(100vw - 32px)', boxShadow: 4, alignItems: 'flex-start', cursor: n.caseId ? 'pointer' : 'default' }}
      onClick={() => open(n)}
      action={
        <>
          {n.caseId ? (
            <Button
              color="inherit"
              size="small"
              data-testid="notification-toast-open"
              onClick={only(() => open(n))}
            >
              Open
            </Button>
          ) : null}
          <Button
            color="inherit"
            size="small"
            data-testid="notification-toast-resolve"
            onClick={only(() => void feed.resolve(n.id))}
          >
            Resolve
          </Button>
          <IconButton
            color="inherit"
            size="small"
            aria-label="Close"
            data-testid="notification-toast-close"
            onClick={only(() => feed.closeToast(n.id))}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </>
      }
    >
      <AlertTitle sx={{ fontSize: 14, mb: 0.25 }}>New notification</AlertTitle>
      <span data-testid="notification-toast-text">{notificationText(n)}</span>
    </Alert>
  );
}

/** New notifications as toasts at the top left (spec 02 §2), newest on top; closed or resolved from there. */
export function NotificationToasts() {
  const feed = useNotificationFeed();
  if (!feed || !feed.toasts.length) return null;
  return (
    <Box
      data-testid="notification-toasts"
      sx={{ position: 'fixed', top: 72, left: 16, zIndex: (t) => t.zIndex.snackbar + 1, display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      {feed.toasts.slice(0, 5).map((n) => (
        <Toast key={n.id} n={n} />
      ))}
    </Box>
  );
}
