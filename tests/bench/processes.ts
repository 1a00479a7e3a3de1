/**
 * This checkout's stack processes (PostgreSQL with its backends, Temporal, the API, the workers):
 * their memory, and the CPU they spend while a load runs.
 */
import { execSync } from 'child_process';
import fs from 'fs';
import os from 'os';

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

/** The stack's processes of this checkout, each with its group. */
function stackProcesses(): Array<{ pid: number; group: string }> {
  const ps = execSync('ps -eo pid=,args=', { encoding: 'utf8' });
  const out: Array<{ pid: number; group: string }> = [];
  for (const line of ps.split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [pid, args] = [Number(m[1]), m[2]];
    const group = GROUPS.find(([, re]) => re.test(args))?.[0];
    if (group && ofThisCheckout(pid)) out.push({ pid, group });
  }
  return out;
}

/** Resident memory of this checkout's stack (PostgreSQL with its backends, Temporal, API, worker), in MB. */
export function stackMemory(): Record<string, { rssMb: number; pssMb: number; processes: number }> {
  const out: Record<string, { rssMb: number; pssMb: number; processes: number }> = {};
  for (const { pid, group } of stackProcesses()) {
    out[group] ??= { rssMb: 0, pssMb: 0, processes: 0 };
    out[group].rssMb += rssKb(pid) / 1024;
    out[group].pssMb += pssKb(pid) / 1024;
    out[group].processes++;
  }
  return out;
}

const TICKS_PER_SECOND = 100; // USER_HZ: /proc counts CPU time in these on Linux

/** CPU seconds (user + system) a process has used; 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: state is the 3rd field, utime the 14th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The whole machine's busy and total CPU seconds (/proc/stat), to tell how saturated it was. */
function machineSeconds(): { busy: number; total: number } {
  const [, ...v] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = v.map(Number);
  const idle = n[3] + n[4]; // idle + iowait
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

export interface CpuSpent {
  /** CPU milliseconds per completed request, by group (api, worker, postgres, temporal) and the load generator. */
  perRequestMs: Record<string, number>;
  /** Their sum: what one request costs the machine. */
  totalMs: number;
  /** The API processes that served the load (each spent at least a tenth of the API's CPU). */
  apiProcesses: number;
  /** How busy the machine was, in cores (of os.cpus().length). */
  busyCores: number;
  cores: number;
}

/**
 * Starts counting the CPU the stack and this process spend; the returned function ends the count
 * and divides it by the requests done. A backend or process that exits meanwhile loses its share
 * (pools keep their connections for the whole run, so that is rare).
 */
export function countCpu(): (requests: number) => CpuSpent {
  const procs = stackProcesses();
  const before = new Map(procs.map((p) => [p.pid, cpuSeconds(p.pid)]));
  const self = process.cpuUsage();
  const machine = machineSeconds();
  return (requests) => {
    const spent: Record<string, number> = {};
    const apiSpent: number[] = [];
    for (const { pid, group } of stackProcesses()) {
      const s = cpuSeconds(pid) - (before.get(pid) ?? 0);
      spent[group] = (spent[group] ?? 0) + s;
      if (group === 'api') apiSpent.push(s);
    }
    const own = process.cpuUsage(self);
    spent['load generator'] = (own.user + own.system) / 1e6;
    const m = machineSeconds();
    const cores = os.cpus().length;
    const perRequestMs = Object.fromEntries(Object.entries(spent).map(([g, s]) => [g, (s * 1000) / Math.max(1, requests)]));
    return {
      perRequestMs,
      totalMs: Object.values(perRequestMs).reduce((a, b) => a + b, 0),
      apiProcesses: Math.max(1, apiSpent.filter((s) => s >= 0.1 * (spent.api ?? 0)).length),
      busyCores: ((m.busy - machine.busy) / Math.max(1e-9, m.total - machine.total)) * cores,
      cores,
    };
  };
}
