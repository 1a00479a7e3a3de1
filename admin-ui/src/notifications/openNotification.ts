import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { NotificationItem } from '@crisis/forms/core';
import { useSession } from '../auth/session';
import { useAppData } from '../data/query';

/** Opening a notification: it is marked read and its case opens, for a user who may open cases. */
export function useOpenNotification() {
  const navigate = useNavigate();
  const dp = useAppData();
  const { ability } = useSession();
  return useCallback(
    (n: NotificationItem) => {
      if (!n.isRead) void dp.markNotificationsRead([n.id]).catch(() => undefined);
      if (n.caseId && ability.can('read', 'Case')) navigate(`/cases/${n.caseId}`);
    },
    [dp, ability, navigate],
  );
}
