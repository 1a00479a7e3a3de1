import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { LiveRoom as Rooms, type LiveEventName } from '@crisis/forms/core';
import { watchLiveSocket } from './liveConnection';

/**
 * A room of the live channel: how to join and leave it and which events are its own. The server
 * puts every user in his own rooms on connection (the calls room of the ITP staff, for instance):
 * those need no join, `null` stands for them.
 */
export interface LiveRoom {
  key: string;
  join: [event: string, payload: unknown];
  leave: [event: string, payload: unknown];
  /** Whether an event's payload belongs to this room. */
  matches(data: unknown): boolean;
}

/** The room of one case (the gateway checks the user may open the case). */
export const caseRoom = (caseId: number): LiveRoom | undefined =>
  Number.isInteger(caseId)
    ? {
        key: Rooms.case(caseId),
        join: ['case.join', { caseId }],
        leave: ['case.leave', { caseId }],
        matches: (data) => Number((data as { caseId?: unknown } | null)?.caseId) === caseId,
      }
    : undefined;

/** The request queues' room, joined while a queue page is open (the gateway checks the role). */
export const queueRoom: LiveRoom = {
  key: Rooms.queue,
  join: ['queue.join', {}],
  leave: ['queue.leave', {}],
  matches: () => true,
};

/** How many mounted listeners want each room, so the last one out leaves it. */
const members = new Map<string, number>();

/** Joins the room on this socket, again after every reconnection ('ready' follows the server's authentication). */
function enter(socket: Socket, room: LiveRoom): () => void {
  const join = () => socket.emit(...room.join);
  members.set(room.key, (members.get(room.key) ?? 0) + 1);
  socket.on('ready', join);
  if (socket.connected) join();
  return () => {
    socket.off('ready', join);
    const left = (members.get(room.key) ?? 1) - 1;
    if (left > 0) members.set(room.key, left);
    else {
      members.delete(room.key);
      if (socket.connected) socket.emit(...room.leave);
    }
  };
}

/**
 * Calls `handler` on each `event` (one or several names) of `room` while the component is mounted,
 * on the live socket as soon as it exists (it may start after the component mounts), joining the
 * room if it needs joining; `room` undefined means not now (nothing is listened to).
 */
export function useLiveEvent(room: LiveRoom | null | undefined, event: LiveEventName | LiveEventName[], handler: (data: unknown) => void) {
  const current = useRef(handler);
  current.current = handler;
  const events = ([] as LiveEventName[]).concat(event);
  const eventsKey = events.join(',');
  const roomKey = room === undefined ? undefined : room?.key ?? '';
  useEffect(() => {
    if (roomKey === undefined) return;
    let detach: (() => void) | undefined;
    const names = eventsKey.split(',');
    const fire = (data: unknown) => {
      if (!room || room.matches(data)) current.current(data);
    };
    const unwatch = watchLiveSocket((socket) => {
      detach?.();
      detach = undefined;
      if (!socket) return;
      const leave = room ? enter(socket, room) : undefined;
      names.forEach((n) => socket.on(n, fire));
      detach = () => {
        names.forEach((n) => socket.off(n, fire));
        leave?.();
      };
    });
    return () => {
      unwatch();
      detach?.();
    };
    // The room is identified by its key, the events by their names.
  }, [roomKey, eventsKey]);
}
