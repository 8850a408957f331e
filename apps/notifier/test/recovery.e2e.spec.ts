import { jetstreamManager } from '@nats-io/jetstream';
import { eventsStream } from '@sts/contracts';
import type { RunningNotifier } from '../src/bootstrap';
import { WEBHOOKS_CONSUMER } from '../src/webhooks/webhook-intake';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { TestClient } from './ws-client';

describe('events consumer recovery', () => {
  const harness = new NotifierHarness();
  let notifier: RunningNotifier;
  let alice: TestUser;
  let client: TestClient;

  beforeAll(async () => {
    await harness.start();
    notifier = await harness.addReplica();
    alice = await harness.user();
  });
  afterAll(async () => {
    await client?.close();
    await harness.stop();
  });

  it("loses no event when NATS loses the replica's consumer: it resumes after the last event pushed", async () => {
    const tradeId = await harness.trade(alice, 'active');
    client = await TestClient.connect(notifier.url, { headers: { 'x-api-key': alice.apiKey } });
    await client.subscribe(tradeId);
    const before = await harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused');
    await client.next((message) => message.event_id === before);

    const jsm = await jetstreamManager(harness.nats);
    const stream = eventsStream(harness.env['NATS_PREFIX']).name;
    // The replica's own ordered consumer; the webhooks' durable one is shared, not the fan-out's.
    const consumers = (await jsm.consumers.list(stream).next()).filter(
      (consumer) => consumer.name !== WEBHOOKS_CONSUMER,
    );
    expect(consumers).toHaveLength(1);
    await jsm.consumers.delete(stream, consumers[0].name);
    const during = await harness.publishLifecycle(alice, tradeId, 'trade.resumed', 'active');
    const after = await harness.publishLifecycle(alice, tradeId, 'trade.completed', 'completed');

    await client.next((message) => message.event_id === after, 10_000);
    expect(client.events().map((event) => event.event_id)).toEqual([before, during, after]);
  });
});
