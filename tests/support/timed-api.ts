/**
 * The API as a client under load or faults sees it: every call has a deadline, a dropped
 * connection is an answer too (status 0), and each answer says how long it took. Used by the
 * batteries (tests/battery), where the API may be killed in the middle of a request.
 */
import { API_URL } from './api';

export interface TimedResponse<T = any> {
  /** HTTP status, or 0 when no answer came (connection refused or reset, deadline passed). */
  status: number;
  body: T;
  /** The coded error's code (spec 03 §8), or the network failure's (ECONNREFUSED, TimeoutError…). */
  code: string | null;
  ms: number;
}

export async function timedApi<T = any>(
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<TimedResponse<T>> {
  const started = performance.now();
  try {
    const res = await fetch(API_URL + path, {
      method,
      headers: {
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...opts.headers,
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    const code = body && typeof body === 'object' && typeof body.code === 'string' ? body.code : null;
    return { status: res.status, body, code, ms: performance.now() - started };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return { status: 0, body: null as T, code: e.cause?.code ?? e.name ?? 'network', ms: performance.now() - started };
  }
}

export const isOk = (r: TimedResponse) => r.status >= 200 && r.status < 300;

/** The p-th percentile (0–100) of `values`, in their unit; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
