import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../../..');
const GENERATED = join(ROOT, 'libs/sdk/src/generated/openapi.ts');

describe('the SDK types', () => {
  it('are what openapi-typescript makes of apps/gateway/openapi.json (npm run sdk:types rewrites them)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sts-sdk-types-')), 'openapi.ts');
    await promisify(execFile)(join(ROOT, 'node_modules/.bin/openapi-typescript'), [
      join(ROOT, 'apps/gateway/openapi.json'),
      '-o',
      out,
    ]);
    // Formatted as the committed file is (prettier, with the repo's settings for that path).
    const fresh = execFileSync(
      join(ROOT, 'node_modules/.bin/prettier'),
      ['--stdin-filepath', GENERATED],
      { input: readFileSync(out), cwd: ROOT, encoding: 'utf8' },
    );
    expect(readFileSync(GENERATED, 'utf8')).toBe(fresh);
  }, 60_000);
});
