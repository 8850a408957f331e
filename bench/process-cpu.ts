import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time per process group, read from /proc (Linux): a bench takes a
 * snapshot before and after a run and prints what each part of the fleet
 * spent per request, so "where the machine's CPU goes" is measured, not
 * guessed. Groups are the bench's own children (by pid) and the machine's
 * servers (by command name). Elsewhere than Linux it reports nothing.
 */
const TICKS_PER_SECOND = 100;

export interface CpuGroups {
  /** Named child processes of the bench. */
  pids: Record<string, number | undefined>;
  /** Servers found by their command name (`comm`): every process of that name counts. */
  commands: string[];
}

export type CpuSnapshot = Map<string, number>;

function ticksOf(pid: string): { comm: string; ticks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat, 11-14 after the comm. A server's
    // exited children (Postgres' backends) are in its cutime/cstime once reaped.
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    return { comm, ticks };
  } catch {
    return undefined;
  }
}

/** Milliseconds of CPU each group has used so far. */
export function cpuSnapshot(groups: CpuGroups): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  const add = (name: string, ticks: number) =>
    snapshot.set(name, (snapshot.get(name) ?? 0) + (ticks * 1000) / TICKS_PER_SECOND);
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return snapshot;
  }
  const byPid = new Map(
    Object.entries(groups.pids)
      .filter(([, pid]) => pid !== undefined)
      .map(([name, pid]) => [String(pid), name]),
  );
  for (const pid of entries) {
    const named = byPid.get(pid);
    if (!named && groups.commands.length === 0) {
      continue;
    }
    const stat = ticksOf(pid);
    if (!stat) {
      continue;
    }
    const group = named ?? groups.commands.find((command) => stat.comm === command);
    if (group) {
      add(group, stat.ticks);
    }
  }
  const self = process.cpuUsage();
  snapshot.set('bench client', (self.user + self.system) / 1000);
  return snapshot;
}

/** `gateway 1.62 · budget 0.91 · ... · all 3.30` ms of CPU per request between two snapshots. */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): string {
  if (requests <= 0 || after.size === 0) {
    return 'no CPU figures';
  }
  let total = 0;
  const parts: string[] = [];
  for (const [name, ms] of after) {
    const spent = ms - (before.get(name) ?? 0);
    total += spent;
    parts.push(`${name} ${(spent / requests).toFixed(2)}`);
  }
  return `CPU ms per request: ${parts.join(' · ')} · all ${(total / requests).toFixed(2)}`;
}

/** The machine's CPU time so far, from /proc/stat's first line (all CPUs, in ticks). */
interface MachineTicks {
  busy: number;
  idle: number;
  steal: number;
}

function machineTicks(): MachineTicks | undefined {
  try {
    const [line] = readFileSync('/proc/stat', 'utf8').split('\n', 1);
    // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is in user).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
  } catch {
    return undefined;
  }
}

/**
 * How busy the whole machine was over a window, and how much of its CPU time
 * the hypervisor took for other guests (steal): a run on a slow hour says so
 * itself. Call to start; the returned function ends the window and describes it.
 */
export function machineLoad(): () => string {
  const start = machineTicks();
  return () => {
    const end = machineTicks();
    if (!start || !end) {
      return 'no /proc/stat';
    }
    const busy = end.busy - start.busy;
    const steal = end.steal - start.steal;
    const total = busy + (end.idle - start.idle) + steal;
    if (total <= 0) {
      return 'no /proc/stat';
    }
    const share = (ticks: number) => `${((100 * ticks) / total).toFixed(1)} %`;
    return `busy ${share(busy)}, steal ${share(steal)} of all CPUs' time`;
  };
}

/** The fixed work speedProbe times: JSON round trips of a small order-like object. */
function probeWork(): number {
  const order = { id: 'probe', price: '101.25', size: '0.5', levels: [1, 2, 3, 4, 5, 6, 7, 8] };
  let checksum = 0;
  for (let i = 0; i < 50_000; i += 1) {
    const copy = JSON.parse(JSON.stringify({ ...order, sequence: i })) as typeof order;
    checksum += copy.levels.length;
  }
  return checksum;
}

/**
 * How fast one CPU of this machine runs now: the best of three timings of a
 * fixed piece of work, in whole ms (lower is faster). Busy and steal shares cannot
 * tell a slow host (on 2026-11-29 the worker's figures were three times the
 * quiet hour's with the machine 36 % busy and no steal); this can, so runs on
 * different hours compare. It blocks the thread: call it outside a window.
 */
export function speedProbe(): number {
  let best = Infinity;
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    probeWork();
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best);
}

/** Two speedProbe timings, as a bench's report line ends. */
export const describeSpeed = (before: number, after: number): string =>
  `a fixed workload in ${before} ms before, ${after} ms after (lower is faster)`;
