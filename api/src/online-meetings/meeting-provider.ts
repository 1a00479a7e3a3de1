import { randomBytes } from 'crypto';
import { SignJWT } from 'jose';
import type { MeetingConfig } from '../config';

/** Who a join link is for: the request's provider is the meeting's moderator. */
export interface MeetingParticipant {
  id: number;
  name: string;
  email?: string | null;
  moderator: boolean;
}

/**
 * The meeting-provider port (spec 01 §4 "Video meeting"): rooms and their join links. A room is
 * made once per meeting and stored; a join link is made per participant when asked for, so no
 * signed token is ever stored.
 */
export interface MeetingProvider {
  /** A new room nobody can guess, and its link without a token. */
  newRoom(): { room: string; url: string };
  /** The link `participant` joins `room` with, valid until `validUntil`. */
  joinUrl(room: string, participant: MeetingParticipant, validUntil: Date): Promise<string>;
}

export const MEETING_PROVIDER = Symbol('MEETING_PROVIDER');

/** 128 bits of randomness as lowercase hex: URL-safe, and Jitsi's lower-casing of room names takes nothing from it. */
export const ROOM_RANDOM_BYTES = 16;

/**
 * Jitsi Meet (meet.jit.si or a deployment of one's own). With an app id and secret the join link
 * carries `?jwt=`: an HS256 token with the claims of Jitsi's prosody token module (aud 'jitsi',
 * iss the app id, sub the deployment's domain, room, context.user, moderator, exp).
 */
export class JitsiMeetingProvider implements MeetingProvider {
  private readonly base: URL;

  constructor(private readonly config: Pick<MeetingConfig, 'jitsiBaseUrl' | 'jitsiAppId' | 'jitsiAppSecret'>) {
    this.base = new URL(`${config.jitsiBaseUrl.replace(/\/+$/, '')}/`);
  }

  newRoom() {
    const room = `crisis-${randomBytes(ROOM_RANDOM_BYTES).toString('hex')}`;
    return { room, url: new URL(room, this.base).toString() };
  }

  async joinUrl(room: string, participant: MeetingParticipant, validUntil: Date): Promise<string> {
    const url = new URL(encodeURIComponent(room), this.base);
    const { jitsiAppId: appId, jitsiAppSecret: secret } = this.config;
    if (appId && secret) {
      const moderator = participant.moderator;
      const token = await new SignJWT({
        room,
        moderator,
        context: { user: { id: String(participant.id), name: participant.name, ...(participant.email ? { email: participant.email } : {}), moderator } },
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setAudience('jitsi')
        .setIssuer(appId)
        .setSubject(this.base.hostname)
        .setIssuedAt()
        .setNotBefore(Math.floor(Date.now() / 1000) - 30)
        .setExpirationTime(Math.floor(validUntil.getTime() / 1000))
        .sign(new TextEncoder().encode(secret));
      url.searchParams.set('jwt', token);
    }
    // The participant's name shown in the room (Jitsi reads it from the URL fragment).
    url.hash = `userInfo.displayName=${encodeURIComponent(JSON.stringify(participant.name))}`;
    return url.toString();
  }
}
