import { execSync } from 'child_process';
import fs from 'fs';

/** Proportional set size (kB) of a process: shared pages split between their users, so sums are honest. */
function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
function rssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const GROUPS: Array<[string, RegExp]> = [
  ['postgres', /(^|\/)postgres(:| |$)/],
  ['temporal', /temporal server start-dev|temporal-server-[\d.]+\/server /],
  ['api', /api\/dist\/main\.js/],
  ['worker', /(api|workflows)\/dist\/worker\.js/],
];

/** This checkout (the bench runs from its root): other checkouts' stacks on the machine are not ours. */
const ROOT = process.cwd();
function ofThisCheckout(pid: number): boolean {
  try {
    const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    return cwd === ROOT || cwd.startsWith(`${ROOT}/`);
  } catch {
    return false;
  }
}

/** Resident memory of this checkout's stack (PostgreSQL with its backends, Temporal, API, worker), in MB. */
export function stackMemory(): Record<string, { rssMb: number; pssMb: number; processes: number }> {
  const ps = execSync('ps -eo pid=,args=', { encoding: 'utf8' });
  const out: Record<string, { rssMb: number; pssMb: number; processes: number }> = {};
  for (const line of ps.split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [pid, args] = [Number(m[1]), m[2]];
    const group = GROUPS.find(([, re]) => re.test(args))?.[0];
    if (!group || !ofThisCheckout(pid)) continue;
    out[group] ??= { rssMb: 0, pssMb: 0, processes: 0 };
    out[group].rssMb += rssKb(pid) / 1024;
    out[group].pssMb += pssKb(pid) / 1024;
    out[group].processes++;
  }
  return out;
}
