import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Runs a command and returns its stdout; throws with its stderr when it fails. */
export function run(command: string, args: string[], input?: string): string {
  const result = spawnSync(command, args, { encoding: 'utf8', input, timeout: 30_000 });
  if (result.error) {
    throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status ?? result.signal}: ${result.stderr.trim()}`,
    );
  }
  return result.stdout;
}

/** Like run, but a failure is an answer (false), not an exception. */
export function attempt(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

/** The command's path on PATH (or one of `fallbacks`), or undefined. */
export function which(command: string, fallbacks: string[] = []): string | undefined {
  const dirs = (process.env['PATH'] ?? '').split(delimiter).filter(Boolean);
  return [...dirs.map((dir) => join(dir, command)), ...fallbacks].find((path) => existsSync(path));
}

export function userIds(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export interface SpawnSpec {
  /** The command line as run inside the host's namespace (argv[0] resolved on PATH). */
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** stdout and stderr, appended (a revive keeps the earlier run's lines). */
  out: string;
}

/**
 * Starts `argv` inside network namespace `ns` (`ip netns exec`, which execs
 * it: the pid is the process's own), detached in its own process group, so it
 * outlives the command that started it.
 */
export function spawnInNamespace(ns: string, spec: SpawnSpec): number {
  const out = openSync(spec.out, 'a');
  try {
    const child = spawn('ip', ['netns', 'exec', ns, ...spec.argv], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', out, out],
    });
    child.on('error', () => undefined);
    child.unref();
    if (!child.pid) {
      throw new Error(`could not start ${spec.argv.join(' ')} in ${ns}`);
    }
    return child.pid;
  } finally {
    closeSync(out);
  }
}

/** True while process `pid` runs (a zombie, dead but not reaped, does not). */
export function alive(pid: number | undefined): boolean {
  if (!pid) {
    return false;
  }
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The process's command line (empty when it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

export function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  }
}

/** Thrown by a waitFor check that can never hold now (the process it waits for exited). */
export class WaitAborted extends Error {}

/**
 * Polls `check` every `everyMs` until it holds; throws naming `what` after
 * `timeoutMs`, or at once when the check throws WaitAborted.
 */
export async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      if (await check()) {
        return;
      }
      last = '';
    } catch (error) {
      if (error instanceof WaitAborted) {
        throw new Error(`${what}: ${error.message}`);
      }
      last = `: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) {
      throw new Error(`${what}: not after ${timeoutMs} ms${last}`);
    }
    await sleep(everyMs);
  }
}

/** GET `url` as JSON, or undefined when it does not answer 2xx within `timeoutMs`. */
export async function getJson<T>(url: string, timeoutMs = 2_000): Promise<T | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? ((await response.json()) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** The HTTP status of GET `url` (0: no answer within `timeoutMs`). */
export async function httpStatus(url: string, timeoutMs = 2_000): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
