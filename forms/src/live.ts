/**
 * The live channel's vocabulary (ARCHITECTURE "Live channel"): room names and the events with
 * their payloads. The server publishes through PostgreSQL NOTIFY inside the transaction of the
 * change (one relay emits to socket.io after commit); the UI subscribes with the same names.
 */

/** The PostgreSQL NOTIFY channel the relay listens on. */
export const LIVE_CHANNEL = 'crisis_live';

export const LiveRoom = {
  /** Every socket of one user (notifications). */
  user: (userId: number) => `user:${userId}`,
  /** Everyone with the case's page open. */
  case: (caseId: number) => `case:${caseId}`,
  /** ITP coordinators: the calls card. */
  calls: 'calls',
  /** Every socket of the ITP coordinators (admins and users): the notifications raised for all of them. */
  itpStaff: 'itp-staff',
  /** An open queue page of ITP staff or a provider (only ids travel: each page reloads what its user may see). */
  queue: 'queue',
} as const;

/** Event name → payload. */
export interface LiveEvents {
  'case.updated': { caseId: number; status: string; version: number };
  'placements.updated': { caseId: number };
  'calls.updated': { divisionId: number };
  /** A case command ran: its requests or its status may have changed (the queues reload). */
  'queue.changed': { caseId: number };
  'division.claimed': { divisionId: number; claimedByName: string };
  'division.released': { divisionId: number };
  'callback.due': { taskId: number; caseId: number; divisionId: number; callbackAt: string };
  /** A new in-app notification for the room's user (its id as a string: a bigint). */
  notification: { caseId: number; id?: string; type?: string };
  /** The user's notifications were resolved or dismissed (here or on another page of a colleague's). */
  'notifications.changed': Record<string, never>;
}
export type LiveEventName = keyof LiveEvents;

/** What travels through NOTIFY: one event for one room. */
export interface LiveMessage<E extends LiveEventName = LiveEventName> {
  room: string;
  event: E;
  data: LiveEvents[E];
}

/**
 * One event for many rooms in one NOTIFY (a notification fanned out to hundreds of users): the
 * relay emits it once to all of them. At most LIVE_ROOMS_PER_MESSAGE rooms, so that the payload
 * stays under PostgreSQL's 8,000-byte NOTIFY limit.
 */
export interface LiveBroadcast<E extends LiveEventName = LiveEventName> {
  rooms: string[];
  event: E;
  data: LiveEvents[E];
}
export const LIVE_ROOMS_PER_MESSAGE = 400;
