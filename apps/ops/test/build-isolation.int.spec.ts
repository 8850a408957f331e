import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sleep } from '@sts/platform';

/**
 * Item 12: an operator command run while `npm start` was seeding broke the
 * seeding (`Cannot find module '../entities/exchange-credential.entity'`),
 * because both ran from dist/ and the operator's build swapped it. These
 * specs run the real tools/build.mjs and tools/fleet-dist.mjs on a small
 * scratch workspace (so the repository's own dist/ is never rebuilt here).
 */
const REPO = resolve(__dirname, '../../..');
const ENTITY = 'libs/demo/src/entities/exchange-credential.entity.ts';

/** A workspace with the real build tools, one app and one lazily required lib file. */
function scratchWorkspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'sts-build-'));
  for (const file of ['tools/build.mjs', 'tools/fleet-dist.mjs', '.swcrc', 'package.json']) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    cpSync(join(REPO, file), join(root, file));
  }
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(
    join(root, 'tsconfig.base.json'),
    JSON.stringify({ compilerOptions: { paths: {} } }),
  );
  write(root, ENTITY, `export const ENTITY_VERSION = 'v1';\n`);
  // Like a service that loads an entity file only when a command needs it.
  write(
    root,
    'apps/demo/src/main.ts',
    [
      `import { createInterface } from 'node:readline';`,
      `process.stdout.write('ready\\n');`,
      `createInterface({ input: process.stdin }).once('line', () => {`,
      `  const entity = require('../../../libs/demo/src/entities/exchange-credential.entity');`,
      `  process.stdout.write(entity.ENTITY_VERSION + '\\n');`,
      `  process.exit(0);`,
      `});`,
      '',
    ].join('\n'),
  );
  return root;
}

