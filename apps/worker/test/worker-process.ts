import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { eventually } from './eventually';

const ROOT = resolve(__dirname, '../../..');
let builtMain: string | undefined;
/** Directories this spec process made under tmp/ (the build copy, the workers' working dirs). */
const scratch: string[] = [];

/** Removes the build copy and working directories (after the workers are gone). */
export function removeWorkerScratch(): void {
  for (const dir of scratch.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
  builtMain = undefined;
}

/**
 * Builds the workspace (swc, about a second) into a private directory under
 * tmp/, so neither another spec's build nor an engineer's rebuild of dist/
 * can pull the files from under a running worker (copying dist/ while
 * another spec process swapped in its build lost files). Module resolution
 * still finds node_modules from there (tmp/ sits in the repository).
 */
export function buildWorker(): string {
  if (builtMain) {
    return builtMain;
  }
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const copy = mkdtempSync(join(ROOT, 'tmp', 'worker-dist-'));
  scratch.push(copy);
  execFileSync(
    process.execPath,
    [join(ROOT, 'tools/build.mjs'), '--quiet', '--out', join(copy, 'dist')],
    { cwd: ROOT },
  );
  const main = join(copy, 'dist/apps/worker/src/main.js');
  if (!existsSync(main)) {
    throw new Error(`worker build missing ${main}`);
  }
  builtMain = main;
  return main;
}

/**
 * The env with every path to a TypeScript source of the repository (the
 * tests' stand-in Lighter signer, which ccxt requires) pointed at its
 * compiled copy beside `main`: the process runs plain node.
 */
function builtPaths(env: Record<string, string>, main: string): Record<string, string> {
  const dist = main.slice(0, main.length - 'apps/worker/src/main.js'.length);
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) =>
      value.startsWith(`${ROOT}/`) && value.endsWith('.ts')
        ? [name, join(dist, relative(ROOT, value).replace(/\.ts$/, '.js'))]
        : [name, value],
    ),
  );
}

/** A worker replica as its own process, so a spec can kill -9 it. */
export class WorkerProcess {
  private child?: ChildProcess;
  private exited?: Promise<number | null>;

  constructor(
    readonly workerId: string,
    readonly logFile: string,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<this> {
    const main = buildWorker();
    const cwd = mkdtempSync(join(ROOT, 'tmp', 'worker-cwd-'));
    scratch.push(cwd);
    const child = spawn(process.execPath, [main], {
      cwd,
      env: {
        PATH: process.env['PATH'] ?? '',
        ...builtPaths(this.env, main),
        WORKER_ID: this.workerId,
        LOG_FILE: this.logFile,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    await eventually(
      () => {
        if (child.exitCode !== null) {
          throw new Error(`worker ${this.workerId} exited: ${stderr}`);
        }
        return this.logs().includes('"msg":"worker started"');
      },
      `worker process ${this.workerId} to start`,
      // A fresh process loads and connects on a machine busy with other spec files: 15 s was missed.
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    return this;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** kill -9: no shutdown code runs, leases are left to expire. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: the graceful shutdown (trades handed over). */
  async stop(): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null) {
      return this.child?.exitCode ?? null;
    }
    this.child.kill('SIGTERM');
    return this.exited!;
  }

  logs(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }
}
