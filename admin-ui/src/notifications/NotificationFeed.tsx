import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { notificationText, type NotificationItem, type NotificationList } from '@crisis/forms/core';
import { announce } from '../common/LiveAnnouncer';
import { useSession } from '../auth/session';
import { useAppData } from '../data/query';
import { useLiveEvent } from '../live/useLiveEvent';

interface Feed {
  /** The unresolved ones loaded (newest first) and their count (capped at 100: 99+). */
  items: NotificationItem[];
  count: number;
  nextCursor: string | null;
  loadOlder(): Promise<void>;
  /** New ones that arrived while the page was open (the toasts). */
  toasts: NotificationItem[];
  closeToast(id: number): void;
  resolve(id: number): Promise<void>;
  reload(): Promise<void>;
}

const FeedContext = createContext<Feed | null>(null);
export const useNotificationFeed = () => useContext(FeedContext);

/**
 * The user's unresolved notifications, kept current through the live channel (spec 02 §2 bell):
 * a `notification` event reloads the list and whatever is new since the last load becomes a
 * toast; `notifications.changed` (resolved or dismissed here or by a colleague) reloads it. What
 * arrived while the user was away is in the list at sign-in, without toasts.
 */
export function NotificationFeedProvider({ children }: { children: ReactNode }) {
  const { navigation } = useSession();
  const enabled = navigation.notificationBell;
  const dp = useAppData();
  const [list, setList] = useState<NotificationList>({ items: [], unresolvedCount: 0, nextCursor: null });
  const [older, setOlder] = useState<NotificationItem[]>([]);
  const [toasts, setToasts] = useState<NotificationItem[]>([]);
  /** Ids seen so far; null until the first load (what is there at sign-in is no toast). */
  const known = useRef<Set<number> | null>(null);

  const reload = useCallback(async () => {
    let next: NotificationList;
    try {
      next = await dp.notificationsUnresolved();
    } catch {
      return; // the bell keeps what it has; the next event or reload tries again
    }
    const seen = known.current;
    const fresh = seen ? next.items.filter((i) => !seen.has(i.id)) : [];
    known.current = new Set([...(seen ?? []), ...next.items.map((i) => i.id)]);
    const open = new Set(next.items.map((i) => i.id));
    setList(next);
    setOlder((o) => o.filter((i) => open.has(i.id) || !next.items.length));
    // Toasts of notifications resolved meanwhile (here or by a colleague) go away.
    setToasts((t) => [...fresh, ...t.filter((x) => open.has(x.id) && !fresh.some((f) => f.id === x.id))]);
    // A screen reader hears the new ones (the toasts themselves are not live regions).
    if (fresh.length) announce(fresh.length === 1 ? `New notification: ${notificationText(fresh[0])}` : `${fresh.length} new notifications. ${notificationText(fresh[0])}`);
  }, [dp]);

  useEffect(() => {
    if (enabled) void reload();
  }, [enabled, reload]);
  useLiveEvent(enabled ? null : undefined, ['notification', 'notifications.changed'], () => void reload());

  const loadOlder = useCallback(async () => {
    const cursor = (older.length ? older[older.length - 1] : list.items[list.items.length - 1])?.id;
    if (!cursor || !list.nextCursor) return;
    const page = await dp.notificationsUnresolved(String(cursor));
    setOlder((o) => [...o, ...page.items]);
    setList((l) => ({ ...l, nextCursor: page.nextCursor }));
  }, [dp, list, older]);

  const resolve = useCallback(
    async (id: number) => {
      await dp.resolveNotification(id);
      setToasts((t) => t.filter((x) => x.id !== id));
      setOlder((o) => o.filter((x) => x.id !== id));
      await reload();
    },
    [dp, reload],
  );
  const closeToast = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);

  const value = useMemo<Feed>(
    () => ({ items: [...list.items, ...older], count: list.unresolvedCount, nextCursor: list.nextCursor, loadOlder, toasts, closeToast, resolve, reload }),
    [list, older, loadOlder, toasts, closeToast, resolve, reload],
  );
  return <FeedContext.Provider value={enabled ? value : null}>{children}</FeedContext.Provider>;
}
