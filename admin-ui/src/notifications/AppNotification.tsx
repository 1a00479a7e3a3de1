import { useMemo } from 'react';
import { Notification, NotificationContext, useNotificationContext, type NotificationPayload } from 'react-admin';
import { TOAST_AUTO_CLOSE_MS } from '@crisis/forms/core';
import { findCodedError } from './codedErrorRegistry';
import { CodedErrorToast } from './CodedErrorToast';

/** An error toast whose text is a remembered coded error gets the details toggle. */
function decorate(n: NotificationPayload): NotificationPayload {
  if (n.type !== 'error' || typeof n.message !== 'string') return n;
  const coded = findCodedError(n.message);
  if (!coded) return n;
  const { messageArgs: _args, ...options } = n.notificationOptions ?? {};
  return {
    ...n,
    message: <CodedErrorToast {...coded} message={n.message} />,
    notificationOptions: options,
  };
}

/** react-admin's notification with our coded-error toasts; every toast auto-closes after 10 s. */
export function AppNotification() {
  const ctx = useNotificationContext();
  const value = useMemo(
    () => ({
      ...ctx,
      takeNotification: () => {
        const n = ctx.takeNotification();
        return n ? decorate(n) : n;
      },
    }),
    [ctx],
  );
  return (
    <NotificationContext.Provider value={value}>
      <Notification autoHideDuration={TOAST_AUTO_CLOSE_MS} anchorOrigin={{ vertical: 'top', horizontal: 'center' }} />
    </NotificationContext.Provider>
  );
}
