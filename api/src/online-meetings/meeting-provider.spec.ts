import { jwtVerify, decodeJwt } from 'jose';
import { JitsiMeetingProvider, type MeetingParticipant } from './meeting-provider';

const provider: MeetingParticipant = { id: 7, name: 'Pat Provider', moderator: true };
const nurse: MeetingParticipant = { id: 9, name: 'Nora Nurse', moderator: false };
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe(JitsiMeetingProvider.name, () => {
  it('makes rooms of 128 random bits, lowercase and URL-safe, each different', () => {
    const sut = new JitsiMeetingProvider({ jitsiBaseUrl: 'https://meet.jit.si', jitsiAppId: null, jitsiAppSecret: null });
    const rooms = Array.from({ length: 200 }, () => sut.newRoom());
    for (const { room, url } of rooms) {
      expect(room).toMatch(/^crisis-[0-9a-f]{32}$/);
      expect(url).toBe(`https://meet.jit.si/${room}`);
    }
    expect(new Set(rooms.map((r) => r.room)).size).toBe(rooms.length);
  });

  it('without an app id and secret the join link has no token', async () => {
    const sut = new JitsiMeetingProvider({ jitsiBaseUrl: 'https://video.example.org/base/', jitsiAppId: null, jitsiAppSecret: null });
    const url = new URL(await sut.joinUrl('crisis-abc', nurse, inAnHour()));
    expect(`${url.origin}${url.pathname}`).toBe('https://video.example.org/base/crisis-abc');
    expect(url.searchParams.has('jwt')).toBe(false);
  });

  it('signs the join link with HS256 and the claims of the prosody token module; a wrong secret does not verify', async () => {
    const secret = 'a-shared-secret-of-the-jitsi-deployment';
    const sut = new JitsiMeetingProvider({ jitsiBaseUrl: 'https://video.example.org', jitsiAppId: 'crisis-app', jitsiAppSecret: secret });
    const validUntil = inAnHour();
    const url = new URL(await sut.joinUrl('crisis-0123', provider, validUntil));
    expect(url.pathname).toBe('/crisis-0123');
    const token = url.searchParams.get('jwt')!;
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(secret), { audience: 'jitsi', issuer: 'crisis-app' });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toMatchObject({ sub: 'video.example.org', room: 'crisis-0123', moderator: true, context: { user: { name: 'Pat Provider', moderator: true } } });
    expect(payload.exp).toBe(Math.floor(validUntil.getTime() / 1000));
    await expect(jwtVerify(token, new TextEncoder().encode('another-secret'), { audience: 'jitsi' })).rejects.toThrow();
    // The facility's link is no moderator's.
    const other = decodeJwt(new URL(await sut.joinUrl('crisis-0123', nurse, validUntil)).searchParams.get('jwt')!);
    expect(other).toMatchObject({ moderator: false, context: { user: { name: 'Nora Nurse', moderator: false } } });
  });
});
