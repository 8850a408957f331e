#!/usr/bin/env node
// Builds @sts/sdk as a package: tsc twice over libs/sdk/src, once to CommonJS
// (cjs/) and once to ES modules (esm/), each with its declarations, beside the
// package's manifest and README. `npm pack <out>` then makes the tarball.
//
//   --out DIR   build into DIR (default dist/libs/sdk)
//
// Node's ES module loader wants full file names in relative imports, which the
// sources (also run by jest and the monorepo's build) do not write: the ESM
// output's specifiers are completed here, './client' -> './client.js'.
import { execFileSync } from 'node:child_process';
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdk = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(sdk, '../..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(root, outIndex < 0 ? 'dist/libs/sdk' : process.argv[outIndex + 1]);
const tsc = join(root, 'node_modules/.bin/tsc');
const project = join(sdk, 'tsconfig.lib.json');

const exists = (path) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function* filesUnder(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      yield* filesUnder(full);
    } else {
      yield full;
    }
  }
}

/** './x' -> './x.js', or './x/index.js' when x is a folder. */
async function fullSpecifier(file, specifier) {
  const target = resolve(dirname(file), specifier);
  if (await exists(`${target}.js`)) {
    return `${specifier}.js`;
  }
  if (await exists(join(target, 'index.js'))) {
    return `${specifier}/index.js`;
  }
  throw new Error(`${file}: cannot resolve ${specifier}`);
}

async function completeSpecifiers(dir) {
  const pattern = /(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]*?)\2/g;
  for await (const file of filesUnder(dir)) {
    if (!file.endsWith('.js') && !file.endsWith('.d.ts')) {
      continue;
    }
    const text = await readFile(file, 'utf8');
    const replacements = new Map();
    for (const [, , , specifier] of text.matchAll(pattern)) {
      if (!specifier.endsWith('.js')) {
        replacements.set(specifier, await fullSpecifier(file, specifier));
      }
    }
    const completed = text.replace(pattern, (match, lead, quote, specifier) =>
      replacements.has(specifier) ? `${lead}${quote}${replacements.get(specifier)}${quote}` : match,
    );
    if (completed !== text) {
      await writeFile(file, completed);
    }
  }
}

const formats = [
  { dir: 'cjs', module: 'commonjs', type: 'commonjs' },
  { dir: 'esm', module: 'es2022', type: 'module' },
];
for (const { dir, module, type } of formats) {
  const target = join(out, dir);
  await rm(target, { recursive: true, force: true });
  execFileSync(tsc, ['-p', project, '--module', module, '--outDir', target], { stdio: 'inherit' });
  // Which module system the .js files of the folder are, whatever the package says.
  await writeFile(join(target, 'package.json'), `${JSON.stringify({ type })}\n`);
}
await completeSpecifiers(join(out, 'esm'));
await cp(join(sdk, 'package.json'), join(out, 'package.json'));
await cp(join(sdk, 'README.md'), join(out, 'README.md'));
