import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import {
  createDataSource,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  webhookSecretContext,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookFormat,
} from '@sts/persistence';
import { CredentialCipher } from '@sts/platform';
import type { RunningNotifier } from '../src/bootstrap';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { NotifierProcess } from './notifier-process';
import { eventually, WebhookReceiver, type Received } from './webhook-receiver';

jest.setTimeout(60_000);

/** Retries in milliseconds, not hours; the receiver is on loopback. */
const WEBHOOK_ENV = {
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOKS_RETRY_SCHEDULE_MS: '200,800,1600',
  WEBHOOKS_TIMEOUT_MS: '1000',
  WEBHOOKS_POLL_MS: '50',
};

const MAKER_FILL = {
  exchange: 'hyperliquid',
  market: 'BTC',
  side: 'buy',
  price: '50000.5',
  size: '0.004',
  order_id: 'o-1',
  client_order_id: 'c-1',
  fully_filled: false,
  timestamp_ms: Date.parse('2026-12-03T10:00:01.200Z'),
  fill_id: 'f-1',
  fee: '-0.01',
  fee_asset: 'USDC',
  liquidity: 'maker',
};
const HEDGE_FILL = {
  exchange: 'paradex',
  side: 'sell',
  price: '49995',
  size: '0.004',
  order_id: 'ho-1',
  timestamp_ms: Date.parse('2026-12-03T10:00:01.400Z'),
  client_order_id: 'h-1',
  fee: '0.22',
  fee_asset: 'USDC',
  liquidity: 'taker',
};

const webhookIdOf = (request: Received): string => String(request.headers['webhook-id']);
const bodyOf = (request: Received): any => JSON.parse(request.body);

/**
 * Issue 58, webhook delivery: endpoints written through their repository (as
 * the API writes them, the secret sealed with the deployment's key), events
 * published on JetStream as the workers and the operator tool publish them,
 * a receiver on loopback (WEBHOOKS_ALLOW_PRIVATE_ADDRESSES on, except where
 * the refusal is the point).
 */
