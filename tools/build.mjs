#!/usr/bin/env node
// Compiles every app, lib and tool to dist/ with swc (type-checking is `npm run typecheck`).
// Path aliases (@sts/*) are rewritten to relative requires, so dist/ runs on plain node.
//
//   --out DIR      build into DIR instead of dist/ (`npm start` builds the fleet's own copy)
//   --if-changed   do nothing when DIR already holds a build of exactly these sources
//                  (`npm run ops`: an operator command rebuilds nothing that is up to date)
//   --quiet        print nothing on success
//
// The trader console (apps/console) is a browser app: Vite bundles it into
// <out>/apps/console, which the gateway serves under /console. Its bundle is
// cached by a hash of its inputs (node_modules/.cache/sts-console/), so a build
// whose console sources did not change copies it instead of running Vite.
import { transformFile } from '@swc/core';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile, cp } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const finalDir = resolve(root, argument('--out') ?? 'dist');
// Built into a staging folder and swapped in with two renames, so a process
// reading dist/ (a spec copying it) never sees it half written. Services
// must still not run from dist/: they require files lazily, and the next
// build swaps the folder under them (`npm start` runs from its own --out).
const outDir = `${finalDir}.staging-${process.pid}`;
const sourceRoots = ['apps', 'libs', 'tools', 'bench'];
const quiet = process.argv.includes('--quiet');
const ifChanged = process.argv.includes('--if-changed');
/** Written into every build: which sources it was made from. */
const STAMP = '.build-stamp.json';

const consoleDir = join(root, 'apps', 'console');
const isConsoleFile = (file) => file.startsWith(`${consoleDir}/`);
/** What the console's bundle is made from (its docs and README are not). */
const isConsoleInput = (file) =>
  isConsoleFile(file) && !file.startsWith(join(consoleDir, 'docs', '/')) && !file.endsWith('.md');
const consoleCache = join(root, 'node_modules', '.cache', 'sts-console');

