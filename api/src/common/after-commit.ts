import { Logger } from '@nestjs/common';
import { Sequelize, type Transaction } from 'sequelize';

const log = new Logger('after-commit');

/** The Sequelize transaction of the current request (the audit interceptor's CLS one), if any. */
export function currentTransaction(): Transaction | undefined {
  const t = (Sequelize as unknown as { _cls?: { get(key: string): Transaction | undefined } })._cls?.get('transaction');
  return t && !(t as unknown as { finished?: string }).finished ? t : undefined;
}

/**
 * Runs `effect` once the current transaction has committed (never when it rolls back), or at once
 * outside a transaction. For side effects other processes must not see before the data they
 * refer to exists: starting or signalling a workflow, sending a live event.
 *
 * Sequelize awaits after-commit hooks inside `commit()`, so the response still waits for the
 * effect; but the data is committed by then, so a failing effect is logged and swallowed rather
 * than turned into an error response for a change that did happen.
 */
export async function afterCommit(what: string, effect: () => Promise<unknown>): Promise<void> {
  const run = async () => {
    try {
      await effect();
    } catch (err) {
      log.warn(`${what} failed after commit: ${(err as Error)?.message ?? err}`);
    }
  };
  const t = currentTransaction();
  if (t) t.afterCommit(run);
  else await run();
}
