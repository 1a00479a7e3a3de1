import { writeFileSync } from 'fs';

/**
 * What a battery reports (scripts/battery.mjs): checks that pass or fail, and the figures the
 * issue asks for (inputs tried, 5xx answers, writes acknowledged and found, p95…).
 */
export interface BatteryCheck {
  name: string;
  ok: boolean;
  detail?: string;
}
export interface BatteryReport {
  name: string;
  checks: BatteryCheck[];
  figures: Record<string, number | string | Record<string, number | string>>;
}

/** The sample `npm test` runs, or the full battery (`npm run battery`). */
export const QUICK = process.env.BATTERY_QUICK === '1';
export const API_URL = process.env.API_URL ?? 'http://127.0.0.1:3300';

/** Writes the report where scripts/battery.mjs reads it and sets the exit code. */
export function writeReport(report: BatteryReport): void {
  const file = process.env.BATTERY_REPORT;
  if (file) writeFileSync(file, JSON.stringify(report, null, 1));
  else console.log(JSON.stringify(report, null, 1));
  if (report.checks.some((c) => !c.ok)) process.exitCode = 1;
}

/** The stack's processes (scripts/lib/procs.mjs pid file), by name: api, worker, temporal, postgres. */
export function stackPids(): Record<string, number> {
  const file = process.env.BATTERY_PIDS;
  if (!file) throw new Error('BATTERY_PIDS is not set: run the battery through scripts/battery.mjs');
  const { children } = JSON.parse(require('fs').readFileSync(file, 'utf8')) as { children: { pid: number; name: string }[] };
  return Object.fromEntries(children.map((c) => [c.name, c.pid]));
}
