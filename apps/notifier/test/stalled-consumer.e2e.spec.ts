import { sleep } from '@sts/platform';
import { startNatsCluster, whenClusterReady, type NatsCluster } from '@sts/testing';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { TestClient } from './ws-client';

jest.setTimeout(120_000);

/** How long JetStream is without a quorum: longer than nats.js's own re-creation attempts. */
const NO_QUORUM_MS = 12_000;

/**
 * The notifier's events consumer when JetStream loses its quorum while the
 * notifier's own NATS server stays up (the partitions suite's cut-infra: a
 * stream leader on the far side). nats.js re-creates the ordered consumer
 * and, while it fails, reports nothing more; the consumer must still come
 * back once JetStream does, and a trader's lifecycle event reach its socket.
 */
describe('events consumer without a JetStream quorum', () => {
  let cluster: NatsCluster;
  const harness = new NotifierHarness();
  let alice: TestUser;

  beforeAll(async () => {
    cluster = await startNatsCluster();
    await harness.start({ NATS_URL: `nats://${cluster.url}`, NATS_REPLICAS: '3' });
    await whenClusterReady(() => harness.addReplica());
    alice = await harness.user();
  });

  afterAll(async () => {
    await harness.stop();
    await cluster.stop();
  });

  const withoutQuorum = async (ms: number): Promise<void> => {
    cluster.pause(2);
    cluster.pause(3);
    await sleep(ms);
    cluster.resume(2);
    cluster.resume(3);
  };

  it('delivers the next lifecycle event within seconds of the quorum coming back', async () => {
    const replica = harness.replicas[0];
    const tradeId = await harness.trade(alice, 'active');
    const client = await TestClient.connect(replica.url, {
      headers: { 'x-api-key': alice.apiKey },
    });
    await client.subscribe(tradeId);
    // A first short loss: nats.js re-creates its ordered consumer once the quorum is back...
    await withoutQuorum(3_000);
    await sleep(1_500);
    // ... and a second one right after, while that new consumer's first pull is pending.
    await withoutQuorum(NO_QUORUM_MS);
    const sent = await whenClusterReady(() =>
      harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused'),
    );
    const publishedAt = Date.now();
    await client.next((message) => message.event_id === sent, 10_000);
    console.log(`lifecycle event pushed ${Date.now() - publishedAt} ms after JetStream took it`);
    await client.close();
  });
});
