import Big from 'big.js';
import {
  CcxtVenueClient,
  type CcxtVenueClientOptions,
  clientOrderIds,
  createCcxtExchange,
  minimumSize,
  type BookUpdate,
  type VenueClient,
} from '@sts/venues';
import type { Profile } from '../dialects/dialect-profiles';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import {
  harnessWallet,
  liveAccountCredentials,
  liveTestOptions,
  openLiveAccount,
} from '../testing/live-harness';
import { SimControl } from '../testing/sim-control';
import type { DeadManState } from './dead-man-switches';

/**
 * A venue's dialect in manual time and the live client (`CcxtVenueClient`
 * over unmodified ccxt) of one funded account on it, for the dead-man
 * switch specs: the client arms the venue's switch, time passes for the
 * switches alone (`POST /control/dead-man/elapse`), and the simulator's own
 * records say what was canceled.
 */
export class DeadManWorld {
  private constructor(
    readonly venue: string,
    readonly symbol: string,
    readonly sim: RunningVenueSim,
    readonly control: SimControl,
    readonly client: VenueClient,
    readonly wallet: string,
  ) {}

  static async start(
    venue: string,
    symbol: string,
    label: string,
    profile: Profile = {},
    client: Pick<CcxtVenueClientOptions, 'restingMarketLingerMs'> = {},
  ): Promise<DeadManWorld> {
    const sim = await startVenueSim({
      seed: 31,
      tickMs: 0,
      dialectProfiles: { [venue]: profile },
    });
    const control = new SimControl(sim.url);
    const credentials = await liveAccountCredentials(venue, sim.url, label);
    const exchange = await createCcxtExchange(venue, credentials, {
      endpoint: `${sim.url}/dialects/${venue}`,
      ...liveTestOptions(venue),
    });
    const wallet = harnessWallet(label).address;
    await openLiveAccount(venue, exchange, control, wallet);
    const live = new CcxtVenueClient({ venue, exchange, ...client });
    await live.connect();
    return new DeadManWorld(venue, symbol, sim, control, live, wallet);
  }

  get deadMan() {
    const { deadManSwitch } = this.client;
    if (!deadManSwitch) {
      throw new Error(`${this.venue}: the live client has no dead-man switch`);
    }
    return deadManSwitch;
  }

  private readonly nextId = clientOrderIds('dm');

  /** Post-only buys far from the touch, resting on the venue. */
  async rest(count: number): Promise<void> {
    const market = (await this.client.markets()).find((m) => m.entry.symbol === this.symbol)!;
    const top = await this.book();
    const price = new Big(top.bestBid!).minus(new Big(market.entry.tick_size).times(50)).toFixed();
    const size = minimumSize(market, top.bestAsk!);
    for (let i = 0; i < count; i += 1) {
      const clientOrderId = this.nextId();
      await this.client.placePostOnly({
        symbol: this.symbol,
        side: 'buy',
        price,
        size,
        clientOrderId,
      });
    }
  }

  /** IOC buys at the best ask, minimum size each: they take what is there and never rest. */
  async take(count: number): Promise<void> {
    const market = (await this.client.markets()).find((m) => m.entry.symbol === this.symbol)!;
    const top = await this.book();
    const size = minimumSize(market, top.bestAsk!);
    for (let i = 0; i < count; i += 1) {
      await this.client.placeIoc({
        symbol: this.symbol,
        side: 'buy',
        price: top.bestAsk!,
        size,
        clientOrderId: this.nextId(),
      });
    }
  }

  /** How many of the account's orders the simulator holds in each status. */
  async statuses(): Promise<Record<string, number>> {
    const { orders } = await this.control.accountOrders(this.venue, this.wallet);
    const counts: Record<string, number> = {};
    for (const { status } of orders) {
      counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  }

  /** The switch as the venue holds it (`GET /control/venues/:venue/accounts/:wallet/dead-man`). */
  async state(): Promise<DeadManState> {
    const path = `/control/venues/${this.venue}/accounts/${this.wallet}/dead-man`;
    return (await fetch(`${this.sim.url}${path}`)).json() as Promise<DeadManState>;
  }

  /** Time passes for the switches: every one due within `ms` fires. */
  async elapse(ms: number): Promise<DeadManState[]> {
    const response = await fetch(`${this.sim.url}/control/dead-man/elapse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms }),
    });
    return ((await response.json()) as { fired: DeadManState[] }).fired;
  }

  async stop(): Promise<void> {
    await this.client.close();
    await this.sim.stop();
  }

  /** The market's two-sided book: subscribed, the world stepped until the stream shows it. */
  private async book(): Promise<BookUpdate> {
    let latest: BookUpdate | undefined;
    const off = this.client.on('book', (update) => {
      if (update.symbol === this.symbol && update.bestBid && update.bestAsk) {
        latest = update;
      }
    });
    try {
      await this.client.subscribeBook(this.symbol);
      for (let attempt = 0; attempt < 200 && !latest; attempt += 1) {
        await this.control.step(1);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      off();
    }
    if (!latest) {
      throw new Error(`${this.venue}: no book of ${this.symbol}`);
    }
    return latest;
  }
}
