import { execFile } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { GatewayHarness } from '@sts/app-gateway-testing';

const ROOT = resolve(__dirname, '../../..');
const run = promisify(execFile);

/**
 * The CLI as a trader installs it: @sts/cli and @sts/sdk built and packed by
 * npm, installed into a project of their own, `sts` run from there against a
 * running gateway. The SDK's tarball installs with `npm install --offline`;
 * the CLI's dependencies from the registry (commander, ws) are not in this
 * machine's npm cache, so its tarball is unpacked by tar and those two are
 * linked from the repository's node_modules.
 */
describe('@sts/cli as a package', () => {
  const work = mkdtempSync(join(tmpdir(), 'sts-cli-pkg-'));
  const project = join(work, 'trader');
  const modules = join(project, 'node_modules');
  const gateway = new GatewayHarness();
  let manifest: { version: string; bin: Record<string, string>; dependencies: object };

  const pack = async (builder: string, into: string) => {
    await run('node', [join(ROOT, builder), '--out', join(work, into)]);
    const { stdout } = await run('npm', ['pack', join(work, into), '--pack-destination', work]);
    return join(work, stdout.trim().split('\n').at(-1)!);
  };

  beforeAll(async () => {
    const sdkTarball = await pack('libs/sdk/tools/build-package.mjs', 'sdk');
    const cliTarball = await pack('apps/cli/tools/build-package.mjs', 'cli');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"trader","private":true}\n');
    await run('npm', ['install', sdkTarball, '--offline', '--no-audit', '--no-fund'], {
      cwd: project,
    });
    mkdirSync(join(modules, '@sts/cli'), { recursive: true });
    await run('tar', ['xzf', cliTarball, '-C', join(modules, '@sts/cli'), '--strip-components=1']);
    for (const name of ['commander', 'ws']) {
      symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
    }
    manifest = JSON.parse(readFileSync(join(modules, '@sts/cli/package.json'), 'utf8'));
    await gateway.start();
  }, 120_000);
  afterAll(() => gateway.stop());

  const sts = (...argv: string[]) =>
    run('node', [join(modules, '@sts/cli', manifest.bin['sts']!), ...argv], {
      cwd: project,
      env: { ...process.env, STS_API_URL: gateway.baseUrl, STS_CONFIG: join(work, 'none.json') },
    });

  it('declares its dependencies by range and its bin', () => {
    expect(manifest.bin).toEqual({ sts: 'src/main.js' });
    expect(manifest.dependencies).toEqual({
      '@sts/sdk': expect.stringMatching(/^\^\d+\.\d+\.\d+$/),
      commander: expect.stringMatching(/^\^12\./),
      ws: expect.stringMatching(/^\^8\./),
    });
  });

  it('prints the version of its manifest', async () => {
    const { stdout } = await sts('--version');
    expect(stdout.trim()).toBe(manifest.version);
  });

  it('calls the API through the installed SDK, never a path into the repository', async () => {
    const { stdout } = await sts('maintenance', '--json');
    expect(JSON.parse(stdout)).toContainEqual(expect.objectContaining({ exchange: '_system' }));
    const sources = readdirSync(join(modules, '@sts/cli/src'), { recursive: true })
      .filter((name) => String(name).endsWith('.js'))
      .map((name) => readFileSync(join(modules, '@sts/cli/src', String(name)), 'utf8'));
    expect(sources.join('\n')).toContain('require("@sts/sdk")');
    expect(sources.join('\n')).not.toMatch(/libs\/sdk/);
  });
});
