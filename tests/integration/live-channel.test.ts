import { io, type Socket } from 'socket.io-client';
import { UserType } from '@crisis/forms';
import { API_URL } from '../support/api';
import { signInAs } from '../support/oidc-client';

/** The live channel (socket.io at /socket.io) accepts the API's access token and nothing else. */
describe('live channel', () => {
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  function connect(token?: string): Socket {
    const s = io(API_URL, { path: '/socket.io', auth: token ? { token } : {}, transports: ['websocket'], reconnection: false });
    sockets.push(s);
    return s;
  }

  it('joins a signed-in user to their room', async () => {
    const { accessToken } = await signInAs(UserType.ItpUser);
    const socket = connect(accessToken);
    const ready = await new Promise<{ userId: number }>((resolve, reject) => {
      socket.on('ready', resolve);
      socket.on('connect_error', reject);
      setTimeout(() => reject(new Error('no ready event')), 10_000);
    });
    expect(ready.userId).toBeGreaterThan(0);
  });

  it.each([
    ['no token', undefined],
    ['a forged token', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
  ])('refuses %s', async (_what, token) => {
    const socket = connect(token);
    const outcome = await new Promise<string>((resolve) => {
      socket.on('ready', () => resolve('ready'));
      socket.on('unauthorized', () => resolve('unauthorized'));
      socket.on('disconnect', () => resolve('disconnected'));
      setTimeout(() => resolve('timeout'), 10_000);
    });
    expect(['unauthorized', 'disconnected']).toContain(outcome);
  });
});
