import { jetstream } from '@nats-io/jetstream';
import {
  encodeEnvelope,
  envelope,
  TRADE_FILL,
  tradeFillMessageId,
  tradeFillSubject,
  type TradeFill,
} from '@sts/contracts';
import { Client } from 'pg';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { TestClient } from './ws-client';

/**
 * The seam of a fills subscription with from_sequence: entries logged before
 * the replay's read are often published (or arrive) after it, so the replay
 * and the live stream overlap. Fill messages are published here as the
 * worker's outbox relay publishes them, for entries written to the log.
 */
describe('fills subscription: replay and live stream overlap', () => {
  const harness = new NotifierHarness();
  let alice: TestUser;
  let url: string;
  const clients: TestClient[] = [];

  beforeAll(async () => {
    await harness.start();
    url = (await harness.addReplica()).url;
    alice = await harness.user();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => harness.stop());

  const connect = async (): Promise<TestClient> => {
    const client = await TestClient.connect(url, { headers: { 'x-api-key': alice.apiKey } });
    clients.push(client);
    await client.next((message) => message.type === 'authenticated');
    return client;
  };

  /** Logs a fill entry as the worker does (a row of trade_events) and returns it as pushed. */
  const logFill = async (tradeId: string, sequence: number): Promise<TradeFill> => {
    const data = { exchange: 'hyperliquid', size: '0.001', fill_id: `f-${sequence}` };
    const [row] = await harness.query<{ created_at: Date }>(
      `INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id)
       VALUES ($1, $2, 'maker_fill', $3, 'w-1') RETURNING created_at`,
      [tradeId, sequence, JSON.stringify(data)],
    );
    return {
      trade_id: tradeId,
      user_id: alice.userId,
      sequence,
      event_type: 'maker_fill',
      created_at: row.created_at.toISOString(),
      data,
    };
  };

  const publish = async (fill: TradeFill): Promise<void> => {
    const message = envelope(TRADE_FILL, fill, {
      messageId: tradeFillMessageId(fill.trade_id, fill.sequence),
    });
    await jetstream(harness.nats).publish(
      tradeFillSubject(harness.env['NATS_PREFIX'], fill.trade_id),
      encodeEnvelope(message),
      { msgID: message.message_id },
    );
  };

  const asFrame = ({ user_id: _owner, ...fill }: TradeFill) => ({ type: 'fill', ...fill });
  const fillsOf = (client: TestClient) => client.messages.filter((frame) => frame.type === 'fill');

  it('sends each sequence once, replayed ones first, whatever arrives live meanwhile', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const logged = [
      await logFill(tradeId, 1),
      await logFill(tradeId, 3),
      await logFill(tradeId, 4),
    ];
    const client = await connect();
    // Also subscribed to all fills: the trade's own subscription still decides what it gets.
    client.send({ op: 'subscribe', id: 'all', subscription: 'fills' });
    await client.next((frame) => frame.id === 'all');
    // The replay's read waits on a lock while the logged entries' messages arrive, out of order.
    const blocker = new Client({ connectionString: harness.database.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN; LOCK TABLE trade_events IN ACCESS EXCLUSIVE MODE');
      client.send({
        op: 'subscribe',
        id: 'one',
        subscription: 'fills',
        params: { trade_id: tradeId, from_sequence: 1 },
      });
      await publish(logged[2]);
      await publish(logged[0]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fillsOf(client)).toEqual([]);
      await blocker.query('COMMIT');
    } finally {
      await blocker.end();
    }
    await client.next((frame) => frame.id === 'one');
    await client.next((frame) => frame.type === 'fill' && frame.sequence === 4);
    await publish(logged[1]); // arriving after the replay sent it
    const later = await logFill(tradeId, 6);
    await publish(later);
    await client.next((frame) => frame.type === 'fill' && frame.sequence === 6);
    expect(fillsOf(client)).toEqual([...logged, later].map(asFrame));
  });

  it('replays only from from_sequence and pushes nothing without a subscription', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const logged = [await logFill(tradeId, 2), await logFill(tradeId, 5)];
    const subscribed = await connect();
    const idle = await connect();
    subscribed.send({
      op: 'subscribe',
      id: 'one',
      subscription: 'fills',
      params: { trade_id: tradeId, from_sequence: 3 },
    });
    await subscribed.next((frame) => frame.id === 'one');
    await subscribed.next((frame) => frame.type === 'fill');
    const later = await logFill(tradeId, 7);
    await publish(later);
    await subscribed.next((frame) => frame.type === 'fill' && frame.sequence === 7);
    expect(fillsOf(subscribed)).toEqual([logged[1], later].map(asFrame));
    expect(fillsOf(idle)).toEqual([]);
  });

  it('resumes across a notifier restart from the last sequence seen, nothing missing', async () => {
    const tradeId = await harness.trade(alice, 'active');
    const before = await logFill(tradeId, 1);
    const first = await connect();
    first.send({
      op: 'subscribe',
      id: 'one',
      subscription: 'fills',
      params: { trade_id: tradeId },
    });
    await first.next((frame) => frame.id === 'one');
    await publish(before);
    await first.next((frame) => frame.type === 'fill' && frame.sequence === 1);

    await harness.replicas[0].close();
    // Logged and published while no notifier runs.
    const during = [await logFill(tradeId, 2), await logFill(tradeId, 3)];
    await Promise.all(during.map(publish));
    url = (await harness.addReplica()).url;

    const resumed = await connect();
    resumed.send({
      op: 'subscribe',
      id: 'again',
      subscription: 'fills',
      params: { trade_id: tradeId, from_sequence: 2 },
    });
    await resumed.next((frame) => frame.id === 'again');
    const after = await logFill(tradeId, 4);
    await publish(after);
    await resumed.next((frame) => frame.type === 'fill' && frame.sequence === 4);
    expect(fillsOf(resumed)).toEqual([...during, after].map(asFrame));
  });
});
