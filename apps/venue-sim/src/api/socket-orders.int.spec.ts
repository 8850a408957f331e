import {
  FrameCoalescer,
  PaperVenueClient,
  VenueNetworkError,
  signedHeaders,
  type PaperCredentials,
  type WireOrderRequest,
  type WireServerMessage,
} from '@sts/venues';
import WebSocket from 'ws';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { SimControl } from '../testing/sim-control';
import { sleep } from '@sts/platform';

type Answer = Extract<WireServerMessage, { type: 'response' }>;

/** A raw socket on one venue: what it received, in order, and order requests by id. */
class RawSocket {
  readonly received: WireServerMessage[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) =>
      this.received.push(JSON.parse(data.toString()) as WireServerMessage),
    );
  }

  static async open(url: string, credentials?: PaperCredentials): Promise<RawSocket> {
    const path = new URL(url).pathname;
    const socket = new WebSocket(url, {
      headers: credentials ? signedHeaders(credentials, 'GET', path, '') : {},
    });
    const raw = new RawSocket(socket);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return raw;
  }

  send(message: WireOrderRequest | Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  async answer(id: string): Promise<Answer> {
    const deadline = Date.now() + 3_000;
    for (;;) {
      const found = this.received.find(
        (message): message is Answer => message.type === 'response' && message.id === id,
      );
      if (found) {
        return found;
      }
      if (Date.now() > deadline) {
        throw new Error(`no response to ${id}`);
      }
      await sleep(5);
    }
  }

  close(): void {
    this.socket.close();
  }
}

