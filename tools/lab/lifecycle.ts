import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stopDelayer } from './delayer';
import {
  buildDist,
  createDatabase,
  entryAlive,
  initPostgres,
  killEntry,
  killNamespace,
  start,
  waitReady,
} from './launch';
import { HOSTS, NODE_HOSTS, type HostName, type LabLayout } from './layout';
import { clusterReady, clusterView, createStreams } from './nats';
import { checkSubnetFree, createNetwork, destroyNetwork, leftovers } from './network';
import {
  FAKETIME_LIBS,
  HOST_SERVICES,
  findBinaries,
  natsReplicas,
  processSpec,
  type Binaries,
  type ServiceName,
  type UpOptions,
} from './services';
import { alive, waitFor } from './shell';
import { processKey, readState, writeState, type LabState, type ProcessEntry } from './state';

/** Refuses a lab whose state or network is still there, naming what and how to clear it. */
function refuseIfUp(layout: LabLayout): void {
  const found = leftovers(layout);
  const state = readState(layout);
  if (state || found.namespaces.length > 0 || found.links.length > 0) {
    const what = [
      ...(state ? [`${relative(layout.root, layout.stateFile)} (${state.phase})`] : []),
      ...found.namespaces.map((ns) => `namespace ${ns}`),
      ...found.links.map((link) => `link ${link}`),
    ];
    const name = layout.name === 'stslab' ? '' : ` with LAB_NAME=${layout.name}`;
    throw new Error(
      `lab ${layout.name} is already up or left over (${what.join(', ')}): ` +
        `run \`npm run lab -- down\`${name} first`,
    );
  }
}

/** Clears what a previous lab of this name left (its logs too) and makes the folders. */
function freshStateDir(layout: LabLayout): void {
  rmSync(layout.stateDir, { recursive: true, force: true });
  for (const dir of [layout.logDir, join(layout.stateDir, 'run'), join(layout.stateDir, 'redis')]) {
    mkdirSync(dir, { recursive: true });
  }
  for (const host of NODE_HOSTS) {
    mkdirSync(join(layout.stateDir, 'nats', host), { recursive: true });
  }
  // Node finds the packages from the private build by walking up: outside the repository, a link.
  if (relative(layout.root, layout.stateDir).startsWith('..')) {
    symlinkSync(join(layout.root, 'node_modules'), join(layout.stateDir, 'node_modules'));
  }
}

/** Checks the machine, clears the state folder and writes the new lab's state (nothing runs yet). */
export function prepare(
  layout: LabLayout,
  options: UpOptions,
): { state: LabState; binaries: Binaries } {
  refuseIfUp(layout);
  checkSubnetFree(layout);
  const binaries = findBinaries();
  const faketimeLib =
    options.faketime === false ? undefined : FAKETIME_LIBS.find((lib) => existsSync(lib));
  if (options.faketime === true && !faketimeLib) {
    throw new Error(`faketime: libfaketime is not installed (${FAKETIME_LIBS[0]})`);
  }
  natsReplicas(options);
  freshStateDir(layout);
  const state: LabState = {
    name: layout.name,
    net: layout.net,
    stateDir: layout.stateDir,
    distDir: layout.distDir,
    kek: randomBytes(32).toString('base64'),
    webhookKek: randomBytes(32).toString('base64'),
    faketimeLib,
    startedAt: new Date().toISOString(),
    phase: 'starting',
    options,
    processes: {},
    faults: [],
  };
  const context = {
    layout,
    binaries,
    distDir: state.distDir,
    kek: state.kek,
    webhookKek: state.webhookKek,
    faketimeLib,
    options,
  };
  for (const host of HOSTS) {
    for (const service of HOST_SERVICES[host]) {
      state.processes[processKey(host, service)] = processSpec(context, host, service);
    }
  }
  writeState(layout, state);
  return { state, binaries };
}

