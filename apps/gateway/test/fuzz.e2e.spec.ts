import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { Client } from 'pg';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  errorBodyProblem,
  fuzzSeed,
  headerSafe,
  hostileHeaderValue,
  hostileJsonText,
  hostileKey,
  hostilePathSegment,
  hostileString,
  hostileValue,
  percentEncode,
  RAW_NUMBER_TEXTS,
  TRICKY_DECIMALS,
} from '@sts/testing/fuzz';
import { GatewayHarness, openApiConformance } from './gateway-harness';

/**
 * Schema-driven fuzzing of every gateway route: each case takes a valid
 * request of one route and breaks one thing (a field's type or value, a
 * missing or extra field, the whole body, the raw JSON text, the content
 * type, a path parameter, the query, a header, the credentials, the method).
 * Whatever comes back must be a 2xx, or a refusal below 500 in the one
 * `{error, code}` shape with nothing of the inside, and a refusal must leave
 * the database as it was.
 *
 * The seed is printed; FUZZ_SEED=<seed> replays a run, FUZZ_RUNS sets the count.
 */
const SEED = fuzzSeed();
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 3200);

jest.setTimeout(120_000);

type Auth = 'key' | 'session' | 'either' | 'public';

interface Route {
  name: string;
  method: string;
  /** Path with `:param` placeholders. */
  path: string;
  auth: Auth;
  params?: () => Record<string, string>;
  query?: () => Record<string, string>;
  body?: () => Record<string, unknown>;
  /** Body fields holding decimals (raw-number and tricky-decimal cases aim at them). */
  decimals?: readonly string[];
}

const CREDENTIAL_VARIANTS = ['none', 'bad_key', 'bad_jwt', 'expired_jwt', 'other_method'] as const;

type Mutation =
  | { kind: 'field'; field: string; value: unknown }
  | { kind: 'drop'; field: number }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'raw_number'; field: number; text: string }
  | { kind: 'tricky_decimal'; field: number; text: string }
  | { kind: 'body_text'; text: string }
  | { kind: 'body_value'; value: unknown }
  | { kind: 'content_type'; contentType: string }
  | { kind: 'path_param'; index: number; segment: string }
  | { kind: 'query'; key: string; value: string; repeat: boolean }
  | { kind: 'header'; name: string; value: string }
  | {
      kind: 'credentials';
      variant: (typeof CREDENTIAL_VARIANTS)[number];
      text: string;
    }
  | { kind: 'method'; method: string };

