import { TOKEN_REVOKED_HEADER } from '@crisis/forms/core';
import { getAccessToken, renewSilently, signIn } from '../auth/userManager';
import { rememberCodedError } from '../notifications/codedErrorRegistry';
import { codedErrorFrom } from './codedError';

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
  json: any;
}

export interface HttpOptions extends Omit<RequestInit, 'headers'> {
  headers?: HeadersInit;
  /** Skip the bearer token (public endpoints). */
  anonymous?: boolean;
}

async function send(url: string, options: HttpOptions, token: string | null): Promise<Response> {
  const { anonymous: _anonymous, headers: given, ...init } = options;
  const headers = new Headers(given);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (typeof init.body === 'string' && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return fetch(url, { ...init, headers });
}

/**
 * fetchJson-compatible client for ra-data-simple-rest and our own calls: adds the bearer token;
 * a 403 with the revoked-token header renews the token silently once and retries once; any
 * other failure becomes a CodedHttpError (spec 03 §8).
 */
export async function httpClient(url: string, options: HttpOptions = {}): Promise<HttpResponse> {
  let token = options.anonymous ? null : await getAccessToken();
  let res = await send(url, options, token);
  if (res.status === 403 && res.headers.get(TOKEN_REVOKED_HEADER) === 'true' && !options.anonymous) {
    const renewed = await renewSilently();
    token = renewed?.access_token ?? null;
    if (token) res = await send(url, options, token);
    // The refresh token was revoked too (password changed, user disabled): sign in again.
    else void signIn().catch(() => undefined);
  }
  const body = await res.text();
  if (res.status < 200 || res.status >= 300) {
    const error = codedErrorFrom(res.status, res.headers, body);
    rememberCodedError(error);
    throw error;
  }
  let json: any;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = body;
  }
  return { status: res.status, headers: res.headers, body, json };
}

/** Shorthands for our own calls (not through the data provider). */
export const api = {
  get: <T>(url: string) => httpClient(url).then((r) => r.json as T),
  put: <T>(url: string, data: unknown) => httpClient(url, { method: 'PUT', body: JSON.stringify(data) }).then((r) => r.json as T),
  post: <T>(url: string, data: unknown) => httpClient(url, { method: 'POST', body: JSON.stringify(data) }).then((r) => r.json as T),
};