describe('webhook delivery', () => {
  const harness = new NotifierHarness();
  const receiver = new WebhookReceiver();
  let db: DataSource;
  let endpoints: WebhookEndpointRepository;
  let deliveries: WebhookDeliveryRepository;
  let cipher: CredentialCipher;
  let replica: RunningNotifier;

  /** An endpoint of `user`'s at `path` on the receiver (or at `url`), with its signing secret. */
  const register = async (
    user: TestUser,
    path: string,
    events: WebhookEventType[],
    format: WebhookFormat = 'standard',
    url = `${receiver.url}${path}`,
  ): Promise<{ id: string; secret: string }> => {
    const id = randomUUID();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await endpoints.create(id, {
      userId: user.userId,
      url,
      events,
      format,
      description: path,
      secret: cipher.sealText(secret, webhookSecretContext(user.userId, id)),
    });
    return { id, secret };
  };

  /** An endpoint's deliveries, oldest first. */
  const deliveriesOf = async (endpointId: string): Promise<WebhookDelivery[]> =>
    (await deliveries.pageOf(endpointId, 100)).reverse();

  beforeAll(async () => {
    await receiver.start();
    await harness.start(WEBHOOK_ENV);
    db = createDataSource(harness.database.url, 'webhooks-e2e');
    await db.initialize();
    endpoints = new WebhookEndpointRepository(db.manager);
    deliveries = new WebhookDeliveryRepository(db.manager);
    cipher = new CredentialCipher('w1', harness.kek);
    replica = await harness.addReplica();
  });
  afterAll(async () => {
    await harness.stop();
    await db?.destroy();
    await receiver.stop();
  });

  it('sends a user’s trade events to their endpoint, signed, and nothing of another user’s', async () => {
    const alice = await harness.user();
    const bob = await harness.user();
    const hook = await register(alice, '/alice', ['trade.status_changed', 'trade.fill']);
    const aliceTrade = await harness.trade(alice, 'active');
    const bobTrade = await harness.trade(bob, 'active');
    const started = { target_size: '0.01', size_type: 'base' };

    // Bob's events first: the endpoint gets its events in the stream's order, so
    // by the time Alice's last one arrives, any of Bob's would have too.
    await harness.publishLifecycle(bob, bobTrade, 'trade.started', 'active', started);
    await harness.publishFill(bob, bobTrade, 1, 'maker_fill', MAKER_FILL);
    await harness.publishLifecycle(alice, aliceTrade, 'trade.started', 'active', started);
    await harness.publishFill(alice, aliceTrade, 1, 'maker_fill', MAKER_FILL);
    await harness.publishFill(alice, aliceTrade, 2, 'hedge_outcome', {});
    await harness.publishFill(alice, aliceTrade, 3, 'hedge_filled', HEDGE_FILL);

    const got = await eventually(
      () => receiver.of('/alice').length >= 3 && receiver.of('/alice'),
      'three deliveries to Alice’s endpoint',
    );
    expect(got.map(bodyOf)).toEqual([
      {
        type: 'trade.status_changed',
        timestamp: expect.any(String),
        data: {
          trade_id: aliceTrade,
          market: 'BTC',
          event: 'trade.started',
          status: 'active',
          filled_size: '0',
          target_size: '0.01',
          size_type: 'base',
          failure_reason: null,
          details: started,
        },
      },
      {
        type: 'trade.fill',
        timestamp: expect.any(String),
        data: expect.objectContaining({ trade_id: aliceTrade, sequence: 1, leg: 'maker' }),
      },
      {
        type: 'trade.fill',
        timestamp: expect.any(String),
        data: {
          trade_id: aliceTrade,
          market: 'BTC',
          sequence: 3,
          leg: 'hedge',
          event_type: 'hedge_filled',
          exchange: 'paradex',
          side: 'sell',
          price: '49995',
          size: '0.004',
          fee: '0.22',
          fee_asset: 'USDC',
          liquidity: 'taker',
          order_id: 'ho-1',
          filled_at: '2026-12-03T10:00:01.400Z',
        },
      },
    ]);
    expect(receiver.received.some((request) => request.body.includes(bobTrade))).toBe(false);

    const stranger = new Webhook(`whsec_${randomBytes(24).toString('base64')}`);
    for (const request of got) {
      const headers = request.headers as Record<string, string>;
      expect(headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': expect.stringMatching(/^sts-webhooks\//),
        'webhook-id': expect.stringMatching(/^msg_[0-9a-f]{32}$/),
        'webhook-signature': expect.stringMatching(/^v1,/),
      });
      expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(new Webhook(hook.secret).verify(request.body, headers)).toEqual(bodyOf(request));
      expect(() => stranger.verify(request.body, headers)).toThrow(WebhookVerificationError);
    }
    expect(new Set(got.map(webhookIdOf)).size).toBe(3);
    const recorded = await eventually(async () => {
      const owed = await deliveriesOf(hook.id);
      return owed.every((one) => one.status === 'delivered') && owed;
    }, 'the three recorded delivered');
    expect(recorded.map((one) => [one.messageId, one.attempts])).toEqual(
      got.map((request) => [webhookIdOf(request), 1]),
    );
  });

  it('sends again with the same webhook-id, ever later, and the next message only after', async () => {
    const carol = await harness.user();
    const hook = await register(carol, '/flaky', ['trade.status_changed']);
    receiver.answer('/flaky', (index) =>
      index < 2 ? { status: 500, body: 'down\nfor  maintenance' } : { status: 200 },
    );
    const trade = await harness.trade(carol, 'active');
    await harness.publishLifecycle(carol, trade, 'trade.paused', 'paused', {
      reason: 'exchange_maintenance',
      exchange: 'paradex',
    });
    await harness.publishLifecycle(carol, trade, 'trade.resumed', 'active');

    const requests = await eventually(
      () => receiver.of('/flaky').length >= 4 && receiver.of('/flaky'),
      'the first message three times, then the second',
    );
    const [first, second] = (await deliveriesOf(hook.id)).map((one) => one.messageId);
    expect(requests.map((request) => [webhookIdOf(request), request.status])).toEqual([
      [first, 500],
      [first, 500],
      [first, 200],
      [second, 200],
    ]);
    const gaps = [requests[1].at - requests[0].at, requests[2].at - requests[1].at];
    expect(gaps[0]).toBeGreaterThanOrEqual(200);
    expect(gaps[1]).toBeGreaterThanOrEqual(800);
    expect(gaps[1]).toBeGreaterThan(gaps[0]);

    const [owed] = await deliveriesOf(hook.id);
    expect(owed).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(owed.attemptLog.map((attempt) => [attempt.status_code, attempt.error])).toEqual([
      [500, 'answered 500: down for maintenance'],
      [500, 'answered 500: down for maintenance'],
      [200, null],
    ]);
    // Failing from the first 500 until the 200.
    expect((await endpoints.oneOf(carol.userId, hook.id))?.failingSince).toBeNull();
  });

  it('renders the kill switch for Slack, Discord and Telegram as each takes it', async () => {
    const dave = await harness.user();
    await register(dave, '/slack', ['system.kill_switch'], 'slack');
    await register(dave, '/discord', ['system.kill_switch'], 'discord');
    const telegram = `${receiver.url}/bot123:abc/sendMessage?chat_id=-1001234`;
    await register(dave, '/bot123:abc/sendMessage', ['system.kill_switch'], 'telegram', telegram);

    await harness.ops('kill-switch', 'on', '--reason', 'venue outage');
    const [slack, discord, bot] = await eventually(() => {
      const sent = ['/slack', '/discord', '/bot123:abc/sendMessage'].map(
        (path) => receiver.of(path)[0],
      );
      return sent.every(Boolean) && sent;
    }, 'the kill switch in three chats');
    expect(bodyOf(slack)).toEqual({ text: 'Kill switch ON: venue outage' });
    expect(bodyOf(discord)).toEqual({
      content: 'Kill switch ON: venue outage',
      allowed_mentions: { parse: [] },
    });
    expect(bot.url).toBe('/bot123:abc/sendMessage?chat_id=-1001234');
    expect(bodyOf(bot)).toEqual({ chat_id: '-1001234', text: 'Kill switch ON: venue outage' });
    await harness.ops('kill-switch', 'off');
    await eventually(() => receiver.of('/slack').length === 2, 'the kill switch off');
    expect(bodyOf(receiver.of('/slack')[1])).toEqual({ text: 'Kill switch OFF' });
  });

  it('never follows a redirect, and fails the delivery when the schedule is spent', async () => {
    const erin = await harness.user();
    const hook = await register(erin, '/moved', ['trade.status_changed']);
    receiver.answer('/moved', () => ({
      status: 302,
      headers: { location: `${receiver.url}/elsewhere` },
    }));
    await harness.publishLifecycle(
      erin,
      await harness.trade(erin, 'active'),
      'trade.paused',
      'paused',
    );

    const [failed] = await eventually(async () => {
      const owed = await deliveriesOf(hook.id);
      return owed[0]?.status === 'failed' && owed;
    }, 'the delivery failed');
    expect(failed.attempts).toBe(4);
    expect(failed.attemptLog[0]).toMatchObject({
      status_code: 302,
      error: `answered 302, a redirect to ${receiver.url}/elsewhere: not followed`,
    });
    expect(receiver.of('/moved')).toHaveLength(4);
    expect(receiver.of('/elsewhere')).toEqual([]);
    expect((await endpoints.oneOf(erin.userId, hook.id))?.failingSince).toBeInstanceOf(Date);
  });

  it('disables an endpoint that answers 410 Gone, and cancels what it is still owed', async () => {
    const gina = await harness.user();
    const hook = await register(gina, '/gone', ['trade.status_changed']);
    receiver.answer('/gone', () => ({ status: 410 }));
    const trade = await harness.trade(gina, 'active');
    await harness.publishLifecycle(gina, trade, 'trade.paused', 'paused');
    await harness.publishLifecycle(gina, trade, 'trade.resumed', 'active');

    const disabled = await eventually(async () => {
      const endpoint = await endpoints.oneOf(gina.userId, hook.id);
      return endpoint?.disabledAt && endpoint;
    }, 'the endpoint disabled');
    expect(disabled.disabledReason).toMatch(
      /^answered 410 Gone at .+: the receiver asks for no more deliveries$/,
    );
    // The second event may be taken in after the endpoint was disabled: it is canceled when due.
    const owed = await eventually(async () => {
      const both = await deliveriesOf(hook.id);
      return both.length === 2 && both.every((one) => one.status !== 'pending') && both;
    }, 'both events settled');
    expect(owed.map((one) => one.status)).toEqual(['failed', 'canceled']);
    expect(receiver.of('/gone')).toHaveLength(1);
  });

  it('never shows an endpoint disabled while what it owed then is still pending', async () => {
    const ivan = await harness.user();
    const hook = await register(ivan, '/gone-later', ['trade.status_changed']);
    receiver.answer('/gone-later', () => 'hold');
    const trade = await harness.trade(ivan, 'active');
    await harness.publishLifecycle(ivan, trade, 'trade.paused', 'paused');
    await harness.publishLifecycle(ivan, trade, 'trade.resumed', 'active');
    await eventually(() => receiver.of('/gone-later').length === 1, 'the first attempt held');
    const [, second] = await eventually(async () => {
      const both = await deliveriesOf(hook.id);
      return both.length === 2 && both;
    }, 'both events owed');

    // The second delivery's row locked: the cancel of what the endpoint owes waits for it.
    const locker = db.createQueryRunner();
    await locker.connect();
    try {
      await locker.startTransaction();
      await locker.query('SELECT id FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [second.id]);
      receiver.release('/gone-later', 410);
      await eventually(async () => {
        const waiting = await db.query(
          `SELECT 1 FROM pg_stat_activity
           WHERE wait_event_type = 'Lock' AND query LIKE '%SET status = ''canceled''%'`,
        );
        return waiting.length > 0;
      }, 'the cancel waiting on the locked delivery');
      const meanwhile = await endpoints.oneOf(ivan.userId, hook.id);
      expect(meanwhile?.disabledAt).toBeNull();
    } finally {
      await locker.rollbackTransaction().catch(() => undefined);
      await locker.release();
    }

    await eventually(
      async () => (await endpoints.oneOf(ivan.userId, hook.id))?.disabledAt,
      'the endpoint disabled',
    );
    expect((await deliveriesOf(hook.id)).map((one) => one.status)).toEqual(['failed', 'canceled']);
  });

  describe('with private addresses refused', () => {
    let strict: RunningNotifier;

    beforeAll(async () => {
      await replica.close();
      strict = await harness.addReplica({
        WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'false',
        // Failing from the first attempt on: disabled at the third (after 200 + 800 ms).
        WEBHOOKS_DISABLE_AFTER_MS: '500',
      });
    });
    afterAll(() => strict.close());

    it('sends nothing to loopback, records the refusal, then disables the failing endpoint', async () => {
      const hank = await harness.user();
      // https, as the gateway registers URLs with the setting off: the address is what is refused.
      const port = new URL(receiver.url).port;
      const literal = await register(
        hank,
        '/private',
        ['trade.status_changed'],
        'standard',
        `https://127.0.0.1:${port}/private`,
      );
      const named = await register(
        hank,
        '/named',
        ['trade.status_changed'],
        'standard',
        `https://localhost:${port}/named`,
      );
      const plain = await register(hank, '/plain', ['trade.status_changed']);
      const trade = await harness.trade(hank, 'active');
      await harness.publishLifecycle(hank, trade, 'trade.paused', 'paused');
      await harness.publishLifecycle(hank, trade, 'trade.resumed', 'active');

      const disabled = await eventually(async () => {
        const endpoint = await endpoints.oneOf(hank.userId, literal.id);
        return endpoint?.disabledAt && endpoint;
      }, 'the endpoint disabled');
      const refusal = 'refused: 127.0.0.1 resolves to 127.0.0.1, which is not a public address';
      expect(disabled.disabledReason).toMatch(
        new RegExp(`^failing since \\S+; last error: ${refusal}$`),
      );
      const [first, second] = await deliveriesOf(literal.id);
      expect(first.attemptLog[0]).toMatchObject({ status_code: null, error: refusal });
      // Disabled while the first was still due again: both canceled.
      expect([first.status, second.status]).toEqual(['canceled', 'canceled']);
      expect(first.attempts).toBeGreaterThanOrEqual(2);

      const [byName] = await eventually(async () => {
        const owed = await deliveriesOf(named.id);
        return owed[0]?.attempts > 0 && owed;
      }, 'an attempt to localhost');
      expect(byName.attemptLog[0].error).toMatch(
        /^refused: localhost resolves to (127\.0\.0\.1|::1), which is not a public address$/,
      );
      const [byScheme] = await eventually(async () => {
        const owed = await deliveriesOf(plain.id);
        return owed[0]?.attempts > 0 && owed;
      }, 'an attempt over plain http');
      expect(byScheme.attemptLog[0].error).toBe('refused: http: URLs are not called (https: only)');
      expect(receiver.of('/private')).toEqual([]);
      expect(receiver.of('/named')).toEqual([]);
      expect(receiver.of('/plain')).toEqual([]);
    });
  });

  describe('across a kill -9', () => {
    let killed: NotifierProcess;

    beforeAll(async () => {
      killed = await new NotifierProcess(
        {
          ...harness.env,
          // A claim outlasts the attempt's timeout by 5 s: it lapses within 7 s of the kill.
          WEBHOOKS_TIMEOUT_MS: '2000',
          NOTIFIER_METRICS_PORT: '0',
        },
        join(harness.logDir, 'notifier-process.log'),
      ).start();
    });
    afterAll(() => killed.remove());

    it('delivers every message after a restart, each once and in order', async () => {
      const ivy = await harness.user();
      const hook = await register(ivy, '/durable', ['trade.status_changed']);
      // The first request is never answered: in flight when the process dies.
      receiver.answer('/durable', (index) => (index === 0 ? 'hold' : { status: 200 }));
      const trade = await harness.trade(ivy, 'active');
      await harness.publishLifecycle(ivy, trade, 'trade.paused', 'paused');
      await harness.publishLifecycle(ivy, trade, 'trade.resumed', 'active');
      await harness.publishLifecycle(ivy, trade, 'trade.paused', 'paused');
      await eventually(() => receiver.of('/durable').length === 1, 'the first delivery in flight');
      await eventually(
        async () => (await deliveriesOf(hook.id)).length === 3,
        'three deliveries owed',
      );
      await killed.kill();

      // Published while no notifier runs: the durable consumer keeps them.
      await harness.publishLifecycle(ivy, trade, 'trade.resumed', 'active');
      await harness.publishLifecycle(ivy, trade, 'trade.completed', 'completed', {
        filled_size: '0.01',
        target_size: '0.01',
      });
      await harness.addReplica();

      const answered = await eventually(
        () => {
          const ok = receiver.of('/durable').filter((request) => request.status === 200);
          return ok.length >= 5 && ok;
        },
        'five messages delivered',
        20_000,
      );
      // A delivery is marked after its answer came: the receiver may see the fifth first.
      const owed = await eventually(async () => {
        const rows = await deliveriesOf(hook.id);
        return rows.length === 5 && rows.every((one) => one.status === 'delivered') && rows;
      }, 'five deliveries marked delivered').catch(() => deliveriesOf(hook.id));
      expect(owed.map((one) => one.status)).toEqual(Array(5).fill('delivered'));
      expect(answered.map(webhookIdOf)).toEqual(owed.map((one) => one.messageId));
      expect(answered.map((request) => bodyOf(request).data.event)).toEqual([
        'trade.paused',
        'trade.resumed',
        'trade.paused',
        'trade.resumed',
        'trade.completed',
      ]);
      // The one cut short went again under its own id.
      expect(webhookIdOf(receiver.of('/durable')[0])).toBe(owed[0].messageId);
    });
  });
});
