import { idempotencyKey } from '../fault-matrix/api';
import { TERMINAL } from '../fault-matrix/checks';
import type { Fault, FaultContext } from '../fault-matrix/faults';
import { delay } from '../fault-matrix/processes';
import { neverFilling } from '../fault-matrix/traffic';
import type { NodeHost } from '@sts/lab';
import { LAB_LEASE_TTL_MS, PAPER_REQUEST_BOUND_MS, type LabWorld } from './lab-world';

type Context = FaultContext<LabWorld>;
type LabFault = Fault<LabWorld>;

/** How long a dependency stays broken where nothing has to pass meanwhile. */
const HOLD_MS = 4_000;
/**
 * A dead or cut-off worker's trades run again on another host within its
 * lease, the venues' request bound counted from when it stopped trusting the
 * lease, and the takeover's own work (a scan, each trade's venues opened and
 * read back: 4 s for a dozen trades on two workers of a loaded 2-core lab).
 */
export const RESUME_BOUND_MS = LAB_LEASE_TTL_MS + PAPER_REQUEST_BOUND_MS + 4_000;
/** A cut-off worker's maker orders are down before it stops trusting its lease (80 %). */
export const MAKER_DOWN_BOUND_MS = LAB_LEASE_TTL_MS * 0.8;
const NODE_HOSTS: NodeHost[] = ['h1', 'h2', 'h3'];
const LIVE = (status: string) => !TERMINAL.has(status);

/**
 * The host whose worker holds most of the fault's live trades, and those
 * trades; the clients' front door moves off it.
 */
async function victim(context: Context): Promise<{ host: NodeHost; tradeIds: string[] }> {
  const rows = await context.query<{ id: string; owner: string | null; status: string }>(
    `SELECT id, lease_owner AS owner, status FROM trades WHERE id = ANY($1)`,
    [context.trades.map((t) => t.tradeId)],
  );
  const held = (host: NodeHost) =>
    rows
      .filter((row) => LIVE(row.status) && row.owner === context.world.workerId(host))
      .map((row) => row.id);
  const host = NODE_HOSTS.reduce((best, each) =>
    held(each).length > held(best).length ? each : best,
  );
  await context.world.spare(host);
  context.note(`${host} (worker ${context.world.workerId(host)}) held ${held(host).length} trades`);
  return { host, tradeIds: held(host) };
}

/** Ms from `since` until `holds` (asked every `intervalMs`), or null once `boundMs` passed. */
async function msUntil(
  since: number,
  boundMs: number,
  intervalMs: number,
  holds: () => Promise<boolean>,
): Promise<number | null> {
  while (Date.now() - since <= boundMs) {
    if (await holds().catch(() => false)) {
      return Date.now() - since;
    }
    await delay(intervalMs);
  }
  return null;
}

/**
 * Every one of `tradeIds` still live has been recovered by another worker
 * (its `recovery_completed` written after `since`).
 */
async function resumed(context: Context, tradeIds: string[], since: number): Promise<boolean> {
  const waiting = await context.query<{ id: string }>(
    `SELECT t.id FROM trades t
     WHERE t.id = ANY($1) AND t.status NOT IN ('completed', 'canceled', 'failed', 'rejected')
       AND NOT EXISTS (SELECT 1 FROM trade_events e WHERE e.trade_id = t.id
         AND e.event_type = 'recovery_completed' AND e.created_at > $2)`,
    [tradeIds, new Date(since)],
  );
  return waiting.length === 0;
}

/** None of `tradeIds` has a maker order resting on its venue (each trade has a wallet of its own). */
async function makerOrdersDown(context: Context, tradeIds: string[]): Promise<boolean> {
  for (const trade of context.trades.filter((t) => tradeIds.includes(t.tradeId) && t.pair)) {
    const { orders } = await context.sim.accountOrders(
      trade.pair!.maker.venue,
      trade.trader.wallet,
      { status: 'open' },
    );
    if (orders.some((order) => order.type === 'post_only')) {
      return false;
    }
  }
  return true;
}

