import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The CLI's version, from its package.json. Read at run time next to this
 * module, not imported: `apps/cli/src` under jest and `dist/apps/cli/src`
 * (the build copies package.json beside it) both find it one folder up, and
 * the version a trader sees is the one the package ships with.
 */
export function cliVersion(): string {
  const manifest = readFileSync(join(__dirname, '..', 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}
