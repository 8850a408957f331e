/**
 * Venue simulator benchmark: sustained order-book update rate and order
 * round-trip latency on loopback, with the simulator in its own process.
 *
 *   node tools/build.mjs && node dist/bench/venue-sim.bench.js [--seconds 10] [--orders 2000] [--tick-ms 1]
 *
 * Prints figures; asserts nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Big from 'big.js';
import WebSocket from 'ws';
import { PaperVenueClient, type WireServerMessage } from '@sts/venues';
import { SimControl } from '@sts/app-venue-sim';
import { numberArg as arg, percentile } from './run-bench';
import { sleep } from '@sts/platform';

const SECONDS = arg('seconds', 10);
const ORDERS = arg('orders', 2000);
const TICK_MS = arg('tick-ms', 1);
const VENUE = 'paradex';

async function startSimulator(): Promise<{ url: string; child: ChildProcess }> {
  const main = join(__dirname, '..', 'apps', 'venue-sim', 'src', 'main.js');
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      VENUE_SIM_PORT: '0',
      VENUE_SIM_TICK_MS: String(TICK_MS),
      VENUE_SIM_SEED: '7',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const url = (JSON.parse(line) as { url?: string }).url;
    if (url) {
      return { url, child };
    }
  }
  throw new Error('simulator exited before listening');
}

async function bookUpdateRate(url: string): Promise<void> {
  const venues = (await (await fetch(`${url}/venues`)).json()) as { venues: string[] };
  let messages = 0;
  let levels = 0;
  const sockets: WebSocket[] = [];
  for (const venue of venues.venues) {
    const { markets } = (await (await fetch(`${url}/venues/${venue}/markets`)).json()) as {
      markets: Array<{ symbol: string }>;
    };
    const socket = new WebSocket(`${url.replace('http', 'ws')}/venues/${venue}/ws`);
    await new Promise((resolve) => socket.once('open', resolve));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as WireServerMessage;
      if (message.type !== 'book_delta') {
        return;
      }
      messages += 1;
      levels += message.bids.length + message.asks.length;
    });
    for (const market of markets) {
      socket.send(JSON.stringify({ op: 'subscribe', channel: 'book', symbol: market.symbol }));
    }
    sockets.push(socket);
  }
  await sleep(1_000);
  messages = 0;
  levels = 0;
  const started = performance.now();
  await sleep(SECONDS * 1_000);
  const elapsed = (performance.now() - started) / 1_000;
  const state = (await (await fetch(`${url}/control/state`)).json()) as { steps: number };
  sockets.forEach((socket) => socket.close());
  console.log(
    `book stream (tick ${TICK_MS} ms, ${venues.venues.length} venues, all markets subscribed, ${state.steps} steps so far):`,
  );
  console.log(
    `  ${(messages / elapsed).toFixed(0)} book deltas/s, ${(levels / elapsed).toFixed(0)} level changes/s over ${elapsed.toFixed(1)} s`,
  );
}

const at = (sorted: number[], p: number): string => percentile(sorted, p).toFixed(3);

function report(name: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(
    `  ${name.padEnd(22)} p50 ${at(sorted, 50)} ms  p90 ${at(sorted, 90)} ms  p99 ${at(sorted, 99)} ms  max ${sorted[sorted.length - 1].toFixed(3)} ms  (n=${sorted.length})`,
  );
}

async function orderRoundTrips(url: string): Promise<void> {
  const control = new SimControl(url);
  await control.setTickMs(100);
  await control.setRateLimit(VENUE, 1_000_000);
  const client = new PaperVenueClient({
    venue: VENUE,
    baseUrl: `${url}/venues/${VENUE}`,
    credentials: { apiKey: 'bench', apiSecret: 'bench-secret', wallet: '0xbench' },
  });
  await client.connect();
  await client.subscribeBook('ETH-USD-PERP');
  let bestBid = '0';
  let bestAsk = '0';
  client.on('book', (book) => {
    bestBid = book.bestBid ?? bestBid;
    bestAsk = book.bestAsk ?? bestAsk;
  });
  await sleep(300);
  const place: number[] = [];
  const cancel: number[] = [];
  const ioc: number[] = [];
  const fillEvent: number[] = [];
  client.on('fill', (fill) => fillEvent.push(Date.now() - fill.timestampMs));
  for (let i = 0; i < ORDERS; i += 1) {
    const price = new Big(bestBid).times('0.99').round(2, Big.roundDown).toFixed();
    let started = performance.now();
    const ack = await client.placePostOnly({
      symbol: 'ETH-USD-PERP',
      side: 'buy',
      price,
      size: '0.05',
      clientOrderId: `bench-${i}`,
    });
    place.push(performance.now() - started);
    started = performance.now();
    await client.cancel({ orderId: ack.order.orderId });
    cancel.push(performance.now() - started);
    if (i % 4 === 0) {
      started = performance.now();
      await client.placeIoc({
        symbol: 'ETH-USD-PERP',
        side: i % 8 === 0 ? 'buy' : 'sell',
        price: i % 8 === 0 ? bestAsk : bestBid,
        size: '0.05',
        clientOrderId: `bench-ioc-${i}`,
      });
      ioc.push(performance.now() - started);
    }
  }
  await client.close();
  console.log(
    `order round trips on loopback (${VENUE}, paper client, orders on its signed socket):`,
  );
  report('post-only place', place);
  report('cancel', cancel);
  report('IOC (taker fill)', ioc);
  report(
    'fill on the stream',
    fillEvent.map((ms) => Math.max(ms, 0)),
  );
  console.log('  (fill on the stream: venue fill timestamp to client callback, whole ms)');
}

async function main(): Promise<void> {
  const { url, child } = await startSimulator();
  try {
    console.log(`venue simulator at ${url} (separate process)`);
    await bookUpdateRate(url);
    await orderRoundTrips(url);
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
