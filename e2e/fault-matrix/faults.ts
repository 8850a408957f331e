import type { SimControl } from '@sts/app-venue-sim';
import type { TradeUnderTest } from './checks';
import type { LocalWorld } from './local-world';
import { PAIRS, type MarketDriver } from './market';
import { delay } from './processes';
import type { MatrixWorld } from './world';

/** How long a dependency or venue stays broken. */
export const FAULT_MS = 3_000;
/**
 * A frozen venue stays frozen longer than a hedge may take (hedge_timeout_ms,
 * 3 s): a hedge sent into the freeze times out, and what the venue does with
 * it after the thaw must match what the trade reported.
 */
export const FREEZE_MS = 5_000;

export interface FaultContext<W extends MatrixWorld = LocalWorld> {
  /** The fleet and its services (the matrix's own, or a lab of hosts). */
  world: W;
  sim: SimControl;
  market: MarketDriver;
  /** One statement on the private database (e.g. who holds which lease). */
  query: <T = any>(sql: string, params?: unknown[]) => Promise<T[]>;
  /** The fault's trades (their wallets scope venue faults to them). */
  trades: TradeUnderTest[];
  /** Notes for the report (which process was killed, its pid...). */
  note: (text: string) => void;
  /** A figure the fault measured (ms), for the report and the spec's bounds. */
  measure: (figure: string, ms: number) => void;
}

export interface Fault<W extends MatrixWorld = LocalWorld> {
  name: string;
  what: string;
  /** Breaks something, keeps it broken for about FAULT_MS and mends it; resolves when mended. */
  inject: (context: FaultContext<W>) => Promise<void>;
}

const VENUES = ['hyperliquid', 'paradex', 'lighter', 'aster'];

/** One pair's hedge venue and the other pair's maker venue. */
const FROZEN = ['paradex', 'lighter'];

const freeze =
  (mode: 'hang' | 'halt'): Fault['inject'] =>
  async ({ sim, market, note }) => {
    for (const venue of FROZEN) {
      market.frozen.add(venue);
    }
    try {
      for (const venue of FROZEN) {
        await sim.freeze(venue, mode);
      }
      // A maker fill the moment the freeze begins on every pair whose hedge venue froze: its
      // hedge goes into the freeze for certain (the driver's takers may or may not land there).
      for (const pair of PAIRS) {
        if (!FROZEN.includes(pair.hedge.venue) || FROZEN.includes(pair.maker.venue)) {
          continue;
        }
        await sim.trade(pair.maker.venue, pair.maker.symbol, pair.maker.takerSide, '0.02');
      }
      note(
        `${FROZEN.join(', ')} frozen (${mode}) ${FREEZE_MS} ms, a taker on the makers hedged there`,
      );
      await delay(FREEZE_MS);
    } finally {
      for (const venue of FROZEN) {
        await sim.thaw(venue);
      }
      for (const venue of FROZEN) {
        market.frozen.delete(venue);
      }
    }
  };

