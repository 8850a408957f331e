import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { NODE_HOSTS, type LabLayout, type NodeHost } from './layout';
import { getJson, httpStatus, waitFor } from './shell';

/** What nats-server's monitor (/jsz, /routez, /healthz on :8222) says; fields of v2.9. */
interface JszReplica {
  name: string;
  current?: boolean;
  offline?: boolean;
  active?: number;
  lag?: number;
}

interface Jsz {
  meta_cluster?: {
    name?: string;
    leader?: string;
    cluster_size?: number;
    replicas?: JszReplica[];
  };
  account_details?: {
    name: string;
    stream_detail?: {
      name: string;
      cluster?: { leader?: string; replicas?: JszReplica[] };
      config?: { num_replicas?: number };
      state?: { messages?: number; last_seq?: number };
      consumer_detail?: {
        name: string;
        cluster?: { leader?: string };
        delivered?: { stream_seq?: number };
      }[];
    }[];
  }[];
}

export interface NodeView {
  host: NodeHost;
  server: string;
  /** The monitor answered. */
  reachable: boolean;
  /** GET /healthz answered 200 (JetStream current with a meta leader). */
  healthy: boolean;
  /** The meta leader this node follows ('' while it has none). */
  metaLeader: string;
  /** The meta group's size as this node sees it. */
  clusterSize: number;
  /** Routes to other nodes (/routez num_routes). */
  routes: number;
}

export interface ClusterView {
  nodes: NodeView[];
  /** The meta leader: a node that says it leads and a majority follows ('' when none). */
  metaLeader: string;
  metaLeaderHost?: NodeHost;
  /** The meta group's peers as the leader sees them, and whether each is current. */
  peers: { server: string; current: boolean; leader: boolean }[];
}

export interface StreamView {
  name: string;
  leader: string;
  leaderHost?: NodeHost;
  /** Configured replicas (num_replicas). */
  replicas: number;
  /** Each copy: the leader, then its followers as the leader reports them. */
  copies: { server: string; current: boolean; leader: boolean }[];
  messages?: number;
}

export async function nodeView(layout: LabLayout, host: NodeHost): Promise<NodeView> {
  const base = layout.natsMonitorUrl(host);
  const [jsz, routez, health] = await Promise.all([
    getJson<Jsz>(`${base}/jsz`, 1_500),
    getJson<{ num_routes?: number }>(`${base}/routez`, 1_500),
    httpStatus(`${base}/healthz`, 1_500),
  ]);
  return {
    host,
    server: layout.natsServerName(host),
    reachable: jsz !== undefined,
    healthy: health === 200,
    metaLeader: jsz?.meta_cluster?.leader ?? '',
    clusterSize: jsz?.meta_cluster?.cluster_size ?? 0,
    routes: routez?.num_routes ?? 0,
  };
}

/** The cluster as its nodes report it: the meta leader, and the peers the leader counts. */
export async function clusterView(layout: LabLayout): Promise<ClusterView> {
  const nodes = await Promise.all(NODE_HOSTS.map((host) => nodeView(layout, host)));
  // The leader: a node that says it leads, followed by a majority (itself included).
  const claims = nodes.filter((node) => node.reachable && node.metaLeader === node.server);
  const followers = (server: string): number =>
    nodes.filter((node) => node.reachable && node.metaLeader === server).length;
  const metaLeader = claims.find((node) => followers(node.server) >= 2)?.server ?? '';
  const metaLeaderHost = metaLeader ? layout.hostOfNatsServer(metaLeader) : undefined;
  let peers: ClusterView['peers'] = [];
  if (metaLeaderHost) {
    const jsz = await getJson<Jsz>(`${layout.natsMonitorUrl(metaLeaderHost)}/jsz`, 1_500);
    peers = [
      { server: metaLeader, current: true, leader: true },
      ...(jsz?.meta_cluster?.replicas ?? []).map((replica) => ({
        server: replica.name,
        current: !!replica.current && !replica.offline,
        leader: false,
      })),
    ];
  }
  return { nodes, metaLeader, metaLeaderHost, peers };
}

type StreamDetail = NonNullable<
  NonNullable<Jsz['account_details']>[number]['stream_detail']
>[number];

/** Each node's streams as it reports them (a node that does not answer: none). */
async function streamDetails(layout: LabLayout): Promise<Map<NodeHost, StreamDetail[]>> {
  const answers = await Promise.all(
    NODE_HOSTS.map(async (host) => {
      const jsz = await getJson<Jsz>(
        `${layout.natsMonitorUrl(host)}/jsz?accounts=true&streams=true&config=true`,
        2_000,
      );
      const details = (jsz?.account_details ?? []).flatMap(
        (account) => account.stream_detail ?? [],
      );
      return [host, details] as const;
    }),
  );
  return new Map(answers.filter(([, details]) => details.length > 0));
}

/**
 * Every stream (KV buckets included) with its leader and copies. Only the
 * leader knows whether its followers are current: each stream is read from
 * its leader's node (`/jsz?accounts=true&streams=true&config=true`), or from
 * any node that answers while it has no reachable leader.
 */