function write(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** What `npm run ops` runs before the tool itself (its build step, from package.json). */
function opsBuild(root: string): void {
  const scripts = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const buildStep = scripts['ops'].split('&&')[0].trim();
  execFileSync('sh', ['-c', buildStep], { cwd: root });
}

/** Runs a function of tools/fleet-dist.mjs (ESM) in a node of its own; returns its JSON result. */
function fleetDist(root: string, call: string): unknown {
  const script = `import * as fleet from ${JSON.stringify(join(root, 'tools/fleet-dist.mjs'))};
    process.stdout.write(JSON.stringify(${call}) ?? 'null');`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(output) as unknown;
}

/** A service started from `main`, waiting for a line on stdin before it requires the entity. */
class LazyService {
  readonly exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  private readonly child: ChildProcess;
  private stdout = '';

  constructor(main: string) {
    this.child = spawn(process.execPath, [main], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    this.child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close', not 'exit': a process can exit before its output is read,
    // and then its stderr would read empty (seen under four jest workers).
    this.exited = new Promise((done) =>
      this.child.on('close', (code) => done({ code, stdout: this.stdout, stderr })),
    );
  }

  async started(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!this.stdout.includes('ready')) {
      if (Date.now() > deadline) {
        throw new Error('the service did not start');
      }
      await sleep(10);
    }
  }

  loadEntity(): void {
    this.child.stdin!.write('go\n');
  }
}

describe('operator builds under a running fleet (item 12)', () => {
  const roots: string[] = [];
  const workspace = (): string => {
    const root = scratchWorkspace();
    roots.push(root);
    return root;
  };
  afterAll(() => {
    for (const root of roots) {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('an ops build that moves a file does not break a fleet service loading it lazily (a service on dist/ breaks)', async () => {
    const root = workspace();
    opsBuild(root);
    const fleetCopy = fleetDist(
      root,
      `fleet.buildFleetDist(process.cwd(), ${process.pid}, { quiet: true })`,
    ) as string;
    expect(fleetCopy).toContain(join(root, 'tmp', 'fleet-dist-'));
    const fleetService = new LazyService(join(fleetCopy, 'apps/demo/src/main.js'));
    // What the fleet did before: run from dist/ itself.
    const distService = new LazyService(join(root, 'dist/apps/demo/src/main.js'));
    await Promise.all([fleetService.started(), distService.started()]);

    // The operator's sources move the entity; their `npm run ops` rebuilds dist/.
    rmSync(join(root, ENTITY));
    write(
      root,
      'libs/demo/src/entities/credential.entity.ts',
      `export const ENTITY_VERSION = 'v2';\n`,
    );
    const stampBefore = readFileSync(join(root, 'dist/.build-stamp.json'), 'utf8');
    opsBuild(root);
    expect(readFileSync(join(root, 'dist/.build-stamp.json'), 'utf8')).not.toBe(stampBefore);

    fleetService.loadEntity();
    distService.loadEntity();
    const fleet = await fleetService.exited;
    expect(fleet).toMatchObject({ code: 0, stdout: 'ready\nv1\n' });
    const onDist = await distService.exited;
    expect(onDist.code).not.toBe(0);
    expect(onDist.stderr).toContain('Cannot find module');
  });

  it('npm run ops does not rebuild dist/ when no source changed, and does when one did', () => {
    const root = workspace();
    opsBuild(root);
    const built = (): { stamp: string; ino: number } => ({
      stamp: readFileSync(join(root, 'dist/.build-stamp.json'), 'utf8'),
      ino: statSync(join(root, 'dist/apps/demo/src/main.js')).ino,
    });
    const first = built();
    opsBuild(root);
    expect(built()).toEqual(first);

    write(root, ENTITY, `export const ENTITY_VERSION = 'v3';\n`);
    opsBuild(root);
    const rebuilt = built();
    expect(rebuilt.stamp).not.toBe(first.stamp);
    expect(rebuilt.ino).not.toBe(first.ino);
    expect(readFileSync(join(root, 'dist', ENTITY.replace(/\.ts$/, '.js')), 'utf8')).toContain(
      'v3',
    );
  });

  it('builds without the lint probes another spec writes into the source roots meanwhile', () => {
    const root = workspace();
    // libs/testing's lint-probes spec: files that break a lint rule, removed at its end.
    write(
      root,
      'libs/demo/src/__probe_fs_1.ts',
      "import { readFileSync } from 'node:fs'\nexport const = ;\n",
    );
    opsBuild(root);
    expect(existsSync(join(root, 'dist/libs/demo/src/__probe_fs_1.js'))).toBe(false);
    expect(
      existsSync(join(root, 'dist/libs/demo/src/entities/exchange-credential.entity.js')),
    ).toBe(true);
  });

  it('removes the copies of fleets that no longer run, and keeps the ones in use', () => {
    const root = workspace();
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const copies = {
      stopped: join(root, 'tmp', `fleet-dist-1-${gone}`),
      running: join(root, 'tmp', `fleet-dist-2-${process.pid}`),
    };
    for (const copy of Object.values(copies)) {
      mkdirSync(copy, { recursive: true });
    }
    writeFileSync(`${copies.stopped}.owner`, String(gone));
    writeFileSync(`${copies.running}.owner`, String(process.pid));
    mkdirSync(`${copies.stopped}.staging-${gone}`);
    // A copy whose owner file is missing (a crash before it was written) is unused too.
    mkdirSync(join(root, 'tmp', 'fleet-dist-3-0'));

    fleetDist(root, 'fleet.removeUnusedFleetDists(process.cwd())');
    expect(existsSync(copies.stopped)).toBe(false);
    expect(existsSync(`${copies.stopped}.owner`)).toBe(false);
    expect(existsSync(`${copies.stopped}.staging-${gone}`)).toBe(false);
    expect(existsSync(join(root, 'tmp', 'fleet-dist-3-0'))).toBe(false);
    expect(existsSync(copies.running)).toBe(true);
    expect(existsSync(`${copies.running}.owner`)).toBe(true);
  });
});
