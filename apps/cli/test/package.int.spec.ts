import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { GatewayHarness } from '@sts/app-gateway-testing';

const ROOT = resolve(__dirname, '../../..');
const run = promisify(execFile);

interface Manifest {
  version: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  bundleDependencies: string[];
}

/**
 * The CLI as a trader installs it on a machine that has neither this
 * repository nor any registry: the one tarball `npm pack` makes of
 * apps/cli/tools/build-package.mjs's build, installed with `npm i -g` into an
 * empty prefix, with an empty npm cache, `--offline` and a registry that
 * refuses every connection; then the `sts` that npm linked, run from an empty
 * folder against a running gateway.
 */
describe('@sts/cli as one package, installed alone', () => {
  const work = mkdtempSync(join(tmpdir(), 'sts-cli-pkg-'));
  const prefix = join(work, 'prefix');
  const elsewhere = join(work, 'elsewhere');
  const gateway = new GatewayHarness();
  let tarball: string;
  let installed: string;
  let manifest: Manifest;

  /** npm with nothing of this machine's: no user or global config, no cache, no registry. */
  const npmEnv = () => {
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of Object.keys(env)) {
      if (name.toLowerCase().startsWith('npm_')) {
        delete env[name];
      }
    }
    writeFileSync(join(work, 'user.npmrc'), '');
    writeFileSync(join(work, 'global.npmrc'), '');
    return {
      ...env,
      npm_config_userconfig: join(work, 'user.npmrc'),
      npm_config_globalconfig: join(work, 'global.npmrc'),
      npm_config_cache: join(work, 'empty-cache'),
    };
  };

  beforeAll(async () => {
    const out = join(work, 'cli');
    await run('node', [join(ROOT, 'apps/cli/tools/build-package.mjs'), '--out', out]);
    const { stdout } = await run('npm', ['pack', out, '--pack-destination', work], {
      env: npmEnv(),
    });
    tarball = join(work, stdout.trim().split('\n').at(-1)!);
    mkdirSync(prefix);
    mkdirSync(elsewhere);
    await run(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--offline',
        '--registry',
        'http://127.0.0.1:9/',
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
        tarball,
      ],
      { cwd: elsewhere, env: npmEnv() },
    );
    installed = join(prefix, 'lib/node_modules/@sts/cli');
    manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
    await gateway.start();
  }, 180_000);
  afterAll(() => gateway.stop());

  /** The `sts` npm put on the prefix's PATH, run from a folder with nothing in it. */
  const sts = (...argv: string[]) =>
    run(join(prefix, 'bin/sts'), argv, {
      cwd: elsewhere,
      env: {
        PATH: process.env['PATH'],
        HOME: elsewhere,
        STS_API_URL: gateway.baseUrl,
        STS_CONFIG: join(work, 'none.json'),
      },
    });

  it('bundles the SDK, commander and ws at the versions it names, and its bin', () => {
    expect(manifest.bin).toEqual({ sts: 'src/main.js' });
    expect(manifest.bundleDependencies.sort()).toEqual(['@sts/sdk', 'commander', 'ws']);
    expect(Object.keys(manifest.dependencies).sort()).toEqual(manifest.bundleDependencies);
    for (const [name, version] of Object.entries(manifest.dependencies)) {
      const bundled = JSON.parse(
        readFileSync(join(installed, 'node_modules', name, 'package.json'), 'utf8'),
      ) as { version: string };
      expect(`${name}@${bundled.version}`).toBe(`${name}@${version}`);
    }
    const sdk = JSON.parse(readFileSync(join(ROOT, 'libs/sdk/package.json'), 'utf8')) as {
      version: string;
    };
    expect(manifest.dependencies['@sts/sdk']).toBe(sdk.version);
  });

  it('prints the version of its manifest', async () => {
    const { stdout } = await sts('--version');
    expect(stdout.trim()).toBe(manifest.version);
  });

  it('lists the exchanges through the bundled SDK, never a path into the repository', async () => {
    const { stdout } = await sts('exchanges');
    expect(stdout.trim().split('\n')).toEqual(
      ['hyperliquid', 'lighter', 'paradex', 'extended', 'aster'].map((id) =>
        expect.stringMatching(new RegExp(`^${id}\\s+PAPER\\s+maker cap \\d+\\s+open$`)),
      ),
    );
    const sources = readdirSync(join(installed, 'src'), { recursive: true })
      .filter((name) => String(name).endsWith('.js'))
      .map((name) => readFileSync(join(installed, 'src', String(name)), 'utf8'));
    expect(sources.join('\n')).toContain('require("@sts/sdk")');
    expect(sources.join('\n')).not.toMatch(/libs\/sdk|apps\/cli/);
  });
});
