import { join } from 'node:path';
import { SimControl } from '@sts/app-venue-sim';
import { eventsStream } from '@sts/contracts';
import { TestOperator } from '@sts/testing';
import { HOST_SERVICES, HOSTS, Lab, type LabInfo, type NodeHost } from '@sts/lab';
import { untilDrained } from '../fault-matrix/api';
import { delay } from '../fault-matrix/processes';
import type { MatrixWorld, ServiceLog } from '../fault-matrix/world';

/** The lease the lab's workers hold: renewed every 1.33 s, in doubt at 2.6 s, untrusted at 3.2 s. */
export const LAB_LEASE_TTL_MS = 4_000;
/** What a paper venue lets a request live (request timeout 5 s plus the expiry margin). */
export const PAPER_REQUEST_BOUND_MS = 5_250;
/** The least a gateway taken out of the front door is drained (requests on their way in). */
const DRAIN_MIN_MS = 1_000;
/** How long a fault waits for the NATS cluster left by the one before to be whole. */
const WHOLE_WITHIN_MS = Number(process.env['PARTITION_WHOLE_WITHIN_MS'] ?? 30_000);

/** A notifier's place in the events stream from its /metrics (its events series). */
async function notifierPlace(metricsUrl: string | undefined): Promise<string> {
  if (!metricsUrl) {
    return 'no metrics';
  }
  try {
    const text = await (
      await fetch(`${metricsUrl}/metrics`, { signal: AbortSignal.timeout(2_000) })
    ).text();
    return text
      .split('\n')
      .filter((line) => line.startsWith('sts_notifier_events_'))
      .map((line) => line.replace(/\{[^}]*reason="(\w+)"[^}]*\}/, '[$1]').replace(/\{[^}]*\}/, ''))
      .join(' ');
  } catch (error) {
    return `metrics not read: ${String(error)}`;
  }
}

/**
 * The partition suite's world: the fleet on a lab of network hosts
 * (`tools/lab`): Postgres, Redis and the venues on `infra`, a NATS node and
 * a worker on each of h1..h3, gateways, notifiers and budget services on h1
 * and h2. The suite's clients use one gateway, the front door, moved off a
 * host before a fault strikes it, as a load balancer with health checks
 * would; the lifecycle is watched on both notifiers.
 */
export class LabWorld implements MatrixWorld {
  readonly lab: Lab;
  private info!: LabInfo;
  /** Where the suite's API clients go (never a struck host). */
  private frontDoor: 'h1' | 'h2' = 'h2';
  sim!: SimControl;
  readonly operator = new TestOperator(() => ({ ...this.info.env, LOG_LEVEL: 'warn' }));

  constructor(
    logDir: string,
    private readonly seed: number,
  ) {
    this.lab = new Lab({
      name: process.env['LAB_NAME'] ?? 'stspart',
      net: Number(process.env['LAB_NET'] ?? 79),
      stateDir: join(logDir, 'lab'),
    });
  }

  get databaseUrl(): string {
    return this.info.databaseUrl;
  }

  get gatewayUrl(): string {
    return this.info.gateways[this.frontDoor];
  }

  get notifierUrl(): string {
    return this.info.notifiers[this.frontDoor];
  }

  get notifierUrls(): string[] {
    return [this.info.notifiers.h1, this.info.notifiers.h2];
  }

  /**
   * Moves the clients' front door off `host` before a fault strikes it, and
   * lets the requests in flight there finish (a load balancer's connection
   * draining): a create the struck gateway is still answering (a 503 can
   * take its whole deadline, 4 s, on a loaded machine) would otherwise lose
   * its answer to the fault, a hang no client of a real deployment sees.
   */
  async spare(host: NodeHost): Promise<void> {
    if (host === this.frontDoor) {
      const leaving = this.gatewayUrl;
      this.frontDoor = host === 'h1' ? 'h2' : 'h1';
      await delay(DRAIN_MIN_MS);
      await untilDrained(leaving);
    }
  }

