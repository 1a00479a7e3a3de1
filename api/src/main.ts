/**
 * The API's entry point. API_PROCESSES=N (default 1) runs N API processes sharing PORT (Node's
 * cluster: the primary accepts connections and hands them out in turn), so the API uses more than
 * one core. Nothing the API keeps per process is a source of truth: sessions, sign-in counters,
 * claims and timers live in PostgreSQL or Temporal, and live events reach every process's sockets
 * through PostgreSQL (live/pg-io.adapter.ts).
 */
import cluster from 'cluster';
import { apiProcessesOf, runApiCluster } from './api-cluster';

const processes = apiProcessesOf(process.env);
if (processes > 1 && cluster.isPrimary) {
  runApiCluster(processes);
} else {
  // The server module (Nest and every domain) loads only where it runs: the primary stays small.
  import('./server')
    .then(({ startServer }) => startServer())
    .catch((err) => {
      console.error('API failed to start:', err);
      process.exit(1);
    });
}