/** Holds a fault on the victim's host until its trades run elsewhere; measures both figures. */
async function untilResumed(
  context: Context,
  tradeIds: string[],
  struckAt: number,
  options: { makerDown?: boolean } = {},
): Promise<void> {
  if (options.makerDown) {
    const down = await msUntil(struckAt, LAB_LEASE_TTL_MS, 50, () =>
      makerOrdersDown(context, tradeIds),
    );
    context.measure('maker_down', down ?? -1);
  }
  const resumedMs = await msUntil(struckAt, RESUME_BOUND_MS + 5_000, 200, () =>
    resumed(context, tradeIds, struckAt),
  );
  context.measure('resume', resumedMs ?? -1);
}

/** Waits until the NATS cluster is whole again, as a fault striking NATS again needs. */
async function untilNatsWhole(context: Context, boundMs = 30_000): Promise<void> {
  if (!(await context.world.natsWhole(boundMs))) {
    throw new Error(`the NATS cluster was not whole within ${boundMs} ms`);
  }
}

/**
 * Strikes the host whose worker holds most of the fault's live trades, holds
 * the strike until those trades run elsewhere (measuring it), then mends it.
 */
const strikeBusiest =
  (
    strike: (context: Context, host: NodeHost) => Promise<unknown>,
    mend: (context: Context, host: NodeHost) => Promise<void>,
    options: { makerDown?: boolean } = {},
  ): LabFault['inject'] =>
  async (context) => {
    const { host, tradeIds } = await victim(context);
    const struckAt = Date.now();
    await strike(context, host);
    try {
      await untilResumed(context, tradeIds, struckAt, options);
    } finally {
      await mend(context, host);
    }
  };

/** Creates a trade that never fills (its target spread is out of reach) through the API. */
async function createProbe(context: Context): Promise<{ status: number; tradeId?: string }> {
  const trader = context.trades[0].trader;
  const response = await fetch(`${context.world.gatewayUrl}/api/v1/trades`, {
    method: 'POST',
    headers: { ...trader.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...neverFilling(trader.wallet), idempotency_key: idempotencyKey() }),
    signal: AbortSignal.timeout(5_000),
  }).catch(() => null);
  if (!response) {
    return { status: 0 };
  }
  const body = (await response.json().catch(() => ({}))) as { trade_id?: string };
  return { status: response.status, tradeId: body.trade_id };
}