describe('fuzzing every gateway route', () => {
  const gateway = new GatewayHarness();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;
  let session: { headers: Record<string, string>; wallet: string };
  let expiredJwt = '';
  let tradeId = '';
  let webhookId = '';
  /** One connection for the per-case fingerprint (the harness opens one per query). */
  let db: Client;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true, env: { LOG_LEVEL: 'warn' } });
    trader = await gateway.trader(
      ['hyperliquid', 'paradex', 'lighter'],
      'trades:read,trades:write,account:read,webhooks:read,webhooks:write',
    );
    const account = privateKeyToAccount(generatePrivateKey());
    const sub = `idp|fuzz-${randomBytes(4).toString('hex')}`;
    const token = await gateway.jwks.sign({ sub, wallet_address: account.address });
    expiredJwt = await gateway.jwks.sign(
      { sub, wallet_address: account.address },
      { expiresInSeconds: -60 },
    );
    session = {
      headers: { authorization: `Bearer ${token}` },
      wallet: account.address.toLowerCase(),
    };
    expect(
      (await gateway.request('POST', '/api/v1/auth/verify', { headers: session.headers })).status,
    ).toBe(200);
    const created = await gateway.request('POST', '/api/v1/trades', {
      headers: trader.headers,
      body: gateway.tradeBody(trader.wallet, { maker_leg: 'short', market: 'ETH' }),
    });
    expect(created.status).toBe(202);
    tradeId = created.body.trade_id;
    const webhook = await gateway.request('POST', '/api/v1/webhooks', {
      headers: trader.headers,
      body: webhookBody(),
    });
    expect(webhook.status).toBe(201);
    webhookId = webhook.body.id;
    db = new Client({ connectionString: gateway.database.url });
    await db.connect();
  });
  afterAll(async () => {
    agent.destroy();
    await db?.end();
    await gateway.stop();
  });

  const someAddress = () => privateKeyToAccount(generatePrivateKey()).address;
  /** A public address: the address rule passes with no name server to ask. */
  const webhookBody = () => ({
    url: `https://93.184.215.14/fuzz/${randomBytes(4).toString('hex')}`,
    events: ['trade.fill', 'trade.failed'],
    format: 'standard',
    description: 'fuzz',
  });

  const ROUTES: Route[] = [
    {
      name: 'create trade',
      method: 'POST',
      path: '/api/v1/trades',
      auth: 'either',
      body: () =>
        gateway.tradeBody(trader.wallet, {
          long_exchange: 'lighter',
          short_exchange: 'paradex',
          idempotency_key: `fz-${randomBytes(6).toString('hex')}`,
          quote_mode: 'aggressive',
          worst_spread: '6',
          fast_move_guard: 'on',
          fast_move_guard_bps: 20,
          fast_move_window_ms: 250,
          fast_move_settle_ms: 500,
        }),
      decimals: [
        'target_spread',
        'target_size',
        'max_slippage',
        'worst_spread',
        'fast_move_guard_bps',
      ],
    },
    { name: 'list trades', method: 'GET', path: '/api/v1/trades', auth: 'either' },
    {
      name: 'get trade',
      method: 'GET',
      path: '/api/v1/trades/:tradeId',
      auth: 'either',
      params: () => ({ tradeId }),
    },
    {
      name: 'trade events',
      method: 'GET',
      path: '/api/v1/trades/:tradeId/events',
      auth: 'either',
      params: () => ({ tradeId }),
      query: () => ({ after_sequence: '0', limit: '10' }),
    },
    {
      name: 'trade quality',
      method: 'GET',
      path: '/api/v1/trades/:tradeId/quality',
      auth: 'either',
      params: () => ({ tradeId }),
    },
    {
      name: 'quality',
      method: 'GET',
      path: '/api/v1/quality',
      auth: 'either',
      query: () => ({
        from: new Date(Date.now() - 86_400_000).toISOString(),
        to: new Date().toISOString(),
        group_by: 'market',
      }),
    },
    {
      name: 'amend trade',
      method: 'PATCH',
      path: '/api/v1/trades/:tradeId',
      auth: 'either',
      params: () => ({ tradeId }),
      body: () => ({
        target_size: '0.02',
        target_spread: '4',
        spread_type: 'absolute',
        max_slippage: '0.002',
        size_type: 'base',
      }),
      decimals: ['target_size', 'target_spread', 'max_slippage'],
    },
    {
      // An unknown (well-formed) id: a case that stays valid is a 404, never a cancel of the fixture.
      name: 'cancel trade',
      method: 'DELETE',
      path: '/api/v1/trades/:tradeId',
      auth: 'either',
      params: () => ({ tradeId: randomUUID() }),
    },
    {
      name: 'markets',
      method: 'GET',
      path: '/api/v1/markets',
      auth: 'public',
      query: () => ({ exchanges: 'hyperliquid,paradex', min_exchanges: '1' }),
    },
    {
      // Read from the paper venues' books: a case that stays valid is a 200 (or a venue's 503).
      name: 'spread',
      method: 'GET',
      path: '/api/v1/markets/:market/spread',
      auth: 'public',
      params: () => ({ market: 'BTC' }),
      query: () => ({
        long_exchange: 'hyperliquid',
        short_exchange: 'paradex',
        maker_leg: 'short',
        spread_type: 'bps',
        target_spread: '5',
        spread_condition: 'gte',
      }),
    },
    { name: 'maintenance', method: 'GET', path: '/api/v1/maintenance', auth: 'public' },
    { name: 'wallets', method: 'GET', path: '/api/v1/wallets', auth: 'either' },
    { name: 'credentials', method: 'GET', path: '/api/v1/credentials', auth: 'either' },
    {
      name: 'link challenge',
      method: 'POST',
      path: '/api/v1/wallets/link/challenge',
      auth: 'session',
      body: () => ({ address: someAddress() }),
    },
    {
      name: 'link wallet',
      method: 'POST',
      path: '/api/v1/wallets/link',
      auth: 'session',
      body: () => ({
        address: someAddress(),
        nonce: randomBytes(16).toString('hex'),
        signature: `0x${randomBytes(65).toString('hex')}`,
      }),
    },
    {
      name: 'unlink wallet',
      method: 'DELETE',
      path: '/api/v1/wallets/:address',
      auth: 'session',
      params: () => ({ address: someAddress() }),
    },
    {
      name: 'add credential',
      method: 'POST',
      path: '/api/v1/credentials/:exchange',
      auth: 'session',
      params: () => ({ exchange: 'extended' }),
      body: () => ({
        wallet_addr: someAddress(),
        api_key: `key-${randomBytes(8).toString('hex')}`,
        api_secret: `secret-${randomBytes(16).toString('hex')}`,
        passphrase: 'pass',
      }),
    },
    {
      name: 'remove credential',
      method: 'DELETE',
      path: '/api/v1/credentials/:exchange/:wallet',
      auth: 'session',
      params: () => ({ exchange: 'aster', wallet: someAddress() }),
    },
    {
      name: 'verify session',
      method: 'POST',
      path: '/api/v1/auth/verify',
      auth: 'session',
      body: () => ({}),
    },
    {
      // Past the cap of endpoints per user, a case that stays valid is a 409.
      name: 'create webhook',
      method: 'POST',
      path: '/api/v1/webhooks',
      auth: 'either',
      body: webhookBody,
    },
    { name: 'webhooks', method: 'GET', path: '/api/v1/webhooks', auth: 'either' },
    {
      name: 'get webhook',
      method: 'GET',
      path: '/api/v1/webhooks/:webhookId',
      auth: 'either',
      params: () => ({ webhookId }),
    },
    {
      name: 'webhook deliveries',
      method: 'GET',
      path: '/api/v1/webhooks/:webhookId/deliveries',
      auth: 'either',
      params: () => ({ webhookId }),
      query: () => ({ limit: '10' }),
    },
    {
      name: 'test webhook',
      method: 'POST',
      path: '/api/v1/webhooks/:webhookId/test',
      auth: 'either',
      params: () => ({ webhookId }),
    },
    {
      // An unknown (well-formed) id: a case that stays valid is a 404, never a delete of the fixture.
      name: 'delete webhook',
      method: 'DELETE',
      path: '/api/v1/webhooks/:webhookId',
      auth: 'either',
      params: () => ({ webhookId: randomUUID() }),
    },
    { name: 'liveness', method: 'GET', path: '/livez', auth: 'public' },
    { name: 'readiness', method: 'GET', path: '/readyz', auth: 'public' },
    { name: 'openapi', method: 'GET', path: '/api/v1/openapi.json', auth: 'public' },
  ];

  const CONTENT_TYPES = [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json; charset=utf-16',
    'application/jsonx',
    'APPLICATION/JSON',
    'application/json;;',
    '*/*',
    '',
  ];
  const HEADERS = [
    'x-api-key',
    'authorization',
    'x-idempotency-key',
    'x-request-id',
    'x-forwarded-for',
    'accept',
    'x-fuzz',
  ];
  const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({
      kind: fc.constant('field' as const),
      field: fc.oneof(
        fc.constantFrom(
          'target_size',
          'target_spread',
          'max_slippage',
          'idempotency_key',
          'address',
          'api_key',
          'market',
          'size_type',
          'fast_move_window_ms',
          'wallet_addr',
          'nonce',
          'url',
          'events',
        ),
        hostileKey,
      ),
      value: hostileValue,
    }),
    fc.record({ kind: fc.constant('drop' as const), field: fc.nat() }),
    fc.record({ kind: fc.constant('extra' as const), key: hostileKey, value: hostileValue }),
    fc.record({
      kind: fc.constant('raw_number' as const),
      field: fc.nat(),
      text: fc.constantFrom(...RAW_NUMBER_TEXTS),
    }),
    fc.record({
      kind: fc.constant('tricky_decimal' as const),
      field: fc.nat(),
      text: fc.constantFrom(...TRICKY_DECIMALS),
    }),
    fc.record({ kind: fc.constant('body_text' as const), text: hostileJsonText }),
    fc.record({ kind: fc.constant('body_value' as const), value: hostileValue }),
    fc.record({
      kind: fc.constant('content_type' as const),
      contentType: fc.constantFrom(...CONTENT_TYPES),
    }),
    fc.record({
      kind: fc.constant('path_param' as const),
      index: fc.nat(),
      segment: hostilePathSegment,
    }),
    fc.record({
      kind: fc.constant('query' as const),
      key: fc.oneof(
        fc.constantFrom(
          'after_sequence',
          'limit',
          'exchanges',
          'min_exchanges',
          'long_exchange',
          'short_exchange',
          'maker_leg',
          'spread_type',
          'target_spread',
          'spread_condition',
          'before',
        ),
        hostileKey,
      ),
      value: fc.oneof(
        hostileString,
        fc.constantFrom(...RAW_NUMBER_TEXTS),
        fc.constantFrom('2147483648', '-1', '0', '1e3', '5001'),
      ),
      repeat: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('header' as const),
      name: fc.constantFrom(...HEADERS),
      value: hostileHeaderValue,
    }),
    fc.record({
      kind: fc.constant('credentials' as const),
      variant: fc.constantFrom(...CREDENTIAL_VARIANTS),
      text: hostileString.map(headerSafe),
    }),
    fc.record({ kind: fc.constant('method' as const), method: fc.constantFrom(...METHODS) }),
  );

  interface Wire {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string;
  }

  function credentialsOf(route: Route, useSession: boolean): Record<string, string> {
    if (route.auth === 'public') {
      return {};
    }
    if (route.auth === 'session' || useSession) {
      return { ...session.headers };
    }
    return { ...trader.headers };
  }

  /** The valid request of a route, then the one thing the mutation breaks. */
  function build(route: Route, change: Mutation, useSession: boolean): Wire {
    const params = route.params?.() ?? {};
    const query: Array<[string, string]> = Object.entries(route.query?.() ?? {});
    const body = route.body?.();
    const headers = credentialsOf(route, useSession);
    let method = route.method;
    let bodyText = body === undefined ? undefined : JSON.stringify(body);
    let contentType: string | undefined = body === undefined ? undefined : 'application/json';
    const bodyFields = Object.keys(body ?? {});
    const decimals = route.decimals ?? [];
    const rawField = (fields: readonly string[], index: number, text: string): void => {
      if (body === undefined || fields.length === 0) {
        return;
      }
      const field = fields[index % fields.length];
      bodyText = JSON.stringify({ ...body, [field]: '\u0001MARK\u0001' }).replace(
        '"\\u0001MARK\\u0001"',
        text,
      );
    };
    switch (change.kind) {
      case 'field':
        if (body !== undefined) {
          bodyText = JSON.stringify({ ...body, [change.field]: change.value });
        }
        break;
      case 'drop':
        if (body !== undefined && bodyFields.length > 0) {
          const { [bodyFields[change.field % bodyFields.length]]: _dropped, ...rest } = body;
          bodyText = JSON.stringify(rest);
        }
        break;
      case 'extra':
        if (body !== undefined) {
          bodyText = JSON.stringify(body).replace(
            /}$/,
            `${bodyFields.length > 0 ? ',' : ''}${JSON.stringify(change.key)}:${JSON.stringify(change.value) ?? 'null'}}`,
          );
        }
        break;
      case 'raw_number':
        rawField(decimals.length > 0 ? decimals : bodyFields, change.field, change.text);
        break;
      case 'tricky_decimal':
        rawField(
          decimals.length > 0 ? decimals : bodyFields,
          change.field,
          JSON.stringify(change.text),
        );
        break;
      case 'body_text':
        bodyText = change.text;
        contentType = 'application/json';
        break;
      case 'body_value':
        bodyText = JSON.stringify(change.value) ?? 'null';
        contentType = 'application/json';
        break;
      case 'content_type':
        bodyText ??= '{}';
        contentType = change.contentType;
        break;
      case 'path_param': {
        const names = Object.keys(params);
        if (names.length > 0) {
          params[names[change.index % names.length]] = change.segment;
        }
        break;
      }
      case 'query':
        query.push([change.key, change.value]);
        if (change.repeat) {
          query.push([change.key, change.value]);
        }
        break;
      case 'header':
        headers[change.name] = change.value;
        break;
      case 'credentials':
        delete headers['x-api-key'];
        delete headers['authorization'];
        switch (change.variant) {
          case 'none':
            break;
          case 'bad_key':
            headers['x-api-key'] = change.text;
            break;
          case 'bad_jwt':
            headers['authorization'] = `Bearer ${change.text}`;
            break;
          case 'expired_jwt':
            headers['authorization'] = `Bearer ${expiredJwt}`;
            break;
          case 'other_method':
            Object.assign(
              headers,
              route.auth === 'session' || useSession ? trader.headers : session.headers,
            );
            break;
        }
        break;
      case 'method':
        method = change.method;
        break;
    }
    const path =
      route.path.replace(/:(\w+)/g, (_match, name: string) =>
        change.kind === 'path_param' ? (params[name] ?? '') : percentEncode(params[name] ?? ''),
      ) +
      (query.length > 0
        ? `?${query.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join('&')}`
        : '');
    if (bodyText !== undefined && contentType !== undefined && contentType !== '') {
      headers['content-type'] = contentType;
    }
    return { method, path, headers, body: bodyText };
  }

  /** node:http's header record as the Headers the conformance check reads (the answer's own). */
  function answerHeaders(raw: Record<string, string | string[] | undefined>): Headers {
    const headers = new Headers();
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined) {
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
    }
    return headers;
  }

  function send(wire: Wire): Promise<{ status: number; text: string; headers: Headers }> {
    const url = new URL(gateway.baseUrl);
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: wire.method,
          path: wire.path,
          agent,
          timeout: 10_000,
          headers: {
            ...wire.headers,
            ...(wire.body !== undefined
              ? { 'content-length': String(Buffer.byteLength(wire.body)) }
              : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('utf8'),
              headers: answerHeaders(response.headers),
            }),
          );
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
      request.on('error', reject);
      request.end(wire.body);
    });
  }

  /**
   * What a refused request must not have changed: every row a request can
   * write. Not trades.updated_at or rate_budget: the budget service re-divides
   * budgets (and writes them) on its own after any successful create.
   */
  const fingerprint = async (): Promise<string> =>
    JSON.stringify(
      (
        await db.query(
          `SELECT (SELECT count(*) FROM trades) AS trades,
                (SELECT sum(amendment_version) FROM trades) AS amendments,
                (SELECT count(*) FROM trades WHERE cancel_requested_at IS NOT NULL OR status = 'canceled') AS cancels,
                (SELECT string_agg(concat_ws('/', status, target_size, target_spread, spread_type, size_type, max_slippage, amendment::text), ',' ORDER BY id) FROM trades) AS terms,
                (SELECT count(*) FROM users) AS users,
                (SELECT count(*) FROM wallets) AS wallets,
                (SELECT count(*) FROM exchange_credentials) AS credentials,
                (SELECT max(added_at)::text FROM exchange_credentials) AS credentials_added,
                (SELECT count(*) FROM wallet_link_challenges) AS challenges,
                (SELECT count(*) FROM outbox) AS outbox,
                (SELECT count(*) FROM api_keys WHERE revoked_at IS NOT NULL) AS revoked,
                (SELECT count(*) FROM webhook_endpoints WHERE deleted_at IS NULL) AS webhooks,
                (SELECT count(*) FROM webhook_deliveries) AS deliveries`,
        )
      ).rows,
    );

  it(`answers ${RUNS} broken requests across ${ROUTES.length} routes with 2xx or a clean refusal, and refusals change nothing`, async () => {
    console.log(`gateway fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays this run), ${RUNS} cases`);
    const tally = new Map<string, number>();
    const statuses = new Map<number, number>();
    let before = await fingerprint();
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        mutation,
        fc.boolean(),
        async (route, change, useSession) => {
          const wire = build(route, change, useSession);
          const { status, text, headers } = await send(wire);
          const label = `${route.name} / ${change.kind}`;
          tally.set(change.kind, (tally.get(change.kind) ?? 0) + 1);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const where = `${label}: ${wire.method} ${wire.path.slice(0, 300)} -> ${status} ${text.slice(0, 300)}`;
          if (status >= 500) {
            throw new Error(`server error for ${where}`);
          }
          // Every answer, refusals included, is one the OpenAPI document describes.
          if (wire.method !== 'HEAD' && text) {
            const problems = (await openApiConformance()).problemsOf({
              method: wire.method,
              url: wire.path,
              status,
              headers,
              body: JSON.parse(text),
            });
            if (problems.length > 0) {
              throw new Error(`${problems.join('; ')} for ${where}`);
            }
          }
          // A read that succeeded changes nothing to compare; everything else is fingerprinted.
          const unchanged = status < 400 && ['GET', 'HEAD', 'OPTIONS'].includes(wire.method);
          const after = unchanged ? before : await fingerprint();
          // A HEAD answer has no body by definition (RFC 9110); its status is still checked above.
          if (status >= 400 && wire.method !== 'HEAD') {
            let body: unknown;
            try {
              body = JSON.parse(text);
            } catch {
              throw new Error(`refusal is not JSON for ${where}`);
            }
            const sent = `${wire.path} ${JSON.stringify(wire.headers)} ${wire.body ?? ''}`;
            const problem = errorBodyProblem(body, text, [], sent);
            if (problem) {
              throw new Error(`${problem} for ${where}`);
            }
            if (after !== before) {
              throw new Error(
                `a refused request changed the database: ${where}\n${before}\n${after}`,
              );
            }
          }
          before = after;
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `gateway fuzz: ${RUNS} cases in ${Date.now() - started} ms; by class ${JSON.stringify(Object.fromEntries(tally))}; by status ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
    );
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  });
});
