import type { Sequelize } from 'sequelize-typescript';
import { select } from '../reference-sql';

/**
 * How many patients use a payer — the hook behind the payer in-use confirmations (spec 03 §4
 * Payer, §8 INV.*.PAYER.USED.IN.PATIENTS). Patients (and their insurances) are not built yet:
 * when a `patient_insurances (payer_id, ...)` table exists this counts its rows, otherwise a
 * payer is never in use. Replace the body once the patients slice owns that table.
 */
export async function payerUsageCount(sequelize: Sequelize, payerId: number): Promise<number> {
  const [{ present }] = await select<{ present: boolean }>(
    sequelize,
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                     WHERE table_schema = current_schema() AND table_name = 'patient_insurances' AND column_name = 'payer_id') AS present`,
  );
  if (!present) return 0;
  const [{ n }] = await select<{ n: number }>(sequelize, 'SELECT count(*)::int AS n FROM patient_insurances WHERE payer_id = $1', [payerId]);
  return n;
}
