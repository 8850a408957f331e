import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
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
  CommittedPublisher,
  createDataSource,
  jetStreamPublisher,
  OutboxRelay,
  type OutboxPublisher,
} from '@sts/persistence';
import { ensureStreams, sleep } from '@sts/platform';
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
    await ensureStreams(await jetstreamManager(nats), allStreams(natsPrefix));
  });
  afterAll(async () => {
    const jsm = await jetstreamManager(nats);
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
    const publish = jetStreamPublisher(jetstream(nats));
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
      await jetstreamManager(nats)
    ).streams.info(tradeCommandsStream(natsPrefix).name);
    expect(info.state.messages).toBe(10);
    const jsm = await jetstreamManager(nats);
    const delivered: string[] = [];
    for (let sequence = info.state.first_seq; sequence <= info.state.last_seq; sequence += 1) {
      const message = await jsm.streams.getMessage(tradeCommandsStream(natsPrefix).name, {
        seq: sequence,
      });
      // Null for a sequence the stream does not hold: a lost command.
      delivered.push(message?.json<{ payload: { trade_id: string } }>().payload.trade_id ?? 'lost');
    }
    expect(delivered).toEqual(tradeIds);
  });

  it('publishes committed rows at once and marks them together; the poll takes what failed, after its grace', async () => {
    const tradeIds = Array.from(
      { length: 5 },
      (_, index) => `00000000-0000-4000-9000-${String(index).padStart(12, '0')}`,
    );
    const rows = tradeIds.map((tradeId) => ({
      subject: startTradeSubject(natsPrefix),
      message_id: startTradeMessageId(tradeId),
      payload: envelope(
        START_TRADE,
        { trade_id: tradeId, user_id: 'u-2' },
        { messageId: startTradeMessageId(tradeId) },
      ),
    }));
    await dataSource.transaction(async (db) => {
      for (const row of rows) {
        await addToOutbox(db, row.subject, row.payload);
      }
    });
    const streamMessages = async () =>
      (await (await jetstreamManager(nats)).streams.info(tradeCommandsStream(natsPrefix).name))
        .state.messages;
    const unpublished = async () =>
      (
        await dataSource.query(
          `SELECT message_id FROM outbox WHERE published_at IS NULL ORDER BY id`,
        )
      ).map((row: { message_id: string }) => row.message_id);
    const before = await streamMessages();

    // The third publish fails (NATS gone for a moment): reported, left unpublished.
    const publish = jetStreamPublisher(jetstream(nats));
    const errors: unknown[] = [];
    const committed = new CommittedPublisher(
      dataSource,
      async (row) => {
        if (row.message_id === rows[2].message_id) {
          throw new Error('NATS is not connected');
        }
        await publish(row);
      },
      { markLingerMs: 20, onError: (error) => errors.push(error) },
    );
    rows.forEach((row) => committed.publishCommitted(row));
    await committed.flush();
    expect(errors).toHaveLength(1);
    expect(await streamMessages()).toBe(before + 4);
    expect(await unpublished()).toEqual([rows[2].message_id]);

    // The poll leaves rows younger than its grace to the replica that committed them.
    const relay = new OutboxRelay(dataSource, publish, { graceMs: 60_000 });
    expect(await relay.drain(60_000)).toBe(0);
    expect(await relay.drain()).toBe(1);
    expect(await unpublished()).toEqual([]);
    expect(await streamMessages()).toBe(before + 5);

    // A replica that died between its publish and its mark: the poll's copy is dropped.
    await dataSource.query(`UPDATE outbox SET published_at = NULL WHERE message_id = $1`, [
      rows[0].message_id,
    ]);
    expect(await relay.drain()).toBe(1);
    expect(await streamMessages()).toBe(before + 5);
  });

  it('commits within a kickWithin window share one run; a kick in the window publishes at once', async () => {
    const subject = `${natsPrefix}.spec.soon`;
    const published: string[] = [];
    const relay = new OutboxRelay(
      dataSource,
      async (row) => {
        published.push(row.message_id);
      },
      { pollIntervalMs: 60_000 },
    );
    relay.start();
    const commit = (messageId: string) =>
      dataSource.transaction((db) =>
        addToOutbox(db, subject, envelope('spec.soon', {}, { messageId })),
      );
    const marks = async () =>
      (
        await dataSource.query(
          `SELECT count(DISTINCT published_at)::int AS n FROM outbox WHERE subject = $1`,
          [subject],
        )
      )[0].n;
    // Waits (up to 3 s) until none of the subject's rows is left unmarked:
    // the publishes are seen before their mark commits.
    const allMarked = async () => {
      const deadline = Date.now() + 3_000;
      while (Date.now() < deadline) {
        const [{ n }] = await dataSource.query(
          `SELECT count(*)::int AS n FROM outbox WHERE subject = $1 AND published_at IS NULL`,
          [subject],
        );
        if (n === 0) {
          return;
        }
        await sleep(20);
      }
    };
    try {
      for (const messageId of ['soon-1', 'soon-2', 'soon-3']) {
        await commit(messageId);
        relay.kickWithin(1_000);
      }
      expect(published).toEqual([]);
      await allMarked();
      expect(published).toEqual(['soon-1', 'soon-2', 'soon-3']);
      // One claim and one mark for the three commits.
      expect(await marks()).toBe(1);

      // A kick inside an open window publishes now and closes the window.
      await commit('soon-4');
      relay.kickWithin(60_000);
      await relay.kick();
      expect(published).toEqual(['soon-1', 'soon-2', 'soon-3', 'soon-4']);
      await commit('soon-5');
      relay.kickWithin(50);
      await allMarked();
      expect(published.at(-1)).toBe('soon-5');
    } finally {
      await relay.stop();
    }
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