export async function streamViews(layout: LabLayout): Promise<StreamView[]> {
  const byHost = await streamDetails(layout);
  const names = new Set([...byHost.values()].flat().map((stream) => stream.name));
  const views: StreamView[] = [];
  for (const name of names) {
    const seen = [...byHost.entries()].flatMap(([host, details]) =>
      details.filter((detail) => detail.name === name).map((detail) => ({ host, detail })),
    );
    const fromLeader = seen.find(
      ({ host, detail }) => detail.cluster?.leader === layout.natsServerName(host),
    );
    const { detail } = fromLeader ?? seen[0];
    const leader = fromLeader ? (detail.cluster?.leader ?? '') : '';
    views.push({
      name,
      leader,
      leaderHost: leader ? layout.hostOfNatsServer(leader) : undefined,
      replicas: detail.config?.num_replicas ?? 1,
      copies: [
        ...(leader ? [{ server: leader, current: true, leader: true }] : []),
        ...(fromLeader ? (detail.cluster?.replicas ?? []) : []).map((replica) => ({
          server: replica.name,
          current: !!replica.current && !replica.offline,
          leader: false,
        })),
      ],
      messages: detail.state?.messages,
    });
  }
  return views.sort((a, b) => a.name.localeCompare(b.name));
}

/** One node's copy of a stream: its last sequence and the consumers it leads, where each stands. */
export interface StreamCopy {
  host: NodeHost;
  lastSeq?: number;
  /** Consumers led on this node: name and the stream sequence delivered. */
  consumers: { name: string; delivered?: number }[];
}

/**
 * Each node's own copy of `stream` (`/jsz?consumers=true`): where its last
 * sequence stands and where the consumers it leads stand. For a failure's
 * report: a copy behind the leader, a consumer behind the stream.
 */
export async function streamCopies(layout: LabLayout, stream: string): Promise<StreamCopy[]> {
  const answers = await Promise.all(
    NODE_HOSTS.map(async (host): Promise<StreamCopy | null> => {
      const jsz = await getJson<Jsz>(
        `${layout.natsMonitorUrl(host)}/jsz?accounts=true&streams=true&consumers=true`,
        2_000,
      );
      const detail = (jsz?.account_details ?? [])
        .flatMap((account) => account.stream_detail ?? [])
        .find((candidate) => candidate.name === stream);
      if (!detail) {
        return null;
      }
      const server = layout.natsServerName(host);
      return {
        host,
        lastSeq: detail.state?.last_seq,
        consumers: (detail.consumer_detail ?? [])
          .filter((consumer) => (consumer.cluster?.leader ?? server) === server)
          .map((consumer) => ({ name: consumer.name, delivered: consumer.delivered?.stream_seq })),
      };
    }),
  );
  return answers.filter((copy): copy is StreamCopy => copy !== null);
}

/** Ready: every node answers, all follow one meta leader, and it counts 3 current peers. */
export function clusterReady(view: ClusterView): boolean {
  return (
    view.nodes.every((node) => node.reachable && node.clusterSize === 3) &&
    view.metaLeader !== '' &&
    view.peers.length === 3 &&
    view.peers.every((peer) => peer.current)
  );
}

/**
 * Run by Node in the lab's build: the project's own ensureStreams (as every
 * service runs it at boot) with the replicas asked, tried again while the cluster is
 * still electing; prints the stream names. (tools/ may not import the libs.)
 */
const ENSURE_STREAMS = `
const [dist, servers, prefix, replicas, deadline] = process.argv.slice(1);
require('reflect-metadata');
const { ensureStreams } = require(dist + '/libs/platform/src');
const { allStreams } = require(dist + '/libs/contracts/src');
const { jetstreamManager } = require('@nats-io/jetstream');
const { connect } = require('@nats-io/transport-node');
(async () => {
  const nats = await connect({ servers: servers.split(',') });
  const streams = allStreams(prefix);
  for (;;) {
    try {
      await ensureStreams(await jetstreamManager(nats, { timeout: 10000 }), streams, Number(replicas));
      break;
    } catch (error) {
      if (Date.now() > Number(deadline)) throw error;
      await new Promise((done) => setTimeout(done, 500));
    }
  }
  await nats.close();
  process.stdout.write(JSON.stringify(streams.map((stream) => stream.name)));
})().catch((error) => {
  process.stderr.write(String(error && error.stack || error));
  process.exit(1);
});
`;

function ensureStreamsInBuild(
  layout: LabLayout,
  natsPrefix: string,
  replicas: number,
  timeoutMs: number,
) {
  return new Promise<string[]>((resolve, reject) => {
    const servers = NODE_HOSTS.map((host) => layout.natsUrl(host)).join(',');
    const child = spawn(
      process.execPath,
      [
        ...['-e', ENSURE_STREAMS, layout.distDir, servers, natsPrefix, String(replicas)],
        String(Date.now() + timeoutMs),
      ],
      { cwd: join(layout.stateDir, 'run'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as string[])
        : reject(new Error(`creating the streams failed: ${err.trim()}`)),
    );
  });
}

/**
 * Creates the streams (STS_TRADE_COMMANDS, STS_EVENTS) with NATS_REPLICAS and
 * waits until each has a leader and all copies current: the first services'
 * boots then find them, instead of racing each other to create them on a
 * cluster still electing (a gateway timed out so at its first boot).
 */
export async function createStreams(
  layout: LabLayout,
  natsPrefix: string,
  replicas: number,
  timeoutMs: number,
): Promise<void> {
  const names = await ensureStreamsInBuild(layout, natsPrefix, replicas, timeoutMs);
  await waitFor(
    `every stream with a leader and ${replicas} current copies`,
    async () => {
      const views = await streamViews(layout);
      return names.every((name) => {
        const view = views.find((each) => each.name === name);
        return view?.copies.length === replicas && view.copies.every((copy) => copy.current);
      });
    },
    timeoutMs,
    250,
  );
}