describe('venue simulator: orders on the account socket', () => {
  const venue = 'paradex';
  const symbol = 'BTC-USD-PERP';
  let sim: RunningVenueSim;
  let control: SimControl;
  let wsUrl: string;
  const sockets: RawSocket[] = [];
  let accounts = 0;

  /** A registered, funded account with a signed socket subscribed to its account channel. */
  const trader = async (): Promise<RawSocket> => {
    accounts += 1;
    const credentials = {
      apiKey: `sock-${accounts}`,
      apiSecret: `secret-${accounts}`,
      wallet: `0x50c${accounts}`,
    };
    await control.registerAccount(venue, { ...credentials, collateral: '1000000' });
    const raw = await RawSocket.open(wsUrl, credentials);
    sockets.push(raw);
    raw.send({ op: 'subscribe', channel: 'account' });
    return raw;
  };
  const bestBid = async (): Promise<number> => {
    const response = await fetch(`${sim.url}/venues/${venue}/book/${symbol}?depth=1`);
    const book = (await response.json()) as { bids: Array<[string, string]> };
    return Number(book.bids[0][0]);
  };
  const placement = (price: number, clientOrderId: string) => ({
    symbol,
    side: 'buy' as const,
    type: 'post_only' as const,
    price: price.toFixed(1),
    size: '0.01',
    client_order_id: clientOrderId,
  });

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 21, tickMs: 0 });
    control = new SimControl(sim.url);
    wsUrl = `${sim.url.replace('http', 'ws')}/venues/${venue}/ws`;
  });
  afterAll(async () => {
    for (const raw of sockets) {
      raw.close();
    }
    await sim.stop();
  });

  it('places, replaces and cancels, each answer after the order events it caused', async () => {
    const raw = await trader();
    const far = (await bestBid()) - 500;
    raw.send({ op: 'place', id: 'p1', params: placement(far, 'sock-a') });
    const placed = await raw.answer('p1');
    expect(placed.status).toBe(201);
    const placedOrder = (placed.body as { order: { order_id: string; status: string } }).order;
    expect(placedOrder.status).toBe('open');
    const openEvent = raw.received.findIndex(
      (message) => message.type === 'order' && message.order.order_id === placedOrder.order_id,
    );
    expect(openEvent).toBeGreaterThanOrEqual(0);
    expect(openEvent).toBeLessThan(raw.received.indexOf(placed));

    raw.send({
      op: 'replace',
      id: 'r1',
      params: {
        client_order_id: 'sock-a',
        expected_filled_size: '0',
        next: placement(far - 1, 'sock-b'),
      },
    });
    const replaced = await raw.answer('r1');
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      canceled: { outcome: 'canceled', order: { client_order_id: 'sock-a', status: 'canceled' } },
      placed: {
        order: {
          client_order_id: 'sock-b',
          status: 'open',
          price: String(Number((far - 1).toFixed(1))),
        },
      },
    });

    raw.send({ op: 'cancel', id: 'c1', params: { client_order_id: 'sock-b' } });
    expect(await raw.answer('c1')).toMatchObject({
      status: 200,
      body: { order: { client_order_id: 'sock-b', status: 'canceled' } },
    });
    raw.send({ op: 'cancel', id: 'c2', params: { client_order_id: 'sock-b' } });
    expect(await raw.answer('c2')).toMatchObject({
      status: 409,
      body: { code: 'order_not_open', order: { status: 'canceled' } },
    });
  });

  it('refuses orders on an unsigned socket, without an id, and malformed ones', async () => {
    const unsigned = await RawSocket.open(wsUrl);
    sockets.push(unsigned);
    unsigned.send({ op: 'place', id: 'u1', params: placement(1000, 'unsigned-1') });
    expect(await unsigned.answer('u1')).toMatchObject({
      status: 401,
      body: { code: 'unauthorized' },
    });

    const raw = await trader();
    raw.send({ op: 'place', params: placement(1000, 'no-id') });
    expect(await raw.answer('')).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    raw.send({ op: 'place', id: 'm1', params: { ...placement(1000, 'm-1'), size: '1e-2' } });
    expect(await raw.answer('m1')).toMatchObject({
      status: 400,
      body: { code: 'invalid_request' },
    });
    raw.send({
      op: 'replace',
      id: 'm2',
      params: { client_order_id: 'nothing-here', next: placement(1000, 'm-2') },
    });
    expect(await raw.answer('m2')).toMatchObject({ status: 404, body: { code: 'unknown_order' } });
  });

  it("counts socket orders against the account's rate limit, with retry_after_ms past it", async () => {
    await control.setRateLimit(venue, 4);
    try {
      const raw = await trader();
      const far = (await bestBid()) - 500;
      // Start at the top of a wall-clock second so the burst falls in one window.
      await sleep(1_000 - (Date.now() % 1_000) + 5);
      for (let i = 0; i < 6; i += 1) {
        raw.send({ op: 'place', id: `rl${i}`, params: placement(far - i, `rl-${i}`) });
      }
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => raw.answer(`rl${i}`)));
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 429, 429]);
      expect((answers[4].body as { retry_after_ms: number }).retry_after_ms).toBeGreaterThan(0);
      const counts = await control.requestCounts(venue, `0x50c${accounts}`);
      expect(counts.max_accepted_per_s).toBe(4);
    } finally {
      await control.setRateLimit(venue, 100);
    }
  });

  describe('the paper client', () => {
    const connected = async (coalescer?: FrameCoalescer): Promise<PaperVenueClient> => {
      accounts += 1;
      const client = new PaperVenueClient({
        venue,
        baseUrl: `${sim.url}/venues/${venue}`,
        credentials: { apiKey: `pc-${accounts}`, apiSecret: 's', wallet: `0x9c${accounts}` },
        reconnect: { initialMs: 50, maxMs: 200 },
        requestTimeoutMs: 2_000,
        ...(coalescer ? { coalescer } : {}),
      });
      await client.connect();
      await control.registerAccount(venue, {
        apiKey: `pc-${accounts}`,
        apiSecret: 's',
        wallet: `0x9c${accounts}`,
        collateral: '1000000',
      });
      return client;
    };
    const request = (price: number, clientOrderId: string) => ({
      symbol,
      side: 'buy' as const,
      price: price.toFixed(1),
      size: '0.01',
      clientOrderId,
    });

    it('sends the orders of one burst in one write, each answered and resting', async () => {
      // A clock that stands still: the hold limit must not end the run on a busy machine
      // (a step taking longer than maxHoldMs sent the frames early about once in a loaded run).
      const coalescer = new FrameCoalescer(undefined, () => 0);
      const client = await connected(coalescer);
      const far = (await bestBid()) - 700;
      const sentInRun: boolean[] = [];
      let placements: Array<Promise<unknown>> = [];
      coalescer.during(() => {
        placements = [0, 1, 2].map((i) => {
          const ack = client.placePostOnly(request(far - i, `pc-burst-${i}`));
          coalescer.stepEnded();
          return ack;
        });
        coalescer.whenSent(() => sentInRun.push(true));
        // Still held: the three frames leave together when the run ends.
        expect(sentInRun).toEqual([]);
      });
      expect(sentInRun).toEqual([true]);
      const acks = (await Promise.all(placements)) as Array<{ order: { status: string } }>;
      expect(acks.map((ack) => ack.order.status)).toEqual(['open', 'open', 'open']);
      const open = await client.openOrders(symbol);
      expect(open.map((order) => order.clientOrderId).sort()).toEqual([
        'pc-burst-0',
        'pc-burst-1',
        'pc-burst-2',
      ]);
      await client.close();
    });

    it('sends orders on its socket: a drop fails the one in flight at once, HTTP takes the next', async () => {
      const client = await connected();
      const far = (await bestBid()) - 500;
      await control.setLatency(venue, 600);
      try {
        const inFlight = client.placePostOnly(request(far, 'pc-flight'));
        const settled = inFlight.then(
          () => 'answered',
          (error: unknown) => error,
        );
        await sleep(50);
        await control.dropSockets(venue, 5_000);
        // Over HTTP the answer would come after the venue's latency; the socket's drop ends it now.
        const outcome = await Promise.race([
          settled,
          new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
        ]);
        expect(outcome).toBeInstanceOf(VenueNetworkError);
      } finally {
        await control.setLatency(venue, 0);
      }
      // The socket is refused for a while: orders go over HTTP meanwhile.
      const ack = await client.placePostOnly(request(far - 1, 'pc-http'));
      expect(ack.order.status).toBe('open');
      const replaced = await client.replace({
        target: { clientOrderId: 'pc-http' },
        next: request(far - 2, 'pc-http-2'),
        expectedFilledSize: '0',
      });
      expect(replaced.placed?.order.clientOrderId).toBe('pc-http-2');
      await client.close();
    });
  });
});
