import { io, type Socket } from 'socket.io-client';
import { UserType } from '@crisis/forms';
import { API_URL, api } from '../support/api';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';
import { createTestUser, TEST_USER_PASSWORD, type TestUser } from '../support/users';

/**
 * The live channel (socket.io at /socket.io): the API's access token and the same checks as the
 * API's guards — the token not revoked, the user active and not locked, the client address on her
 * organization's IP allow-list (the connection's address, or what the trusted proxy 127.0.0.1
 * names in X-Forwarded-For) — at connection, on every room join, and again while connected:
 * a user who is deactivated or whose token is revoked loses her sockets within LIVE_RECHECK_SECONDS
 * (default 5).
 */
describe('live channel', () => {
  const RECHECK_MS = Number(process.env.LIVE_RECHECK_SECONDS ?? 5) * 1000;
  const sockets: Socket[] = [];
  let itpAdmin: string;
  let itpId: number;
  let anyCaseId: number;

  beforeAll(async () => {
    itpAdmin = (await signInAs(UserType.ItpAdmin)).accessToken;
    itpId = (await api('GET', '/api/itp-organization', { token: itpAdmin })).body.id;
    anyCaseId = (await db.query('SELECT min(id) AS id FROM cases')).rows[0].id;
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await db.end();
  });

  function connect(token?: string, o: { forwardedFor?: string; localAddress?: string } = {}): Socket {
    const s = io(API_URL, {
      path: '/socket.io',
      auth: token ? { token } : {},
      transports: ['websocket'],
      reconnection: false,
      ...(o.forwardedFor ? { extraHeaders: { 'x-forwarded-for': o.forwardedFor } } : {}),
      ...(o.localAddress ? { localAddress: o.localAddress } : {}),
    } as Parameters<typeof io>[1]);
    sockets.push(s);
    return s;
  }

  /** 'ready' when the server accepted the socket, else how it ended. */
  function outcome(socket: Socket, timeoutMs = 10_000): Promise<string> {
    return new Promise((resolve) => {
      socket.on('ready', () => resolve('ready'));
      socket.on('unauthorized', () => resolve('unauthorized'));
      socket.on('disconnect', () => resolve('disconnected'));
      socket.on('connect_error', (e) => resolve(`connect_error ${e.message}`));
      setTimeout(() => resolve('timeout'), timeoutMs);
    });
  }

  /** Resolves with the reason when the server drops the socket; 'still connected' after `ms`. */
  function dropped(socket: Socket, ms: number): Promise<string> {
    return new Promise((resolve) => {
      if (!socket.connected) return resolve('not connected');
      socket.on('disconnect', (reason) => resolve(reason));
      setTimeout(() => resolve('still connected'), ms);
    });
  }

  /** Resolves once the socket is closed (the server disconnects right after 'unauthorized'). */
  const closed = (socket: Socket): Promise<boolean> =>
    new Promise((resolve) => {
      if (!socket.connected) return resolve(true);
      socket.on('disconnect', () => resolve(true));
      setTimeout(() => resolve(!socket.connected), 5000);
    });

  const join = (socket: Socket, caseId: number) =>
    socket.timeout(5000).emitWithAck('case.join', { caseId }).catch(() => ({ joined: false, noAnswer: true })) as Promise<{ joined: boolean }>;

  /** Changes the user's password: every token issued before is revoked (tokens compare at second precision). */
  async function revokeTokens(token: string) {
    await new Promise((r) => setTimeout(r, 2100));
    const newPassword = `Fresh-${Date.now()}Aa1`;
    const res = await api('PUT', '/api/user/password', {
      token,
      body: { currentPassword: TEST_USER_PASSWORD, newPassword, confirmPassword: newPassword },
    });
    expect(res.status).toBe(204);
    expect((await api('GET', '/api/user/context', { token })).status).toBe(403);
  }

  it('joins a signed-in user to their room', async () => {
    const { accessToken } = await signInAs(UserType.ItpUser);
    const socket = connect(accessToken);
    expect(await outcome(socket)).toBe('ready');
  });

  it.each([
    ['no token', undefined],
    ['a forged token', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
  ])('refuses %s', async (_what, token) => {
    const socket = connect(token);
    expect(['unauthorized', 'disconnected']).toContain(await outcome(socket));
  });

  it('refuses a revoked token at connection', async () => {
    const user = await createTestUser(UserType.ItpUser, { label: 'revoked' });
    const token = await user.signIn();
    await revokeTokens(token);
    const socket = connect(token);
    expect(['unauthorized', 'disconnected']).toContain(await outcome(socket));
    expect(await closed(socket)).toBe(true);
  });

  it('refuses a locked user at connection', async () => {
    const user = await createTestUser(UserType.ItpUser, { label: 'locked' });
    const token = await user.signIn();
    await db.query('UPDATE users SET password_locked_out = true WHERE id = $1', [user.id]);
    const socket = connect(token);
    expect(['unauthorized', 'disconnected']).toContain(await outcome(socket));
  });

  it('refuses a room join once the token is revoked, and drops the socket', async () => {
    const user = await createTestUser(UserType.ItpUser, { label: 'join' });
    const token = await user.signIn();
    const socket = connect(token);
    expect(await outcome(socket)).toBe('ready');
    expect(await join(socket, anyCaseId)).toMatchObject({ joined: true });

    await revokeTokens(token);
    const gone = dropped(socket, 3000);
    expect((await join(socket, anyCaseId)).joined).toBe(false);
    expect(await gone).toBe('io server disconnect');
  });

  it('drops the sockets of a user who is deactivated, within the re-check interval', async () => {
    const user = await createTestUser(UserType.ItpUser, { label: 'deactivated' });
    const socket = connect(await user.signIn());
    expect(await outcome(socket)).toBe('ready');
    const gone = dropped(socket, RECHECK_MS + 8000);
    const off = await api('POST', '/api/user/deactivate', { token: itpAdmin, body: [user.id] });
    expect(off.status).toBe(200);
    expect(await gone).toBe('io server disconnect');
  });

  describe("the organization's IP allow-list", () => {
    let facilityId: number;
    let user: TestUser;
    let token: string;
    const settings = () => `/api/itp-organization/${itpId}/update-ip-whitelist-settings`;
    const setList = async (ipAddresses: string, enabled = true) =>
      expect((await api('PUT', settings(), { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: enabled, ipAddresses } })).status).toBe(200);

    beforeAll(async () => {
      const { rows } = await db.query(
        `INSERT INTO facilities (name, street_line, city, state, zip_code, latitude, longitude)
         VALUES ($1, '1 Test Way', 'Testville', 'WA', '98001', 47.3, -122.2) RETURNING id`,
        [`Live channel test ${Date.now()}`],
      );
      facilityId = rows[0].id;
      user = await createTestUser(UserType.FacilityAdmin, { facilityId, label: 'iplist' });
      token = await user.signIn();
      await setList('10.9.8.0/24');
    });
    afterAll(() => api('PUT', settings(), { token: itpAdmin, body: { facilityId, ipWhiteListEnabled: false, ipAddresses: null } }));

    it('accepts an address on the list, as the trusted proxy names it', async () => {
      expect(await outcome(connect(token, { forwardedFor: '10.9.8.7' }))).toBe('ready');
    });

    it('refuses an address off the list', async () => {
      expect(['unauthorized', 'disconnected']).toContain(await outcome(connect(token)));
      expect(['unauthorized', 'disconnected']).toContain(await outcome(connect(token, { forwardedFor: '192.0.2.10' })));
    });

    it('does not believe X-Forwarded-For from a peer that is not a trusted proxy', async () => {
      expect(['unauthorized', 'disconnected']).toContain(await outcome(connect(token, { forwardedFor: '10.9.8.7', localAddress: '127.0.0.2' })));
    });

    it('drops a connected socket whose address leaves the list', async () => {
      const socket = connect(token, { forwardedFor: '10.9.8.7' });
      expect(await outcome(socket)).toBe('ready');
      const gone = dropped(socket, RECHECK_MS + 8000);
      await setList('10.9.7.0/24');
      try {
        expect(await gone).toBe('io server disconnect');
      } finally {
        await setList('10.9.8.0/24');
      }
    });
  });
});
