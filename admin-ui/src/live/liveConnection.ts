import { io, type Socket } from 'socket.io-client';
import { userManager } from '../auth/userManager';

let socket: Socket | undefined;
let token: string | null = null;
let renewHooked = false;
/** Who waits for the socket (a hook mounted before sign-in finished): told when it starts or stops. */
const watchers = new Set<(socket: Socket | undefined) => void>();

/** Calls back with the current socket now and with each new one; returns the unsubscribe. */
export function watchLiveSocket(cb: (socket: Socket | undefined) => void): () => void {
  watchers.add(cb);
  cb(socket);
  return () => void watchers.delete(cb);
}

/**
 * The live channel (socket.io at /socket.io, authenticated with the access token). After a silent
 * renew the socket reconnects with the new token. Screens listen through useLiveEvent.
 */
export function startLiveConnection(accessToken: string): Socket {
  token = accessToken;
  if (socket) return socket;
  socket = io({
    path: '/socket.io',
    // A function, so every (re)connection sends the current token.
    auth: (cb) => cb({ token }),
    transports: ['websocket', 'polling'],
  });
  socket.on('connect', () => console.info('[live] connected', socket?.id));
  socket.on('disconnect', (reason) => console.info('[live] disconnected', reason));
  socket.on('connect_error', (err) => console.warn('[live] connection error', err.message));
  socket.onAny((event, ...args) => console.info('[live]', event, ...args));
  if (!renewHooked) {
    renewHooked = true;
    userManager().events.addUserLoaded((user) => {
      if (!socket || user.access_token === token) return;
      token = user.access_token;
      socket.disconnect().connect();
    });
  }
  const started = socket;
  watchers.forEach((cb) => cb(started));
  return socket;
}

export function stopLiveConnection() {
  socket?.disconnect();
  socket = undefined;
  token = null;
  watchers.forEach((cb) => cb(undefined));
}

export const liveSocket = () => socket;
