import fs from 'fs';
import type { TLSConfig } from '@temporalio/client';

/** Where and how to reach Temporal, read from the environment; shared by the worker and the API. */
export interface TemporalEnv {
  address: string;
  namespace: string;
  taskQueue: string;
  /** false for the local dev server; a TLS config for a real cluster (mTLS or API key). */
  tls: TLSConfig | boolean;
  apiKey?: string;
}

/**
 * TEMPORAL_ADDRESS (127.0.0.1:7233), TEMPORAL_NAMESPACE (default), TEMPORAL_TASK_QUEUE (crisis);
 * for a real cluster: TEMPORAL_API_KEY (Temporal Cloud; turns TLS on), TEMPORAL_TLS_CERT_PATH and
 * TEMPORAL_TLS_KEY_PATH (mTLS client pair, PEM; TEMPORAL_TLS_CERT / TEMPORAL_TLS_KEY are accepted
 * too), TEMPORAL_TLS_CA_PATH (private CA), TEMPORAL_TLS_SERVER_NAME, TEMPORAL_TLS=true (TLS
 * without a client certificate). Throws at start-up when a named file is missing (fail fast).
 */
export function temporalEnv(env: NodeJS.ProcessEnv = process.env): TemporalEnv {
  const certPath = env.TEMPORAL_TLS_CERT_PATH || env.TEMPORAL_TLS_CERT;
  const keyPath = env.TEMPORAL_TLS_KEY_PATH || env.TEMPORAL_TLS_KEY;
  const caPath = env.TEMPORAL_TLS_CA_PATH;
  const apiKey = env.TEMPORAL_API_KEY || undefined;
  if (!!certPath !== !!keyPath) throw new Error('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together');
  const read = (name: string, p: string) => {
    try {
      return fs.readFileSync(p);
    } catch (err) {
      throw new Error(`${name}: cannot read ${p}: ${(err as Error).message}`);
    }
  };
  let tls: TLSConfig | boolean = false;
  if (certPath || caPath || env.TEMPORAL_TLS_SERVER_NAME) {
    tls = {
      ...(certPath && keyPath
        ? { clientCertPair: { crt: read('TEMPORAL_TLS_CERT_PATH', certPath), key: read('TEMPORAL_TLS_KEY_PATH', keyPath) } }
        : {}),
      ...(caPath ? { serverRootCACertificate: read('TEMPORAL_TLS_CA_PATH', caPath) } : {}),
      ...(env.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME } : {}),
    };
  } else if (apiKey || /^(1|true|on)$/i.test(env.TEMPORAL_TLS ?? '')) {
    tls = true;
  }
  return {
    address: env.TEMPORAL_ADDRESS || '127.0.0.1:7233',
    namespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE || 'crisis',
    tls,
    apiKey,
  };
}

/** Options for `Connection.connect` (client) and `NativeConnection.connect` (worker). */
export function connectionOptions(t: TemporalEnv = temporalEnv()) {
  return { address: t.address, tls: t.tls, ...(t.apiKey ? { apiKey: t.apiKey } : {}) };
}