export const PARTITION_FAULTS: LabFault[] = [
  {
    name: 'isolate-host',
    what: 'the host whose worker holds most trades cut off from every other host (all traffic on its veth dropped) until its trades run elsewhere',
    // Cut from the venues too, it cannot take its orders down: the takeover does.
    inject: strikeBusiest(
      (context, host) => context.world.lab.isolate(host),
      (context, host) => context.world.lab.heal(host),
    ),
  },
  {
    name: 'cut-infra',
    what: 'a worker host cut off from NATS and Postgres (and Redis) but not from the venues, until its trades run elsewhere: its maker orders must come down before it stops trusting its lease',
    inject: strikeBusiest(
      (context, host) => context.world.lab.cutInfra(host),
      (context, host) => context.world.lab.heal(host),
      { makerDown: true },
    ),
  },
  {
    name: 'kill-host',
    what: 'every process of the host whose worker holds most trades killed (SIGKILL; its NATS node, and on h1 a gateway, notifier and budget service), started again once its trades run elsewhere',
    inject: strikeBusiest(
      async (context, host) => {
        const pids = await context.world.lab.kill(host);
        context.note(`killed ${pids.length} processes on ${host}`);
      },
      (context, host) => context.world.lab.revive(host),
    ),
  },
  {
    name: 'kill-meta-leader',
    what: 'the JetStream meta leader killed (SIGKILL), started again on its store after 4 s',
    inject: async (context) => {
      await untilNatsWhole(context);
      const { host, server } = await context.world.lab.killNatsMetaLeader();
      context.note(`killed meta leader ${server} on ${host}`);
      await delay(HOLD_MS);
      await context.world.lab.reviveNats(host);
    },
  },
  {
    name: 'kill-stream-leader',
    what: 'the leader of the lifecycle EVENTS stream killed (SIGKILL), started again on its store after 4 s',
    inject: async (context) => {
      await untilNatsWhole(context);
      const { host, server, stream } = await context.world.lab.killNatsStreamLeader('EVENTS');
      context.note(`killed ${stream} leader ${server} on ${host}`);
      await delay(HOLD_MS);
      await context.world.lab.reviveNats(host);
    },
  },
  {
    name: 'quorum-loss',
    what: 'two of the three NATS nodes killed for 4 s (no JetStream quorum): creates are answered 503 or accepted and started once the quorum is back; reads keep answering',
    inject: async (context) => {
      const { lab } = context.world;
      await untilNatsWhole(context);
      const struck: NodeHost[] = ['h1', 'h3'];
      await context.world.spare('h1');
      for (const host of struck) {
        process.kill(lab.pid(host, 'nats')!, 'SIGKILL');
      }
      const accepted: string[] = [];
      const statuses: number[] = [];
      const until = Date.now() + HOLD_MS;
      while (Date.now() < until) {
        const answer = await createProbe(context);
        statuses.push(answer.status);
        if (answer.status === 202 && answer.tradeId) {
          accepted.push(answer.tradeId);
        }
        await delay(500);
      }
      context.note(`creates without a quorum answered ${statuses.join(' ')}`);
      for (const host of struck) {
        await lab.reviveNats(host);
      }
      const startedMs = await msUntil(Date.now(), 20_000, 200, () => started(context, accepted));
      if (startedMs === null) {
        throw new Error(`trades accepted without a quorum not started 20 s after its return`);
      }
      context.measure('accepted_started', startedMs);
      for (const tradeId of accepted) {
        await fetch(`${context.world.gatewayUrl}/api/v1/trades/${tradeId}`, {
          method: 'DELETE',
          headers: context.trades[0].trader.headers,
        });
      }
    },
  },
  {
    name: 'netem',
    what: '200 ms and 5 % loss on every host’s link, both ways, for 4 s',
    inject: async (context) => {
      await context.world.lab.delay(200, 5);
      try {
        await delay(HOLD_MS);
      } finally {
        await context.world.lab.heal();
      }
    },
  },
  {
    name: 'clock-skew',
    what: 'the wall clock of the host whose worker holds most trades 5 s ahead (libfaketime) for 6 s',
    inject: async (context) => {
      const { host } = await victim(context);
      await context.world.lab.skew(host, 5);
      try {
        await delay(6_000);
      } finally {
        await context.world.lab.heal(host);
      }
    },
  },
];

/** Every trade accepted while the quorum was lost has left `pending` (its start command came). */
async function started(context: Context, tradeIds: string[]): Promise<boolean> {
  const rows = await context.query<{ status: string }>(
    `SELECT status FROM trades WHERE id = ANY($1)`,
    [tradeIds],
  );
  return rows.length === tradeIds.length && rows.every((row) => row.status !== 'pending');
}

/** `PARTITION_FAULT=cut-infra,netem` runs those alone; unset runs every fault. */
export function selectPartitionFaults(selection = process.env['PARTITION_FAULT']): LabFault[] {
  if (!selection) {
    return PARTITION_FAULTS;
  }
  const names = selection.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !PARTITION_FAULTS.some((f) => f.name === name));
  if (unknown.length > 0) {
    throw new Error(`unknown PARTITION_FAULT ${unknown.join(', ')}`);
  }
  return names.map((name) => PARTITION_FAULTS.find((fault) => fault.name === name)!);
}
