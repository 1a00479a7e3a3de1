/** A Temporal client on the server the test runner started (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE). */
import { Client, Connection } from '@temporalio/client';
import { connectionOptions, temporalEnv } from '@crisis/workflows';

/** Runs `fn` with a client of its own, closing the connection afterwards. */
export async function withTemporal<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const env = temporalEnv();
  const connection = await Connection.connect(connectionOptions(env));
  try {
    return await fn(new Client({ connection, namespace: env.namespace }));
  } finally {
    await connection.close();
  }
}
