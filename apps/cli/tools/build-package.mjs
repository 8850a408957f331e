#!/usr/bin/env node
// Builds the `sts` CLI as a package: apps/cli/src compiled to CommonJS by swc
// (type-checking is `npm run typecheck`) into <out>/src, beside its manifest
// and README. `npm pack <out>` then makes the tarball.
//
//   --out DIR   build into DIR (default dist/packages/cli)
//
// Unlike the monorepo's build (tools/build.mjs), which rewrites `@sts/sdk` to
// a path into libs/sdk, this keeps it a package import: the installed CLI
// finds the SDK among its dependencies, as any other package.
import { transformFile } from '@swc/core';
import { chmod, cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(cli, '../..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(root, outIndex < 0 ? 'dist/packages/cli' : process.argv[outIndex + 1]);

const swcrc = JSON.parse(await readFile(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;

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
await cp(join(cli, 'package.json'), join(out, 'package.json'));
await cp(join(cli, 'README.md'), join(out, 'README.md'));
