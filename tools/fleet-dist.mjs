// The fleet's private build: `npm start` runs every service (and its own
// operator calls: migrate, seed) from tmp/fleet-dist-<time>/, never from
// dist/. Services require files lazily, so a build that swaps dist/ (an
// operator's `npm run ops`, a spec, `npm run build`) would pull files from
// under them. Node finds node_modules from there because tmp/ sits in the
// repository.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PREFIX = 'fleet-dist-';
const OWNER = '.owner';

/** True while a process with this id runs (EPERM: it runs, as someone else). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Removes the copies (and half-built staging folders) of fleets that no
 * longer run. Each copy has an owner file, written before its build starts,
 * naming the fleet's process; a copy without a live owner is unused.
 */
export function removeUnusedFleetDists(root) {
  const tmp = join(root, 'tmp');
  if (!existsSync(tmp)) return [];
  const entries = readdirSync(tmp);
  const owned = new Set();
  for (const entry of entries) {
    if (!entry.startsWith(PREFIX) || !entry.endsWith(OWNER)) continue;
    const pid = Number(readFileSync(join(tmp, entry), 'utf8'));
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) owned.add(entry.slice(0, -OWNER.length));
  }
  const removed = [];
  for (const entry of entries) {
    if (!entry.startsWith(PREFIX)) continue;
    const copy = entry.endsWith(OWNER)
      ? entry.slice(0, -OWNER.length)
      : entry.replace(/\.(staging|old)-.*$/, '');
    if (owned.has(copy)) continue;
    rmSync(join(tmp, entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}

/**
 * Builds a fresh private copy for the fleet of process `ownerPid` and returns
 * its folder; the copy is this build's alone, whatever happens to dist/.
 */
export function buildFleetDist(root, ownerPid = process.pid, options = {}) {
  removeUnusedFleetDists(root);
  const copy = join(root, 'tmp', `${PREFIX}${Date.now()}-${ownerPid}`);
  mkdirSync(join(root, 'tmp'), { recursive: true });
  writeFileSync(`${copy}${OWNER}`, String(ownerPid));
  const build = spawnSync(
    process.execPath,
    [join(root, 'tools/build.mjs'), '--out', copy, ...(options.quiet ? ['--quiet'] : [])],
    {
      cwd: root,
      stdio: options.quiet ? 'pipe' : 'inherit',
    },
  );
  if (build.status !== 0) {
    releaseFleetDist(copy);
    throw new Error(`build failed${build.stderr ? `: ${build.stderr}` : ''}`);
  }
  return copy;
}

/** Removes a fleet's copy once it has stopped. */
export function releaseFleetDist(copy) {
  rmSync(copy, { recursive: true, force: true });
  rmSync(`${copy}${OWNER}`, { force: true });
}