/**
 * The build (beside the network, Postgres's initdb, Postgres, Redis and the
 * NATS nodes), the database, the venue simulator, the streams once NATS has
 * a meta leader, then every service of h1..h3 at once; each step waits for
 * what it starts to be ready, and the state is saved after every start.
 */
export async function bringUp(
  layout: LabLayout,
  state: LabState,
  binaries: Binaries,
  timeoutMs: number,
): Promise<void> {
  const built = buildDist(layout);
  built.catch(() => undefined);
  createNetwork(layout);
  for (const host of NODE_HOSTS) {
    writeFileSync(layout.faketimeFile(host), '+0\n');
  }
  initPostgres(layout, binaries);
  const entry = (host: HostName, service: ServiceName): ProcessEntry =>
    state.processes[processKey(host, service)];
  await startAll(
    layout,
    state,
    [
      entry('infra', 'postgres'),
      entry('infra', 'redis'),
      ...NODE_HOSTS.map((host) => entry(host, 'nats')),
    ],
    timeoutMs,
  );
  await built;
  await createDatabase(layout);
  const sim = entry('infra', 'venue-sim');
  const simReady = start(layout, sim);
  writeState(layout, state);
  await waitFor(
    'a NATS meta leader with 3 current peers',
    async () => clusterReady(await clusterView(layout)),
    timeoutMs,
    250,
  );
  await waitReady(sim, simReady, timeoutMs);
  await createStreams(
    layout,
    state.options.natsPrefix ?? 'sts',
    natsReplicas(state.options),
    timeoutMs,
  );
  const services = NODE_HOSTS.flatMap((host) =>
    HOST_SERVICES[host]
      .filter((service) => service !== 'nats')
      .map((service) => entry(host, service)),
  );
  await startAll(layout, state, services, timeoutMs);
}

/** Starts `entries` (those not running) together and waits until all are ready. */
export async function startAll(
  layout: LabLayout,
  state: LabState,
  entries: ProcessEntry[],
  timeoutMs: number,
): Promise<void> {
  const started = entries
    .filter((entry) => !entryAlive(layout, entry))
    .map((each) => ({ each, ready: start(layout, each) }));
  writeState(layout, state);
  await Promise.all(
    started.map(({ each, ready }) =>
      each.service === 'postgres'
        ? postgresAgain(layout, state, each, ready, timeoutMs)
        : waitReady(each, ready, timeoutMs),
    ),
  );
}

/** After a SIGKILL Postgres may refuse a start or two while the old one's memory goes. */
async function postgresAgain(
  layout: LabLayout,
  state: LabState,
  entry: ProcessEntry,
  ready: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await waitReady(entry, ready, timeoutMs);
    } catch (error) {
      if (alive(entry.pid) || attempt >= 20) {
        throw error;
      }
      await new Promise((done) => setTimeout(done, 250));
      ready = start(layout, entry);
      writeState(layout, state);
    }
  }
}

export interface DownResult {
  /** Processes killed. */
  killed: number;
  /** Namespaces and links still there after (none, unless something refused to go). */
  left: { namespaces: string[]; links: string[] };
}

/**
 * Kills every process of the lab, deletes its namespaces, links and bridge,
 * its private build and data (the logs stay). Safe on a half-built lab.
 */
export async function tearDown(layout: LabLayout): Promise<DownResult> {
  const state = readState(layout);
  await stopDelayer(layout, state?.delayerPid);
  const pids = await Promise.all(HOSTS.map((host) => killNamespace(layout, host)));
  for (const entry of Object.values(state?.processes ?? {})) {
    await killEntry(layout, entry);
  }
  const left = destroyNetwork(layout);
  for (const dir of ['dist', 'pg', 'nats', 'redis', 'run']) {
    rmSync(join(layout.stateDir, dir), { recursive: true, force: true });
  }
  const files = ['delayer.py', 'delayer.ready', 'state.json', ...HOSTS.map((h) => `${h}.faketime`)];
  for (const file of files) {
    rmSync(join(layout.stateDir, file), { force: true });
  }
  return { killed: pids.flat().length, left };
}
