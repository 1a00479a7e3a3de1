import { USER_LOOKUP_BATCH, type NotificationItem, type NotificationList } from '@crisis/forms/core';
import { http } from './http';

/** The notification bell's calls (spec 02 §7 "Other", 03 §7). */
export const notificationMethods = {
  /** The unresolved ones, newest first; `cursor` continues after the last one of a page. */
  notificationsUnresolved: (cursor?: string | null) =>
    http.get<NotificationList>(`/api/user/getUserNotifications${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`),
  /** Resolved within the last 2 days, with the resolver's name. */
  notificationsResolved: () => http.get<NotificationItem[]>('/api/notifications/resolved'),
  resolveNotification: (id: number) => http.put<NotificationItem>(`/api/notifications/${id}/resolve`, undefined),
  dismissNotification: (id: number) => http.put<{ id: number }>(`/api/user/${id}/dismiss-notification`, undefined),
  markNotificationsRead: (ids: number[]) => http.put<{ updated: number }>('/api/notifications/read', { ids }),
  /** Full names by id, asked USER_LOOKUP_BATCH ids at a time. */
  notificationUsers: async (ids: number[]): Promise<Array<{ id: number; fullName: string }>> => {
    const unique = [...new Set(ids)];
    const out: Array<{ id: number; fullName: string }> = [];
    for (let i = 0; i < unique.length; i += USER_LOOKUP_BATCH)
      out.push(...(await http.get<Array<{ id: number; fullName: string }>>(`/api/notifications/users?ids=${unique.slice(i, i + USER_LOOKUP_BATCH).join(',')}`)));
    return out;
  },
};
