#!/usr/bin/env node
// Compiles every app, lib and tool to dist/ with swc (type-checking is `npm run typecheck`).
// Path aliases (@sts/*) are rewritten to relative requires, so dist/ runs on plain node.
import { transformFile } from '@swc/core';
import { mkdir, readdir, readFile, rename, rm, writeFile, cp } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const finalDir = join(root, 'dist');
// Built into a staging folder and swapped in with two renames, so a process
// reading dist/ (a spec copying it, a running service) never sees it half written.
const outDir = join(root, `dist.staging-${process.pid}`);
const sourceRoots = ['apps', 'libs', 'tools', 'bench'];
const quiet = process.argv.includes('--quiet');

const base = JSON.parse(await readFile(join(root, 'tsconfig.base.json'), 'utf8'));
const swcrc = JSON.parse(await readFile(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name.startsWith('dist')) continue;
      yield* walk(full);
    } else {
      yield full;
    }
  }
}

const isCompiled = (file) =>
  file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.endsWith('.spec.ts');
const isAsset = (file) => file.endsWith('.json') || file.endsWith('.lua') || file.endsWith('.html');

const started = Date.now();
await rm(outDir, { recursive: true, force: true });
let count = 0;
const jobs = [];
for (const sourceRoot of sourceRoots) {
  for await (const file of walk(join(root, sourceRoot))) {
    const target = join(outDir, relative(root, file));
    if (isCompiled(file)) {
      jobs.push(
        (async () => {
          const output = await transformFile(file, {
            ...swcrc,
            swcrc: false,
            filename: file,
            jsc: { ...swcrc.jsc, baseUrl: root, paths: base.compilerOptions.paths },
            sourceFileName: relative(dirname(target), file),
          });
          const jsFile = target.replace(/\.ts$/, '.js');
          await mkdir(dirname(jsFile), { recursive: true });
          await writeFile(jsFile, `${output.code}\n//# sourceMappingURL=${jsFile.split('/').pop()}.map\n`);
          if (output.map) await writeFile(`${jsFile}.map`, output.map);
          count += 1;
        })(),
      );
    } else if (isAsset(file) && !file.includes('/test/')) {
      jobs.push(
        (async () => {
          await mkdir(dirname(target), { recursive: true });
          await cp(file, target);
        })(),
      );
    }
  }
}
await Promise.all(jobs);
const retired = join(root, `dist.old-${process.pid}`);
await rename(finalDir, retired).catch((error) => {
  if (error.code !== 'ENOENT') throw error;
});
await rename(outDir, finalDir);
await rm(retired, { recursive: true, force: true });
if (!quiet) console.log(`built ${count} files into dist/ in ${Date.now() - started} ms`);
