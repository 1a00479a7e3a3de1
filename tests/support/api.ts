/** Small helpers for calling the running API from tests. */
export const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3100';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The parsed x-error header of a failed call (spec 03 §8). */
  error: { code: string; defaultMessage: string; payload?: unknown } | null;
}

export async function api<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const res = await fetch(API_URL + path, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  const header = res.headers.get('x-error');
  return { status: res.status, headers: res.headers, body, error: header ? JSON.parse(header) : null };
}

/** Waits until `check` returns a truthy value, polling; fails with `what` after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
