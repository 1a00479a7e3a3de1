// NOTIFICATION_TYPES and NotificationType are exported through ./cases (enums) as well.
export { isNotificationType, type NotificationPayload, type NotificationPayloads, type NotificationItem, type NotificationList } from './types';
export * from './recipients';
export * from './text';
export * from './facility-alerts';