  /**
   * True once the NATS cluster is whole within `boundMs`: a meta leader every
   * node follows, all three peers current, every stream led with its copies
   * current (a revived node catches up some seconds after the fleet recovered).
   */
  async natsWhole(boundMs: number): Promise<boolean> {
    const deadline = Date.now() + boundMs;
    for (;;) {
      const [cluster, streams] = await Promise.all([this.lab.natsCluster(), this.lab.streams()]);
      const whole =
        cluster.metaLeaderHost !== undefined &&
        cluster.peers.length === 3 &&
        cluster.peers.every((peer) => peer.current) &&
        streams.length > 0 &&
        streams.every((s) => s.leaderHost && s.copies.every((copy) => copy.current));
      if (whole || Date.now() >= deadline) {
        return whole;
      }
      await delay(250);
    }
  }

  /**
   * Each fault starts on a whole NATS cluster. nats-server 2.9.10 (this
   * machine's) has left a stream's copy on a rejoined node not current for
   * minutes after repeated partitions (CI, 2026-12-02: STS_TRADE_COMMANDS on
   * h2 for over two minutes, every later fault refused to strike): when the
   * cluster is not whole within 30 s, the lab is started afresh, and the
   * report says so (`PARTITION_FRESH_LAB=1`: before every fault). So is it
   * after a fault that failed: a CI run (2026-12-05) had every notifier socket
   * quiet from a quorum loss on, and the faults after it (their retries too)
   * failed on what it left, not on what they struck.
   */
  async beforeFault(note: (text: string) => void, afterFailure: boolean): Promise<void> {
    if (process.env['PARTITION_FRESH_LAB'] === '1') {
      note('lab started afresh (PARTITION_FRESH_LAB=1)');
    } else if (afterFailure) {
      note('the fault before failed: lab started afresh, so what it left fails no other fault');
    } else if (await this.natsWhole(WHOLE_WITHIN_MS)) {
      return;
    } else {
      note(
        `NATS cluster not whole ${WHOLE_WITHIN_MS} ms after the fault before: lab started afresh`,
      );
    }
    await this.stop();
    await this.start();
  }

  /**
   * The events stream as each node's copy stands (its last sequence, the
   * consumers it leads and where they stand) and each notifier's place in it.
   */
  async diagnoseDelivery(): Promise<string> {
    const stream = eventsStream(this.info.env['NATS_PREFIX']).name;
    const [views, copies, notifiers] = await Promise.all([
      this.lab.streams(),
      this.lab.streamCopies(stream),
      Promise.all(
        (['h1', 'h2'] as const).map(
          async (host) => `${host} ${await notifierPlace(this.info.metrics[`${host}/notifier`])}`,
        ),
      ),
    ]);
    const view = views.find((candidate) => candidate.name === stream);
    const copiesText = copies
      .map(
        (copy) =>
          `${copy.host} last ${copy.lastSeq ?? '-'} consumers [${copy.consumers.map((c) => `${c.name}@${c.delivered ?? '-'}`).join(' ')}]`,
      )
      .join('; ');
    return `${stream} leader ${view?.leaderHost ?? 'none'} copies ${JSON.stringify(view?.copies ?? [])}; ${copiesText}; notifiers ${notifiers.join('; ')}`;
  }

  get simUrl(): string {
    return this.info.sim;
  }

  /** The worker on a node host (`lab-w1` on h1). */
  workerId(host: NodeHost): string {
    return `lab-w${host.slice(1)}`;
  }

  hostOfWorker(workerId: string): NodeHost | undefined {
    const match = /^lab-w([123])$/.exec(workerId);
    return match ? (`h${match[1]}` as NodeHost) : undefined;
  }

  logs(): ServiceLog[] {
    return HOSTS.flatMap((host) =>
      HOST_SERVICES[host].map((service) => ({
        id: `${host}-${service}`,
        service,
        logFile: this.lab.logFile(host, service),
      })),
    );
  }

  async start(): Promise<void> {
    this.info = await this.lab.up({
      seed: this.seed,
      simTickMs: 0,
      worker: {
        leaseTtlMs: LAB_LEASE_TTL_MS,
        takeoverScanMs: 250,
        maintenancePollMs: 500,
        shutdownGraceMs: 3_000,
      },
      serviceEnv: { gateway: { GATEWAY_RATE_LIMIT_PER_S: '100000' } },
    });
    this.sim = new SimControl(this.info.sim);
  }

  async stop(): Promise<void> {
    await this.lab.down();
  }
}
