import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { config } from '../config';

/** Fastify's trust function for TRUSTED_PROXIES (main.ts passes the same list as `trustProxy`). */
const trusted = config.trustedProxies.length ? proxyAddr.compile(config.trustedProxies) : null;

/**
 * The client address of a raw HTTP request (a socket.io handshake) by the rule Fastify applies to
 * `request.ip`: the connection's address, or — only when the connection comes from a trusted
 * proxy — the furthest address in X-Forwarded-For reached through trusted proxies. A client's own
 * X-Forwarded-For is never believed.
 */
export function clientAddressOf(req: IncomingMessage): string {
  if (!trusted) return req.socket?.remoteAddress ?? '';
  const chain = proxyAddr.all(req, trusted);
  return chain[chain.length - 1] ?? '';
}
