import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { GatewayHarness } from './gateway-harness';

/** A raw HTTP exchange: the harness's fetch cannot send a body fetch would refuse. */
function raw(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The one error shape: error and a snake_case code (reason only where decided), nothing else. */
function expectErrorBody(text: string, code: string): void {
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).toEqual({ error: expect.any(String), code });
  expect(text).not.toMatch(
    /statusCode|"stack"|Error:|\bat \/|Fastify|NestJS|QueryFailed|SELECT |typeorm/,
  );
}

describe('the HTTP edge: nulls, limits, one error shape, canonical decimals, path parameters', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex', 'lighter', 'extended']);
  });
  afterAll(() => gateway.stop());

  const tradeCount = async (): Promise<number> =>
    (await gateway.query<{ n: number }>(`SELECT count(*)::int AS n FROM trades`))[0].n;

  const create = (body: unknown, headers: Record<string, string> = {}) =>
    gateway.request('POST', '/api/v1/trades', { headers: { ...trader.headers, ...headers }, body });

  /** A create whose body is sent as these bytes, with this content type. */
  const postTrades = (body: string, contentType = 'application/json') =>
    raw(
      gateway.baseUrl,
      'POST',
      '/api/v1/trades',
      { ...trader.headers, 'content-type': contentType },
      body,
    );

  async function browserUser() {
    const account = privateKeyToAccount(generatePrivateKey());
    const userId = `idp|${randomBytes(6).toString('hex')}`;
    const token = await gateway.jwks.sign({ sub: userId, wallet_address: account.address });
    return { userId, headers: { authorization: `Bearer ${token}` } };
  }

  describe('null in an optional field is refused, never read as a value', () => {
    it('answers "idempotency_key": null with 400 idempotency_key_required, not a replay of the trade keyed "null"', async () => {
      const keyedNull = await create(
        gateway.tradeBody(trader.wallet, { market: 'ETH', idempotency_key: 'null' }),
      );
      expect(keyedNull.status).toBe(202);
      const before = await tradeCount();
      const response = await create(
        gateway.tradeBody(trader.wallet, { market: 'ETH', idempotency_key: null }),
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: expect.any(String),
        code: 'idempotency_key_required',
      });
      expect(await tradeCount()).toBe(before);
    });

    it.each([
      ['a number', 42],
      ['an object', { key: 'abc' }],
      ['an array', ['abc']],
      ['a boolean', true],
    ])(
      'answers an idempotency key that is %s with 400 invalid_idempotency_key',
      async (_what, key) => {
        const before = await tradeCount();
        const response = await create(gateway.tradeBody(trader.wallet, { idempotency_key: key }));
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('invalid_idempotency_key');
        expect(await tradeCount()).toBe(before);
      },
    );

    it.each([
      'size_type',
      'spread_type',
      'quote_mode',
      'worst_spread',
      'fast_move_guard',
      'fast_move_guard_bps',
      'fast_move_window_ms',
      'fast_move_settle_ms',
    ])('answers null %s on create with 400 invalid_request', async (field) => {
      const before = await tradeCount();
      const response = await create(gateway.tradeBody(trader.wallet, { [field]: null }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: expect.stringContaining(field),
        code: 'invalid_request',
      });
      expect(await tradeCount()).toBe(before);
    });

    it('answers a PATCH of nulls with 400 and changes nothing, updated_at included', async () => {
      const created = await create(gateway.tradeBody(trader.wallet, { market: 'SOL' }));
      expect(created.status).toBe(202);
      const id = created.body.trade_id as string;
      const before = await gateway.request('GET', `/api/v1/trades/${id}`, {
        headers: trader.headers,
      });
      for (const body of [
        {
          target_size: null,
          target_spread: null,
          max_slippage: null,
          size_type: null,
          spread_type: null,
        },
        { target_size: null },
        { max_slippage: null, target_size: '0.02' },
      ]) {
        const response = await gateway.request('PATCH', `/api/v1/trades/${id}`, {
          headers: trader.headers,
          body,
        });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('invalid_request');
      }
      const after = await gateway.request('GET', `/api/v1/trades/${id}`, {
        headers: trader.headers,
      });
      expect(after.body).toEqual(before.body);
      const [row] = await gateway.query(`SELECT amendment_version FROM trades WHERE id = $1`, [id]);
      expect(row.amendment_version).toBe(0);
    });
  });

  describe('body depth and size limits', () => {
    const nestedObject = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const nestedArray = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

    it.each([
      ['objects', nestedObject(3000)],
      ['arrays', nestedArray(3000)],
      ['objects, 17 levels (one past the limit)', nestedObject(17)],
    ])('answers nested %s in a create field with 400 invalid_request', async (_what, nested) => {
      const before = await tradeCount();
      const body = JSON.stringify(gateway.tradeBody(trader.wallet)).replace(
        '"target_spread":"5"',
        `"target_spread":${nested}`,
      );
      const response = await postTrades(body);
      expect(response.status).toBe(400);
      expectErrorBody(response.text, 'invalid_request');
      expect(await tradeCount()).toBe(before);
    });

    it('answers a body over 64 KiB with 413 payload_too_large', async () => {
      const response = await postTrades(JSON.stringify({ market: 'x'.repeat(70_000) }));
      expect(response.status).toBe(413);
      expectErrorBody(response.text, 'payload_too_large');
    });
  });

  describe('one {error, code} shape for everything the HTTP stack refuses', () => {
    it('431 for an oversized header', async () => {
      const response = await raw(gateway.baseUrl, 'GET', '/api/v1/maintenance', {
        'x-padding': 'p'.repeat(20_000),
      });
      expect(response.status).toBe(431);
      expectErrorBody(response.text, 'headers_too_large');
    });

    it('414 for an over-long request target', async () => {
      const response = await raw(
        gateway.baseUrl,
        'GET',
        `/api/v1/markets?exchanges=${'a'.repeat(3000)}`,
        {},
      );
      expect(response.status).toBe(414);
      expectErrorBody(response.text, 'uri_too_long');
    });

    it('415 for a body that is not JSON', async () => {
      const response = await postTrades('market=BTC', 'text/plain');
      expect(response.status).toBe(415);
      expectErrorBody(response.text, 'unsupported_media_type');
    });

    it('404 for an unknown route, 405 with Allow for a known path and another method', async () => {
      const unknown = await raw(gateway.baseUrl, 'GET', '/api/v1/nothing/here', {});
      expect(unknown.status).toBe(404);
      expectErrorBody(unknown.text, 'not_found');
      const wrongMethod = await raw(gateway.baseUrl, 'PUT', '/api/v1/trades', trader.headers, '');
      expect(wrongMethod.status).toBe(405);
      expectErrorBody(wrongMethod.text, 'method_not_allowed');
      expect(wrongMethod.headers['allow']).toBe('GET, POST');
    });

    it.each([
      ['truncated JSON', '{"market": '],
      ['a __proto__ key', '{"__proto__": {"admin": true}, "market": "BTC"}'],
      ['a constructor.prototype key', '{"constructor": {"prototype": {"admin": true}}}'],
      ['an empty body', ''],
    ])('400 invalid_request for %s', async (_what, body) => {
      const response = await postTrades(body);
      expect(response.status).toBe(400);
      expectErrorBody(response.text, 'invalid_request');
    });
  });

  describe('the same strictness everywhere, decimals in one canonical spelling', () => {
    it('refuses an unknown field on POST /auth/verify, like every other body', async () => {
      const user = await browserUser();
      const response = await gateway.request('POST', '/api/v1/auth/verify', {
        headers: user.headers,
        body: { user_id: 'someone-else' },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_request');
      const empty = await gateway.request('POST', '/api/v1/auth/verify', { headers: user.headers });
      expect(empty.status).toBe(200);
    });

    it('stores "-0" as 0 and "1.50" as 1.5, on create and on PATCH', async () => {
      const created = await create(
        gateway.tradeBody(trader.wallet, {
          market: 'BTC',
          long_exchange: 'lighter',
          short_exchange: 'extended',
          target_spread: '-0',
          max_slippage: '-0.000',
          target_size: '0.0100',
        }),
      );
      expect(created.status).toBe(202);
      const id = created.body.trade_id as string;
      const got = await gateway.request('GET', `/api/v1/trades/${id}`, { headers: trader.headers });
      expect(got.body).toMatchObject({
        target_spread: '0',
        max_slippage: '0',
        target_size: '0.01',
      });

      const amended = await gateway.request('PATCH', `/api/v1/trades/${id}`, {
        headers: trader.headers,
        body: { target_spread: '-0.0', max_slippage: '0.0010', target_size: '0.020' },
      });
      expect(amended.status).toBe(202);
      const [row] = await gateway.query(`SELECT amendment FROM trades WHERE id = $1`, [id]);
      expect(row.amendment).toMatchObject({
        target_spread: '0',
        max_slippage: '0.001',
        target_size: '0.02',
      });
    });

    it('still refuses "-0" where the value must be positive', async () => {
      const response = await create(gateway.tradeBody(trader.wallet, { target_size: '-0' }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_request');
    });
  });

  describe('path and query parameters never reach a query unchecked', () => {
    it.each([
      '/api/v1/wallets/%00',
      '/api/v1/wallets/0x%00abc',
      '/api/v1/credentials/hyperliquid/%00',
      '/api/v1/credentials/%00/0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
    ])('DELETE %s answers 400 invalid_request', async (path) => {
      const user = await browserUser();
      await gateway.request('POST', '/api/v1/auth/verify', { headers: user.headers });
      const response = await raw(gateway.baseUrl, 'DELETE', path, user.headers);
      expect(response.status).toBe(400);
      expectErrorBody(response.text, 'invalid_request');
    });

    it('POST /credentials/%00 answers 400 invalid_request', async () => {
      const user = await browserUser();
      const response = await raw(
        gateway.baseUrl,
        'POST',
        '/api/v1/credentials/%00',
        {
          ...user.headers,
          'content-type': 'application/json',
        },
        JSON.stringify({
          wallet_addr: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed',
          api_key: 'k'.repeat(8),
          api_secret: 's'.repeat(8),
        }),
      );
      expect(response.status).toBe(400);
      expectErrorBody(response.text, 'invalid_request');
    });

    it.each(['2147483648', '99999999999999999999', '-1', '1.5', 'abc'])(
      'GET /trades/{id}/events?after_sequence=%s answers 400 invalid_request',
      async (value) => {
        const [{ id }] = await gateway.query<{ id: string }>(
          `SELECT id FROM trades WHERE user_id = $1 LIMIT 1`,
          [trader.userId],
        );
        const response = await gateway.request(
          'GET',
          `/api/v1/trades/${id}/events?after_sequence=${value}`,
          { headers: trader.headers },
        );
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('invalid_request');
      },
    );

    it('answers the largest sequence with 200', async () => {
      const created = await create(
        gateway.tradeBody(trader.wallet, { long_exchange: 'lighter', short_exchange: 'paradex' }),
      );
      expect(created.status).toBe(202);
      const id = created.body.trade_id as string;
      const response = await gateway.request(
        'GET',
        `/api/v1/trades/${id}/events?after_sequence=2147483647`,
        { headers: trader.headers },
      );
      expect(response.status).toBe(200);
      expect(response.body.events).toEqual([]);
    });

    it('a trade id with a NUL byte is the same 404 as an unknown one; one past 100 characters is 414', async () => {
      for (const id of ['%00', '00000000-0000-4000-8000-00000000000%00']) {
        for (const path of [`/api/v1/trades/${id}`, `/api/v1/trades/${id}/events`]) {
          const response = await raw(gateway.baseUrl, 'GET', path, trader.headers);
          expect(response.status).toBe(404);
          expect(JSON.parse(response.text)).toEqual({
            error: 'trade not found',
            code: 'trade_not_found',
          });
        }
      }
      const long = await raw(
        gateway.baseUrl,
        'GET',
        `/api/v1/trades/${'a'.repeat(200)}`,
        trader.headers,
      );
      expect(long.status).toBe(414);
      expectErrorBody(long.text, 'uri_too_long');
    });
  });
});
