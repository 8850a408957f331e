import { connect, type NatsConnection } from 'nats';
import {
  allStreams,
  envelope,
  START_TRADE,
  startTradeMessageId,
  startTradeSubject,
  tradeCommandsStream,
} from '@sts/contracts';
import {
  addToOutbox,
  createDataSource,
  jetStreamPublisher,
  OutboxRelay,
  type OutboxPublisher,
} from '@sts/persistence';
import { ensureStreams } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import type { DataSource } from 'typeorm';

describe('transactional outbox to JetStream', () => {
  const { natsPrefix } = testNamespace();
  let database: TestDatabase;
  let dataSource: DataSource;
  let nats: NatsConnection;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url, 'outbox-spec');
    await dataSource.initialize();
    nats = await connect({ servers: '127.0.0.1:4222' });
    await ensureStreams(await nats.jetstreamManager(), allStreams(natsPrefix));
  });
  afterAll(async () => {
    const jsm = await nats.jetstreamManager();
    for (const stream of allStreams(natsPrefix)) {
      await jsm.streams.delete(stream.name).catch(() => false);
    }
    await nats.close();
    await dataSource.destroy();
    await database.drop();
  });

  it('delivers each command exactly once when publication dies midway', async () => {
    const tradeIds = Array.from(
      { length: 10 },
      (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    );
    await dataSource.transaction(async (db) => {
      for (const tradeId of tradeIds) {
        await addToOutbox(
          db,
          startTradeSubject(natsPrefix),
          envelope(
            START_TRADE,
            { trade_id: tradeId, user_id: 'u-1' },
            { messageId: startTradeMessageId(tradeId) },
          ),
        );
      }
    });

    // The first relay publishes four commands, each acknowledged by JetStream, then
    // dies before it can mark them: the rows stay unpublished.
    const publish = jetStreamPublisher(nats.jetstream());
    let calls = 0;
    const dyingPublisher: OutboxPublisher = async (row) => {
      calls += 1;
      if (calls > 4) {
        throw new Error('gateway killed');
      }
      await publish(row);
    };
    await expect(new OutboxRelay(dataSource, dyingPublisher).drain()).rejects.toThrow(
      'gateway killed',
    );
    const pending = await dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`,
    );
    expect(pending[0].n).toBe(10);

    // A fresh relay (another replica, or the restarted gateway) publishes everything again.
    expect(await new OutboxRelay(dataSource, publish).drain()).toBe(10);
    const left = await dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`,
    );
    expect(left[0].n).toBe(0);

    const info = await (
      await nats.jetstreamManager()
    ).streams.info(tradeCommandsStream(natsPrefix).name);
    expect(info.state.messages).toBe(10);
    const jsm = await nats.jetstreamManager();
    const delivered: string[] = [];
    for (let sequence = info.state.first_seq; sequence <= info.state.last_seq; sequence += 1) {
      const message = await jsm.streams.getMessage(tradeCommandsStream(natsPrefix).name, {
        seq: sequence,
      });
      delivered.push(JSON.parse(new TextDecoder().decode(message.data)).payload.trade_id);
    }
    expect(delivered).toEqual(tradeIds);
  });

  it('a message already in the outbox is not added twice', async () => {
    const message = envelope(
      START_TRADE,
      { trade_id: 'x', user_id: 'u' },
      { messageId: 'start-dup' },
    );
    await dataSource.transaction((db) => addToOutbox(db, startTradeSubject(natsPrefix), message));
    await dataSource.transaction((db) => addToOutbox(db, startTradeSubject(natsPrefix), message));
    const rows = await dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE message_id = 'start-dup'`,
    );
    expect(rows[0].n).toBe(1);
  });
});
