import {
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { StreamDefinition } from '@sts/contracts';
import { sleep } from '../timing/sleep';

const nanos = (ms: number): number => ms * 1_000_000;

const isStreamNotFound = (error: unknown): boolean =>
  error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;

/** JetStream's refusals of a replica count: no cluster (10074), too few servers for it (10005, 10023). */
const REPLICA_REFUSALS = new Set([10074, 10005, 10023]);
const NOT_CLUSTERED = 10074;

/** The NATS servers cannot hold `NATS_REPLICAS` copies of a stream or bucket. */
export class NatsReplicasError extends Error {
  constructor(
    replicas: number,
    what: string,
    detail: string,
    /** False when the servers are no cluster at all; true when too few of its peers answer (yet). */
    readonly clustered = true,
  ) {
    super(
      `NATS_REPLICAS=${replicas}: JetStream refused ${what} with ${replicas} replicas (${detail}); ` +
        'set NATS_REPLICAS to at most the number of JetStream servers in the NATS cluster (1 without a cluster)',
    );
    this.name = 'NatsReplicasError';
  }
}

/** A replica count JetStream refused, as a NatsReplicasError; any other error as it is. */
export function replicasRefusal(error: unknown, replicas: number, what: string): unknown {
  return error instanceof JetStreamApiError && REPLICA_REFUSALS.has(error.code)
    ? new NatsReplicasError(replicas, what, error.message, error.code !== NOT_CLUSTERED)
    : error;
}

/**
 * Creates or updates the streams with `replicas` copies each (NATS_REPLICAS);
 * safe to run from every replica at every boot. A count the NATS cluster
 * cannot hold fails the boot (NatsReplicasError).
 */
export async function ensureStreams(
  jsm: JetStreamManager,
  streams: StreamDefinition[],
  replicas = 1,
): Promise<void> {
  for (const stream of streams) {
    try {
      await ensureStream(jsm, stream, replicas);
    } catch (error) {
      throw replicasRefusal(error, replicas, `stream ${stream.name}`);
    }
  }
}

/** How long a service's boot waits for JetStream to answer (a cluster electing its leaders). */
export const JETSTREAM_BOOT_WAIT_MS = 60_000;
const BOOT_RETRY_MS = 500;

/**
 * `ensureStreams` at a service's boot: retried while JetStream does not
 * answer (a node that just came back, a cluster still electing its meta or
 * stream leaders, or still forming: too few peers for the replicas yet), for
 * `waitMs`, then its last refusal; replicas asked of a server that is no
 * cluster fail at once. Resolves with the manager it used.
 */
export async function ensureStreamsAtBoot(
  nats: NatsConnection,
  streams: StreamDefinition[],
  replicas = 1,
  options: { waitMs?: number; onRetry?: (error: unknown) => void } = {},
): Promise<JetStreamManager> {
  const deadline = Date.now() + (options.waitMs ?? JETSTREAM_BOOT_WAIT_MS);
  for (;;) {
    try {
      const jsm = await jetstreamManager(nats);
      await ensureStreams(jsm, streams, replicas);
      return jsm;
    } catch (error) {
      if ((error instanceof NatsReplicasError && !error.clustered) || Date.now() >= deadline) {
        throw error;
      }
      options.onRetry?.(error);
      await sleep(BOOT_RETRY_MS);
    }
  }
}

async function ensureStream(
  jsm: JetStreamManager,
  stream: StreamDefinition,
  replicas: number,
): Promise<void> {
  const config = {
    name: stream.name,
    subjects: stream.subjects,
    retention:
      stream.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(stream.maxAgeMs),
    duplicate_window: nanos(stream.duplicateWindowMs),
    num_replicas: replicas,
  };
  try {
    await jsm.streams.info(stream.name);
    await jsm.streams.update(stream.name, config);
  } catch (error) {
    if (!isStreamNotFound(error)) {
      throw error;
    }
    await jsm.streams.add(config);
  }
}
