import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { allStreams } from '@sts/contracts';
import { randomBytes } from 'node:crypto';
import { ensureStreams } from './streams';

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
