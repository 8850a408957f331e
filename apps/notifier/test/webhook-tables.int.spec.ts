import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  createDataSource,
  MAX_WEBHOOK_ENDPOINTS_PER_USER,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  type NewWebhookDelivery,
  type NewWebhookEndpoint,
} from '@sts/persistence';
import { createTestDatabase, type TestDatabase } from '@sts/testing';

/** The two webhook tables through their repositories, on a database of their own. */
describe('webhook endpoints and deliveries', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let endpoints: WebhookEndpointRepository;
  let deliveries: WebhookDeliveryRepository;
  let alice: string;
  let bob: string;

  const user = async (): Promise<string> => {
    const [row] = await database.query<{ id: string }>(
      `INSERT INTO users (primary_wallet) VALUES ($1) RETURNING id`,
      [`0x${randomUUID().replace(/-/g, '').padEnd(40, '0')}`],
    );
    return row.id;
  };
  const endpoint = (userId: string, overrides: Partial<NewWebhookEndpoint> = {}) =>
    endpoints.create(randomUUID(), {
      userId,
      url: 'https://hooks.example.com/sts',
      events: ['trade.fill', 'system.kill_switch'],
      format: 'standard',
      description: '',
      secret: { sealed: Buffer.from('sealed'), kekId: 'k1' },
      ...overrides,
    });
  const owed = (endpointId: string, source: string): NewWebhookDelivery => ({
    endpointId,
    messageId: `msg_${source}_${endpointId.slice(0, 8)}`,
    source,
    eventType: 'trade.fill',
    payload: { type: 'trade.fill', timestamp: new Date().toISOString(), data: { source } },
  });
  const attempt = (statusCode: number | null) => ({
    at: new Date().toISOString(),
    status_code: statusCode,
    error: statusCode === 200 ? null : 'answered 500',
    duration_ms: 3,
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = createDataSource(database.url, 'webhooks-spec');
    await dataSource.initialize();
    endpoints = new WebhookEndpointRepository(dataSource.manager);
    deliveries = new WebhookDeliveryRepository(dataSource.manager);
    alice = await user();
    bob = await user();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('keeps each user to their own endpoints, and to at most the cap', async () => {
    const created = (await endpoint(alice))!;
    expect(created).toMatchObject({ userId: alice, format: 'standard', disabledAt: null });
    expect(await endpoints.oneOf(bob, created.id)).toBeNull();
    expect(await endpoints.deleteOf(bob, created.id)).toBe(false);
    expect((await endpoints.listOf(alice)).map((one) => one.id)).toEqual([created.id]);
    expect(await endpoints.listOf(bob)).toEqual([]);

    const many = await user();
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS_PER_USER; i += 1) {
      expect(await endpoint(many)).not.toBeNull();
    }
    expect(await endpoint(many)).toBeNull();
    expect(await endpoints.listOf(many)).toHaveLength(MAX_WEBHOOK_ENDPOINTS_PER_USER);
  });

  it('sends an event to its user’s subscribed endpoints, a system event to everyone’s', async () => {
    const fills = (await endpoint(bob, { events: ['trade.fill'] }))!;
    const kill = (await endpoint(bob, { events: ['system.kill_switch'] }))!;
    const gone = (await endpoint(bob, { events: ['trade.fill'] }))!;
    await endpoints.deleteOf(bob, gone.id);
    const off = (await endpoint(bob, { events: ['trade.fill'] }))!;
    await endpoints.disable(off.id, 'failing since yesterday');

    const forBob = await endpoints.subscribedTo(bob, 'trade.fill');
    expect(forBob.map((one) => one.id)).toEqual([fills.id]);
    expect(forBob[0].secret).toEqual({ sealed: Buffer.from('sealed'), kekId: 'k1' });
    const forAll = await endpoints.subscribedTo(null, 'system.kill_switch');
    expect(forAll.map((one) => one.userId)).toEqual(expect.arrayContaining([alice, bob]));
    expect(forAll.map((one) => one.id)).toContain(kill.id);
    expect(await endpoints.forDelivery(off.id)).toBeNull();
    expect((await endpoints.oneOf(bob, off.id))?.disabledReason).toBe('failing since yesterday');
  });

  it('owes each event once per endpoint, and hands out an endpoint’s oldest first', async () => {
    const first = (await endpoint(alice, { events: ['trade.fill'] }))!;
    const second = (await endpoint(alice, { events: ['trade.fill'] }))!;
    expect(
      await deliveries.enqueue([owed(first.id, 's1'), owed(second.id, 's1'), owed(first.id, 's2')]),
    ).toBe(3);
    // Read twice (a redelivered event): owed once.
    expect(await deliveries.enqueue([owed(first.id, 's1')])).toBe(0);

    const claimed = await deliveries.claimDue(10, 30_000);
    const heads = claimed.filter((one) => [first.id, second.id].includes(one.endpointId));
    // One per endpoint: s2 waits for s1 on the first endpoint.
    expect(heads.map((one) => [one.endpointId, one.payload.data])).toEqual([
      [first.id, { source: 's1' }],
      [second.id, { source: 's1' }],
    ]);
    // Claimed: not handed out again while the claim runs.
    expect(
      (await deliveries.claimDue(10, 30_000)).filter((one) => one.endpointId === first.id),
    ).toEqual([]);

    const [head] = heads;
    const later = new Date(Date.now() + 60_000);
    await deliveries.recordAttempt(head.id, attempt(500), { kind: 'retry', nextAttemptAt: later });
    // Due later: nothing of the first endpoint now, and s2 still waits behind it.
    expect(
      (await deliveries.claimDue(10, 30_000)).filter((one) => one.endpointId === first.id),
    ).toEqual([]);
    await dataSource.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1`, [
      head.id,
    ]);
    const again = (await deliveries.claimDue(10, 30_000)).find(
      (one) => one.endpointId === first.id,
    )!;
    expect(again).toMatchObject({ id: head.id, messageId: head.messageId, attempts: 1 });
    await deliveries.recordAttempt(again.id, attempt(200), { kind: 'delivered' });
    const next = (await deliveries.claimDue(10, 30_000)).find(
      (one) => one.endpointId === first.id,
    )!;
    expect(next.payload.data).toEqual({ source: 's2' });

    const page = await deliveries.pageOf(first.id, 10);
    expect(page.map((one) => [one.status, one.attempts])).toEqual([
      ['pending', 0],
      ['delivered', 2],
    ]);
    expect(page[1].attemptLog.map((one) => one.status_code)).toEqual([500, 200]);
    expect(page[1].nextAttemptAt).toBeNull();
    expect(await deliveries.pageOf(first.id, 10, page[0].id)).toHaveLength(1);
    expect(await deliveries.cancelPendingOf(first.id)).toBe(1);
  });

  it('keeps the newest attempts in the log while the count goes on', async () => {
    const one = (await endpoint(alice, { events: ['trade.fill'] }))!;
    await deliveries.enqueue([owed(one.id, 'many')]);
    const [delivery] = (await deliveries.pageOf(one.id, 1)).filter((d) => d.status === 'pending');
    for (let i = 0; i < 25; i += 1) {
      await deliveries.recordAttempt(delivery.id, attempt(400 + i), {
        kind: 'retry',
        nextAttemptAt: new Date(),
      });
    }
    await deliveries.recordAttempt(delivery.id, attempt(null), { kind: 'failed' });
    const [stored] = await deliveries.pageOf(one.id, 1);
    expect(stored).toMatchObject({ status: 'failed', attempts: 26, nextAttemptAt: null });
    expect(stored.attemptLog).toHaveLength(20);
    expect(stored.attemptLog[0].status_code).toBe(406);
    expect(stored.attemptLog.at(-1)!.status_code).toBeNull();
    expect(stored.finishedAt).toBeInstanceOf(Date);
  });
});
