#!/usr/bin/env node
// Builds the `sts` CLI as one package that installs alone: apps/cli/src
// compiled to CommonJS by swc (type-checking is `npm run typecheck`) into
// <out>/src, beside its manifest and README, with every runtime dependency
// inside it under <out>/node_modules and named in `bundleDependencies`:
// @sts/sdk built by libs/sdk/tools/build-package.mjs, commander and ws copied
// from the repository's node_modules. `npm pack <out>` then makes a tarball
// that `npm i -g` installs with no registry at all: npm takes bundled
// packages from the tarball and never looks their names up, so no one else's
// `@sts/sdk` on a public registry can stand in for ours.
//
//   --out DIR   build into DIR (default dist/packages/cli)
import { transformFile } from '@swc/core';
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(cli, '../..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(root, outIndex < 0 ? 'dist/packages/cli' : process.argv[outIndex + 1]);

const swcrc = JSON.parse(await readFile(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
const readJson = async (path) => JSON.parse(await readFile(path, 'utf8'));

async function* sourcesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      yield* sourcesUnder(full);
    } else if (full.endsWith('.ts') && !full.endsWith('.spec.ts') && !full.endsWith('.d.ts')) {
      yield full;
    }
  }
}

/** The bundled version must be one the manifest's caret range admits (`^12.1.0`, `^0.2.0`). */
function assertAdmits(name, range, version) {
  const have = version.split('.').map(Number);
  const want = range.replace(/^\^/, '').split('.').map(Number);
  const fixed = want[0] === 0 ? 2 : 1;
  const same = have.slice(0, fixed).every((part, index) => part === want[index]);
  const rank = ([major, minor, patch]) => (major * 1e6 + minor) * 1e6 + patch;
  if (!range.startsWith('^') || !same || rank(have) < rank(want)) {
    throw new Error(`${name}: bundled ${version} is not within ${range} of apps/cli/package.json`);
  }
}

await rm(out, { recursive: true, force: true });
for await (const file of sourcesUnder(join(cli, 'src'))) {
  const target = join(out, relative(cli, file)).replace(/\.ts$/, '.js');
  const { code } = await transformFile(file, {
    ...swcrc,
    swcrc: false,
    sourceMaps: false,
    filename: file,
  });
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, code);
}
await chmod(join(out, 'src/main.js'), 0o755);
await cp(join(cli, 'README.md'), join(out, 'README.md'));

// The bundle: the SDK as its own package build makes it, the rest as the repository has them.
const modules = join(out, 'node_modules');
execFileSync(
  process.execPath,
  [join(root, 'libs/sdk/tools/build-package.mjs'), '--out', join(modules, '@sts/sdk')],
  { stdio: 'inherit' },
);
const manifest = await readJson(join(cli, 'package.json'));
const unbundled = Object.keys(manifest.dependencies).filter(
  (name) => !manifest.bundleDependencies.includes(name),
);
if (unbundled.length > 0) {
  throw new Error(`apps/cli/package.json: ${unbundled.join(', ')} not in bundleDependencies`);
}
for (const name of manifest.bundleDependencies) {
  if (name !== '@sts/sdk') {
    await cp(join(root, 'node_modules', name), join(modules, name), {
      recursive: true,
      filter: (path) => !relative(join(root, 'node_modules', name), path).includes('node_modules'),
    });
  }
  const { version, dependencies = {} } = await readJson(join(modules, name, 'package.json'));
  if (Object.keys(dependencies).length > 0) {
    throw new Error(`${name} has dependencies of its own: bundle them too`);
  }
  assertAdmits(name, manifest.dependencies[name], version);
  // Exactly what is inside: npm checks a bundled package against it and fetches nothing.
  manifest.dependencies[name] = version;
}
await writeFile(join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
