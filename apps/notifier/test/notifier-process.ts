import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eventually } from './webhook-receiver';

const ROOT = resolve(__dirname, '../../..');

/**
 * A notifier replica as a process of its own, so a spec can kill -9 it: no
 * shutdown code runs, its claims and unacknowledged events are left behind.
 * Built (swc, a few seconds) into a private directory under tmp/, so no other
 * build swaps files under it.
 */
export class NotifierProcess {
  private child?: ChildProcess;
  private exited?: Promise<number | null>;
  private readonly scratch: string;

  constructor(
    private readonly env: Record<string, string>,
    readonly logFile: string,
  ) {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    this.scratch = mkdtempSync(join(ROOT, 'tmp', 'notifier-dist-'));
  }

  async start(): Promise<this> {
    execFileSync(
      process.execPath,
      [join(ROOT, 'tools/build.mjs'), '--quiet', '--out', join(this.scratch, 'dist')],
      { cwd: ROOT },
    );
    const main = join(this.scratch, 'dist/apps/notifier/src/main.js');
    const child = spawn(process.execPath, [main], {
      // No .env of the repository's: the env is the spec's alone.
      cwd: this.scratch,
      env: { PATH: process.env['PATH'] ?? '', ...this.env, LOG_FILE: this.logFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    await eventually(
      () => {
        if (child.exitCode !== null) {
          throw new Error(`notifier exited: ${stderr}`);
        }
        return this.logs().includes('"msg":"notifier listening"');
      },
      'the notifier process to listen',
      30_000,
    );
    return this;
  }

  /** kill -9. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  logs(): string {
    return existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8') : '';
  }

  /** Kills it if still running, removes its build. */
  async remove(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      await this.kill();
    }
    rmSync(this.scratch, { recursive: true, force: true });
  }
}