const base = JSON.parse(await readFile(join(root, 'tsconfig.base.json'), 'utf8'));
const swcrc = JSON.parse(await readFile(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;

const LINT_PROBE_PREFIX = '__probe_';

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    // The lint-probes spec writes and removes these in the source roots while
    // other specs build: never part of a build (one read after its removal failed one).
    if (entry.name.startsWith(LINT_PROBE_PREFIX)) continue;
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

/** Every file a build reads: the sources it compiles or copies, and what decides how. */
async function buildInputs() {
  const inputs = [
    join(root, 'tsconfig.base.json'),
    join(root, '.swcrc'),
    fileURLToPath(import.meta.url),
  ];
  for (const sourceRoot of sourceRoots) {
    for await (const file of walk(join(root, sourceRoot))) {
      if (isConsoleFile(file)) continue;
      if (isCompiled(file) || (isAsset(file) && !file.includes('/test/'))) inputs.push(file);
    }
  }
  return inputs.sort();
}

/** The console's sources, the SDK it bundles, the lock file that fixes Vite and React, and this build. */
async function consoleInputs() {
  const inputs = [fileURLToPath(import.meta.url), join(root, 'package-lock.json')];
  for await (const file of walk(join(root, 'libs/sdk/src'))) {
    if (file.endsWith('.ts') && !file.endsWith('.spec.ts')) inputs.push(file);
  }
  for await (const file of walk(consoleDir)) {
    if (isConsoleInput(file)) inputs.push(file);
  }
  return inputs.sort();
}

/** Vite's bundle of the console into `target`, from the cache when its inputs are unchanged. */
async function buildConsole(fingerprint, target) {
  const cached = join(consoleCache, fingerprint);
  if (!(await stat(join(cached, 'index.html')).catch(() => undefined))) {
    const fresh = `${cached}.building-${process.pid}`;
    // A production bundle whoever runs the build: jest sets NODE_ENV=test, which Vite would
    // carry into the bundle (React's development build, with its console notices).
    process.env.NODE_ENV = 'production';
    const { build } = await import('vite');
    await build({
      configFile: join(consoleDir, 'vite.config.mjs'),
      build: { outDir: fresh, emptyOutDir: true },
      logLevel: quiet ? 'error' : 'warn',
    });
    // Two builds may race to fill the cache: the first one's bundle stays.
    await rename(fresh, cached).catch(async (error) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
    await rm(fresh, { recursive: true, force: true });
    await pruneConsoleCache(fingerprint);
  }
  await mkdir(dirname(target), { recursive: true });
  await cp(cached, target, { recursive: true });
}

/** Keeps the newest few bundles (a checkout of another branch finds its own). */
async function pruneConsoleCache(keep) {
  const entries = await readdir(consoleCache).catch(() => []);
  const bundles = [];
  for (const name of entries.filter((entry) => /^[0-9a-f]{64}$/.test(entry))) {
    bundles.push({ name, mtime: (await stat(join(consoleCache, name))).mtimeMs });
  }
  bundles.sort((a, b) => b.mtime - a.mtime);
  for (const { name } of bundles.slice(4)) {
    if (name !== keep) await rm(join(consoleCache, name), { recursive: true, force: true });
  }
}

/** A content hash of the inputs (names and bytes): mtimes change on checkouts that change nothing. */
async function fingerprintOf(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs) {
    hash
      .update(relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex');
}

const readStamp = async (dir) => {
  try {
    return JSON.parse(await readFile(join(dir, STAMP), 'utf8'));
  } catch {
    return undefined;
  }
};

const started = Date.now();
const inputs = await buildInputs();
// A tree without the console (a partial copy: the build-isolation spec's) builds without it.
const hasConsole = await stat(join(consoleDir, 'vite.config.mjs')).then(
  () => true,
  () => false,
);
const consoleFingerprint = hasConsole ? await fingerprintOf(await consoleInputs()) : 'none';
const fingerprint = createHash('sha256')
  .update(await fingerprintOf(inputs))
  .update(consoleFingerprint)
  .digest('hex');
if (ifChanged && (await readStamp(finalDir))?.fingerprint === fingerprint) {
  if (!quiet)
    console.log(`${relative(root, finalDir)}/ is up to date with the sources; not rebuilt`);
  process.exit(0);
}

await rm(outDir, { recursive: true, force: true });
let count = 0;
const jobs = [];
for (const file of inputs) {
  if (!sourceRoots.some((sourceRoot) => file.startsWith(join(root, sourceRoot, '/')))) continue;
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
        await writeFile(
          jsFile,
          `${output.code}\n//# sourceMappingURL=${jsFile.split('/').pop()}.map\n`,
        );
        if (output.map) await writeFile(`${jsFile}.map`, output.map);
        count += 1;
      })(),
    );
  } else {
    jobs.push(
      (async () => {
        await mkdir(dirname(target), { recursive: true });
        await cp(file, target);
      })(),
    );
  }
}
if (hasConsole) {
  jobs.push(buildConsole(consoleFingerprint, join(outDir, 'apps', 'console')));
}
await Promise.all(jobs);
await writeFile(
  join(outDir, STAMP),
  JSON.stringify({ fingerprint, built_at: new Date().toISOString() }),
);

// Two builds may finish together (an operator command and a spec): the one
// whose rename meets the other's fresh folder retires it and tries again.
for (let attempt = 0; ; attempt += 1) {
  const retired = `${finalDir}.old-${process.pid}-${attempt}`;
  await rename(finalDir, retired).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  try {
    await rename(outDir, finalDir);
    break;
  } catch (error) {
    if (attempt >= 5 || (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST')) throw error;
  } finally {
    await rm(retired, { recursive: true, force: true });
  }
}
if (!quiet)
  console.log(
    `built ${count} files into ${relative(root, finalDir)}/ in ${Date.now() - started} ms`,
  );
