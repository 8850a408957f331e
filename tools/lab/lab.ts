import { writeFileSync } from 'node:fs';
import { startDelayer, stopDelayer } from './delayer';
import { applyFilters, describeFault, type Fault } from './faults';
import { labInfo, type LabInfo } from './info';
import { entryAlive, killEntry, killNamespace } from './launch';
import {
  HOSTS,
  LabLayout,
  NODE_HOSTS,
  isHost,
  isNodeHost,
  type HostName,
  type LabOptions,
  type NodeHost,
} from './layout';
import { bringUp, prepare, startAll, tearDown, type DownResult } from './lifecycle';
import {
  clusterView,
  nodeView,
  streamCopies,
  streamViews,
  type ClusterView,
  type StreamCopy,
  type StreamView,
} from './nats';
import { tcpReachable } from './network';
import { HOST_SERVICES, type ServiceName, type UpOptions } from './services';
import { alive, waitFor } from './shell';
import { processKey, readState, writeState, type LabState } from './state';
import { labStatus, type LabStatus } from './status';

/**
 * A lab of network hosts on this machine (issue 56): network namespaces
 * joined by a bridge, Postgres, Redis and the venue simulator on `infra`, a
 * NATS JetStream cluster and the services on h1..h3, and faults between
 * them. Every method works from state.json, so one process may bring the lab
 * up and another inject faults or take it down (tools/lab/README.md).
 */
export class Lab {
  readonly layout: LabLayout;

  constructor(options: LabOptions = {}) {
    this.layout = new LabLayout(options);
  }

  /**
   * Builds the services, creates the namespaces and links, starts every
   * process and waits until all are ready; returns where everything answers.
   * Refuses while a lab of this name is up (or left over: `down` clears it).
   * A failed up takes itself down (logs kept) unless `keepOnFailure`.
   */
  async up(options: UpOptions = {}): Promise<LabInfo> {
    requireRoot();
    const { state, binaries } = prepare(this.layout, options);
    try {
      await bringUp(this.layout, state, binaries, options.readyTimeoutMs ?? 120_000);
      state.phase = 'up';
      writeState(this.layout, state);
      return labInfo(this.layout, state);
    } catch (error) {
      state.phase = 'failed';
      writeState(this.layout, state);
      if (!options.keepOnFailure) {
        await this.down().catch(() => undefined);
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        `lab ${this.layout.name}: up failed: ${message} (logs: ${this.layout.logDir})`,
        {
          cause: error,
        },
      );
    }
  }

  /**
   * Kills every process of the lab, deletes its namespaces, links and bridge,
   * its private build and data (the logs stay). Safe on a half-built lab.
   */
  async down(): Promise<DownResult> {
    requireRoot();
    return tearDown(this.layout);
  }

  /** Per host, each process alive or not; the NATS cluster, the streams, the faults in force. */
  async status(): Promise<LabStatus> {
    return labStatus(this.layout, this.state());
  }

  /** The URLs and settings of the lab that is up (what up returned). */
  info(): LabInfo {
    return labInfo(this.layout, this.state());
  }

  async natsCluster(): Promise<ClusterView> {
    return clusterView(this.layout);
  }

  async streams(): Promise<StreamView[]> {
    return streamViews(this.layout);
  }

  /** Each node's copy of one stream and the consumers it leads (for a failure's report). */
  async streamCopies(stream: string): Promise<StreamCopy[]> {
    return streamCopies(this.layout, stream);
  }

  /** Whether a TCP connection from inside `from` to `to` (a host or an address) opens. */
  reachable(from: HostName, to: HostName | string, port: number, timeoutS = 2): Promise<boolean> {
    const address = isHost(to) ? this.layout.address(to) : to;
    return tcpReachable(this.layout.namespace(from), address, port, timeoutS);
  }

  /** The host's log file of `service` (its JSON log for the Node services, else its output). */
  logFile(host: HostName, service: ServiceName): string {
    const entry = this.state().processes[processKey(host, service)];
    if (!entry) {
      throw new Error(`no ${service} on ${host}`);
    }
    return entry.log ?? entry.spawn.out;
  }

  pid(host: HostName, service: ServiceName): number | undefined {
    const entry = this.state().processes[processKey(host, service)];
    return entry && entryAlive(this.layout, entry) ? entry.pid : undefined;
  }

  /** Cuts the host off from every other host, both ways (the root namespace still reaches it). */
  async isolate(host: HostName): Promise<void> {
    await this.addFault({ kind: 'isolate', host });
  }

  /** Cuts a service host off from the other NATS nodes, Postgres and Redis; not from the venue. */
  async cutInfra(host: NodeHost): Promise<void> {
    requireNodeHost(host, 'cut-infra');
    await this.addFault({ kind: 'cut-infra', host });
  }

  /**
   * Delays every frame between two lab hosts by `ms` (one way: a round trip
   * gains twice that) and drops `lossPercent` of them; `hosts` (default all)
   * are the senders whose frames are delayed.
   */
  async delay(ms: number, lossPercent = 0, hosts: HostName[] = [...HOSTS]): Promise<void> {
    if (!(ms >= 0) || !(lossPercent >= 0 && lossPercent <= 100)) {
      throw new Error(`delay ${ms} ms, loss ${lossPercent} %: ms >= 0, loss 0..100`);
    }
    const state = this.state();
    const faults = state.faults.filter((fault) => fault.kind !== 'delay');
    await this.setFaults(state, [...faults, { kind: 'delay', ms, lossPercent, hosts }]);
  }

