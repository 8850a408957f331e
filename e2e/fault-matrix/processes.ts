import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer } from 'node:net';

/** Every child this spec process started and has not seen exit: killed on exit whatever happens. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) {
    return;
  }
  exitHookInstalled = true;
  // Last resort (jest killed, an afterAll that never ran): no orphan postgres, nats or redis.
  process.once('exit', () => {
    for (const child of live) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
    }
  });
}

/**
 * Ports handed to the processes a spec spawns come from below the kernel's
 * ephemeral range (32768-60999 here): a port the OS picked from that range
 * and released can be taken by any outgoing connection before the process
 * binds it (CI saw a notifier's metrics port go that way, EADDRINUSE).
 */
const SPAWN_PORTS = { from: 20_000, to: 32_000 };

/** A TCP port free on every interface now, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = SPAWN_PORTS.from + Math.floor(Math.random() * (SPAWN_PORTS.to - SPAWN_PORTS.from));
    if (await bindable(port)) {
      return port;
    }
  }
  throw new Error(`no free port in ${SPAWN_PORTS.from}-${SPAWN_PORTS.to} after 100 tries`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

export const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** stdout and stderr go here (appended, so a restart keeps the earlier run's lines). */
  logFile: string;
  uid?: number;
  gid?: number;
}

/**
 * One child process that a fault may stop and start again with the same
 * command line (same port, same data directory).
 */
export class ManagedProcess {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  /** How the last run ended, for error messages. */
  lastExit = '';

  constructor(readonly spec: ProcessSpec) {}

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): this {
    if (this.running) {
      throw new Error(`${this.name} is already running`);
    }
    installExitHook();
    const log = openSync(this.spec.logFile, 'a');
    const child = spawn(this.spec.command, this.spec.args, {
      cwd: this.spec.cwd,
      env: { PATH: process.env['PATH'] ?? '', ...this.spec.env },
      stdio: ['ignore', log, log],
      uid: this.spec.uid,
      gid: this.spec.gid,
    });
    closeSync(log);
    live.add(child);
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        live.delete(child);
        this.lastExit = `code ${code} signal ${signal}`;
        resolve();
      }),
    );
    child.once('error', (error) => {
      this.lastExit = `spawn error ${error.message}`;
    });
    return this;
  }

  /** Sends `signal` and waits for the process to exit (SIGKILL after `graceMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000): Promise<void> {
    if (!this.running) {
      return;
    }
    this.child!.kill(signal);
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits until `ready` holds, failing early if the process exits. */
  async waitReady(ready: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastError = '';
    while (Date.now() < deadline) {
      if (!this.running) {
        throw new Error(
          `${this.name} exited before it was ready (${this.lastExit}); see ${this.spec.logFile}`,
        );
      }
      try {
        if (await ready()) {
          return;
        }
      } catch (error) {
        lastError = String(error);
      }
      await delay(50);
    }
    throw new Error(
      `${this.name} not ready after ${timeoutMs} ms ${lastError}; see ${this.spec.logFile}`,
    );
  }
}
