import { connect, type NatsConnection } from '@nats-io/transport-node';
import { allStreams } from '@sts/contracts';
import { connectNats, ensureStreams, ensureStreamsAtBoot } from '@sts/platform';
import { startNatsCluster, whenClusterReady } from './nats-cluster';

/**
 * The three-server JetStream cluster specs start (this machine's nats-server),
 * and NATS_REPLICAS against it: every stream on all three, five refused.
 */
describe('a NATS cluster of three', () => {
  jest.setTimeout(60_000);

  it('a cluster of three keeps each stream on all three, and refuses five', async () => {
    const cluster = await startNatsCluster();
    let nats: NatsConnection | undefined;
    try {
      const connected = await whenClusterReady(() => connect({ servers: cluster.url }));
      nats = connected;
      const streams = allStreams('sts');
      // A cluster just started may have its meta leader before it knows all three peers.
      const jsm = await ensureStreamsAtBoot(connected, streams, 3);
      const info = await jsm.streams.info(streams[0].name);
      expect(info.config.num_replicas).toBe(3);
      expect(info.cluster?.replicas).toHaveLength(2);
      await expect(ensureStreams(jsm, allStreams('more'), 5)).rejects.toThrow(/NATS_REPLICAS=5/);
    } finally {
      await nats?.close();
      await cluster.stop();
    }
  });

  it('a service booting on a node whose peers are not back yet waits for JetStream', async () => {
    // One node of three: no quorum, no meta leader, JetStream does not answer.
    const cluster = await startNatsCluster([1]);
    let nats: NatsConnection | undefined;
    try {
      const connected = await whenClusterReady(() =>
        connectNats({ url: cluster.url, name: 'boot-spec' }),
      );
      nats = connected;
      const streams = allStreams('boot');
      const retries: unknown[] = [];
      const booted = ensureStreamsAtBoot(connected, streams, 3, {
        onRetry: (error) => {
          retries.push(error);
          if (retries.length === 2) {
            cluster.startServer(2);
            cluster.startServer(3);
          }
        },
      });
      const jsm = await booted;
      expect((await jsm.streams.info(streams[0].name)).config.num_replicas).toBe(3);
      expect(retries.length).toBeGreaterThan(0);
    } finally {
      await nats?.close();
      await cluster.stop();
    }
  });
});