  /** Moves the host's wall clock (its Node services' Date) by `seconds` from the real one. */
  async skew(host: NodeHost, seconds: number): Promise<void> {
    requireNodeHost(host, 'skew');
    const state = this.state();
    if (!state.faketimeLib) {
      throw new Error(
        'skew needs libfaketime (Debian package faketime), preloaded at up: it was not installed then',
      );
    }
    if (!Number.isFinite(seconds)) {
      throw new Error(`skew ${seconds}: a number of seconds`);
    }
    writeFileSync(this.layout.faketimeFile(host), `${seconds >= 0 ? '+' : ''}${seconds}\n`);
    const faults = state.faults.filter((fault) => !(fault.kind === 'skew' && fault.host === host));
    await this.setFaults(
      state,
      seconds === 0 ? faults : [...faults, { kind: 'skew', host, seconds }],
    );
  }

  /** Removes every fault (tc rule, delay, skew) of `host`, or of all hosts. */
  async heal(host?: HostName): Promise<void> {
    const state = this.state();
    const faults: Fault[] = [];
    for (const fault of state.faults) {
      if (fault.kind === 'delay') {
        const hosts = host ? fault.hosts.filter((each) => each !== host) : [];
        if (hosts.length > 0) {
          faults.push({ ...fault, hosts });
        }
      } else if (host && fault.host !== host) {
        faults.push(fault);
      }
    }
    for (const each of NODE_HOSTS) {
      if (!host || host === each) {
        writeFileSync(this.layout.faketimeFile(each), '+0\n');
      }
    }
    await this.setFaults(state, faults);
  }

  /** SIGKILL to every process on the host (its NATS node included); returns their pids. */
  async kill(host: HostName): Promise<number[]> {
    this.state();
    return killNamespace(this.layout, host);
  }

  /**
   * Starts the host's processes that are not running, with their settings
   * and data, and waits until they are ready; on h1..h3 its NATS node first,
   * until it follows a meta leader (the services' boot needs JetStream).
   */
  async revive(host: HostName, timeoutMs = 60_000): Promise<void> {
    const state = this.state();
    const entries = HOST_SERVICES[host].map(
      (service) => state.processes[processKey(host, service)],
    );
    const [first, ...rest] = entries;
    await startAll(this.layout, state, [first], timeoutMs);
    if (isNodeHost(host)) {
      await waitFor(
        `${host}'s NATS node following a meta leader (does the cluster have a quorum?)`,
        async () => (await nodeView(this.layout, host)).metaLeader !== '',
        timeoutMs,
        250,
      );
    }
    await startAll(this.layout, state, rest, timeoutMs);
  }

  /** SIGKILL to the NATS node that leads the JetStream meta group. */
  async killNatsMetaLeader(): Promise<{ host: NodeHost; server: string }> {
    const view = await clusterView(this.layout);
    if (!view.metaLeaderHost) {
      throw new Error('no NATS meta leader to kill: the nodes agree on none');
    }
    await killEntry(this.layout, this.state().processes[processKey(view.metaLeaderHost, 'nats')]);
    return { host: view.metaLeaderHost, server: view.metaLeader };
  }

  /** SIGKILL to the NATS node that leads `stream` (`STS_EVENTS`, or `EVENTS` with the prefix). */
  async killNatsStreamLeader(
    stream: string,
  ): Promise<{ host: NodeHost; server: string; stream: string }> {
    const streams = await streamViews(this.layout);
    const prefix = (this.state().options.natsPrefix ?? 'sts').toUpperCase();
    const wanted = [stream, `${prefix}_${stream.toUpperCase()}`];
    const found = streams.find((each) => wanted.includes(each.name));
    if (!found?.leaderHost) {
      throw new Error(
        found
          ? `stream ${found.name} has no leader now`
          : `no stream ${stream}: ${streams.map((each) => each.name).join(', ') || 'none'}`,
      );
    }
    await killEntry(this.layout, this.state().processes[processKey(found.leaderHost, 'nats')]);
    return { host: found.leaderHost, server: found.leader, stream: found.name };
  }

  /** Starts the host's NATS node again (same store, same settings) and waits until it answers. */
  async reviveNats(host: NodeHost, timeoutMs = 30_000): Promise<void> {
    requireNodeHost(host, 'revive-nats');
    const state = this.state();
    await startAll(this.layout, state, [state.processes[processKey(host, 'nats')]], timeoutMs);
  }

  private async addFault(fault: Fault): Promise<void> {
    const state = this.state();
    const same = (each: Fault): boolean => describeFault(each) === describeFault(fault);
    await this.setFaults(state, [...state.faults.filter((each) => !same(each)), fault]);
  }

  /** Programs tc and the delayer for exactly `faults`, and records them. */
  private async setFaults(state: LabState, faults: Fault[]): Promise<void> {
    requireRoot();
    const before = state.faults.find((fault) => fault.kind === 'delay');
    const after = faults.find((fault) => fault.kind === 'delay');
    if (JSON.stringify(before) !== JSON.stringify(after) || (after && !alive(state.delayerPid))) {
      applyFilters(
        this.layout,
        faults.filter((fault) => fault.kind !== 'delay'),
      );
      await stopDelayer(this.layout, state.delayerPid);
      state.delayerPid = after ? await startDelayer(this.layout, after) : undefined;
    }
    state.faults = faults;
    writeState(this.layout, state);
    applyFilters(this.layout, faults);
  }

  private state(): LabState {
    const state = readState(this.layout);
    if (!state) {
      throw new Error(`lab ${this.layout.name} is not up (no ${this.layout.stateFile})`);
    }
    return state;
  }
}

function requireNodeHost(host: string, what: string): void {
  if (!isNodeHost(host)) {
    throw new Error(`${what} ${host}: one of ${NODE_HOSTS.join(', ')}`);
  }
}

function requireRoot(): void {
  if (process.getuid?.() !== 0) {
    throw new Error('the lab needs root (network namespaces, links and tc)');
  }
}
