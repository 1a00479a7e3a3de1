import type { Sequelize } from 'sequelize-typescript';
import { select } from '../reference-sql';

/**
 * How many insurances of patients use a payer — the hook behind the payer in-use confirmations
 * (spec 03 §4 Payer, §8 INV.*.PAYER.USED.IN.PATIENTS). Counts patient_insurances rows (index
 * patient_insurances_payer_idx).
 */
export async function payerUsageCount(sequelize: Sequelize, payerId: number): Promise<number> {
  const [{ n }] = await select<{ n: number }>(sequelize, 'SELECT count(*)::int AS n FROM patient_insurances WHERE payer_id = $1', [payerId]);
  return n;
}