export const FAULTS: Fault[] = [
  {
    name: 'postgres',
    what: 'private Postgres stopped (fast shutdown) and started again on its port after 3 s',
    inject: async ({ world: { services }, note }) => {
      const { stoppedAt, upAt } = await services.restart('postgres', FAULT_MS);
      note(`postgres down ${upAt - stoppedAt} ms`);
    },
  },
  {
    name: 'postgres-crash',
    what: 'private Postgres postmaster killed (SIGKILL: crash recovery at the next start), started again on its port after 3 s',
    inject: async ({ world: { services }, note }) => {
      const { stoppedAt, upAt, starts } = await services.restart('postgres', FAULT_MS, 'SIGKILL');
      note(`postgres down ${upAt - stoppedAt} ms (${starts} start${starts > 1 ? 's' : ''})`);
    },
  },
  {
    name: 'nats',
    what: 'private NATS (JetStream) killed (SIGKILL) and started again on its port and store after 3 s',
    inject: async ({ world: { services }, note }) => {
      const { stoppedAt, upAt } = await services.restart('nats', FAULT_MS);
      note(`nats down ${upAt - stoppedAt} ms`);
    },
  },
  {
    name: 'redis',
    what: 'private Redis (no persistence) killed (SIGKILL) and started again empty after 3 s',
    inject: async ({ world: { services }, note }) => {
      const { stoppedAt, upAt } = await services.restart('redis', FAULT_MS);
      note(`redis down ${upAt - stoppedAt} ms`);
    },
  },
  {
    name: 'worker-kill',
    what: 'kill -9 of one of the two worker processes; a replacement starts 3 s later',
    inject: async ({ world: { fleet }, query, trades, note }) => {
      // The victim is the worker holding most of the fault's trades.
      const leases = await query<{ owner: string; n: number }>(
        `SELECT lease_owner AS owner, count(*)::int AS n FROM trades WHERE id = ANY($1) GROUP BY 1 ORDER BY 2 DESC`,
        [trades.map((t) => t.tradeId)],
      );
      const live = fleet.liveWorkers();
      const victim = live.find((w) => w.id === leases[0]?.owner) ?? live[0];
      note(
        `killed ${victim.id} (pid ${victim.process.pid}) holding ${leases.find((l) => l.owner === victim.id)?.n ?? 0} of ${trades.length} trades`,
      );
      await victim.process.stop('SIGKILL');
      await delay(FAULT_MS);
      const replacement = await fleet.addWorker();
      note(`replacement ${replacement.id}`);
    },
  },
  {
    name: 'budget-kill',
    what: 'kill -9 of the budget service, started again after 3 s',
    inject: async ({ world: { fleet }, note }) => {
      const budget = fleet.byService('budget');
      note(`killed budget (pid ${budget.process.pid})`);
      await budget.process.stop('SIGKILL');
      await delay(FAULT_MS);
      await fleet.restart(budget);
    },
  },
  {
    name: 'venue-hang',
    what: `venues ${FROZEN.join(' and ')} frozen with mode hang (requests hang) for 5 s, then thawed`,
    inject: freeze('hang'),
  },
  {
    name: 'venue-halt',
    what: `venues ${FROZEN.join(' and ')} frozen with mode halt (503 venue_halted) for 5 s, then thawed`,
    inject: freeze('halt'),
  },
  {
    name: 'drop-ws',
    what: 'every socket of the four venues cut, reconnects refused for 3 s, while the maker venues answer 200 ms late and re-quotes are in flight',
    inject: async ({ sim, note }) => {
      // The cut lands while re-quotes are in flight: the makers' venues answer 200 ms late
      // (book updates too), the makers' books jump, and the sockets go 260 ms later, after
      // the workers have sent their replaces and before the answers come back.
      const makers = PAIRS.map((pair) => pair.maker);
      for (const maker of makers) {
        await sim.setLatency(maker.venue, 200);
      }
      try {
        for (const maker of makers) {
          await sim.jumpVenue(maker.venue, maker.safeJumpBps);
        }
        await delay(260);
        let dropped = 0;
        for (const venue of VENUES) {
          dropped += (await sim.dropSockets(venue, FAULT_MS)).dropped;
        }
        note(`${dropped} sockets dropped`);
      } finally {
        for (const maker of makers) {
          await sim.setLatency(maker.venue, 0);
        }
      }
      await delay(FAULT_MS);
    },
  },
  {
    name: 'lost-answers',
    what: "each trade's next maker placement or replace executes on the venue but its answer is lost and the socket cut, reconnects refused 3 s (lose-next after+drop)",
    inject: async ({ world, sim, trades, note }) => {
      let rules = 0;
      for (const trade of trades) {
        if (!trade.pair) {
          continue;
        }
        const response = await fetch(
          `${world.simUrl}/control/venues/${trade.pair.maker.venue}/lose-next`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              count: 1,
              op: 'any',
              order_type: 'post_only',
              wallet: trade.trader.wallet,
              at: 'after',
              then: 'drop',
              block_ms: FAULT_MS,
            }),
          },
        );
        if (!response.ok) {
          throw new Error(`lose-next answered ${response.status}: ${await response.text()}`);
        }
        rules += 1;
      }
      await delay(FAULT_MS);
      // Did the fault bite? A rule leaves the state once a request has met it.
      const state = JSON.stringify(await sim.state()).toLowerCase();
      const left = trades.filter((t) => state.includes(t.trader.wallet.toLowerCase())).length;
      note(
        `${rules - left} of ${rules} lose-next rules met an order request (one per trade's maker account)`,
      );
    },
  },
  {
    name: 'latency',
    what: '300 ms added to every request and stream message of the four venues for 3 s',
    inject: async ({ sim }) => {
      try {
        for (const venue of VENUES) {
          await sim.setLatency(venue, 300);
        }
        await delay(FAULT_MS);
      } finally {
        for (const venue of VENUES) {
          await sim.setLatency(venue, 0);
        }
      }
    },
  },
];

/** `FAULT=postgres,drop-ws` runs those alone (a name may repeat); unset runs every fault. */
export function selectFaults(selection = process.env['FAULT']): Fault[] {
  if (!selection) {
    return FAULTS;
  }
  const names = selection
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !FAULTS.some((fault) => fault.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown FAULT ${unknown.join(', ')}; known: ${FAULTS.map((f) => f.name).join(', ')}`,
    );
  }
  // In the order given, repeats kept: FAULT=postgres,postgres,postgres hunts a rare race.
  return names.map((name) => FAULTS.find((fault) => fault.name === name)!);
}
