import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { allStreams } from '@sts/contracts';
import { ensureStreams, NatsReplicasError } from './streams';

describe('ensureStreams', () => {
  it('creates the streams once and updates them idempotently on every boot', async () => {
    const natsPrefix = `t${randomBytes(5).toString('hex')}`;
    const nats = await connect({ servers: '127.0.0.1:4222' });
    const jsm = await jetstreamManager(nats);
    const streams = allStreams(natsPrefix);
    try {
      await ensureStreams(jsm, streams);
      await ensureStreams(jsm, streams);
      const commands = await jsm.streams.info(streams[0].name);
      expect(commands.config.subjects).toEqual([`${natsPrefix}.trades.cmd.>`]);
      expect(commands.config.retention).toBe('workqueue');
      const events = await jsm.streams.info(streams[1].name);
      expect(events.config.subjects).toEqual([`${natsPrefix}.events.>`]);
    } finally {
      for (const stream of streams) {
        await jsm.streams.delete(stream.name).catch(() => false);
      }
      await nats.close();
    }
  });
});

describe('NATS_REPLICAS: stream replicas checked against the NATS servers', () => {
  jest.setTimeout(60_000);

  it('a single server refuses 3 replicas at boot, naming the setting', async () => {
    const natsPrefix = `t${randomBytes(5).toString('hex')}`;
    const nats = await connect({ servers: '127.0.0.1:4222' });
    const jsm = await jetstreamManager(nats);
    const streams = allStreams(natsPrefix);
    try {
      const boot = ensureStreams(jsm, streams, 3);
      await expect(boot).rejects.toBeInstanceOf(NatsReplicasError);
      await expect(boot).rejects.toThrow(/NATS_REPLICAS=3/);
      await expect(jsm.streams.info(streams[0].name)).rejects.toThrow();
    } finally {
      for (const stream of streams) {
        await jsm.streams.delete(stream.name).catch(() => false);
      }
      await nats.close();
    }
  });
});
