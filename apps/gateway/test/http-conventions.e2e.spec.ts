import { GatewayHarness } from './gateway-harness';

/**
 * Conventions a client of any HTTP API expects (decisions section 8):
 * `X-Request-Id` echoed on every answer (the caller's when it is a plain
 * short id, else the gateway's own), and the IETF `Idempotency-Key` header
 * taken for a create, the contract's `X-Idempotency-Key` winning over it.
 */
describe('HTTP conventions: X-Request-Id and Idempotency-Key', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true });
    trader = await gateway.trader(['hyperliquid', 'paradex']);
  });
  afterAll(() => gateway.stop());

  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('echoes the caller’s X-Request-Id on answers and refusals alike', async () => {
    const answers = [
      await gateway.request('GET', '/api/v1/maintenance', { headers: { 'x-request-id': 'r-1' } }),
      await gateway.request('GET', '/api/v1/trades', { headers: { 'x-request-id': 'r-2' } }),
      await gateway.request('GET', '/api/v1/nowhere', { headers: { 'x-request-id': 'r-3' } }),
      await gateway.request('GET', '/api/v1/trades/00000000-0000-4000-8000-000000000000', {
        headers: { ...trader.headers, 'x-request-id': 'r-4' },
      }),
    ];
    expect(answers.map((answer) => [answer.status, answer.headers.get('x-request-id')])).toEqual([
      [200, 'r-1'],
      [401, 'r-2'],
      [404, 'r-3'],
      [404, 'r-4'],
    ]);
  });

  it('answers with an id of its own when none or an unusable one is sent', async () => {
    const none = await gateway.request('GET', '/api/v1/maintenance');
    const unusable = await gateway.request('GET', '/api/v1/maintenance', {
      headers: { 'x-request-id': 'has spaces and ; semicolons' },
    });
    expect(none.headers.get('x-request-id')).toMatch(UUID);
    expect(unusable.headers.get('x-request-id')).toMatch(UUID);
  });

  const create = (headers: Record<string, string>) => {
    const body = gateway.tradeBody(trader.wallet, { market: 'ETH', maker_leg: 'short' });
    delete body['idempotency_key'];
    return gateway.request('POST', '/api/v1/trades', {
      headers: { ...trader.headers, ...headers },
      body,
    });
  };

  it('takes the IETF Idempotency-Key, quoted or bare, as the same key', async () => {
    const first = await create({ 'idempotency-key': '"ietf-key-1"' });
    expect(first.status).toBe(202);
    const replayed = await create({ 'idempotency-key': 'ietf-key-1' });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({ trade_id: first.body.trade_id, idempotent: true });
    await gateway.request('DELETE', `/api/v1/trades/${first.body.trade_id}`, {
      headers: trader.headers,
    });
  });

  it('lets X-Idempotency-Key win when both headers are sent', async () => {
    const first = await create({
      'x-idempotency-key': 'contract-key-1',
      'idempotency-key': 'other',
    });
    expect(first.status).toBe(202);
    const byContract = await create({ 'x-idempotency-key': 'contract-key-1' });
    expect(byContract.body).toMatchObject({ trade_id: first.body.trade_id, idempotent: true });
    const byIetf = await create({ 'idempotency-key': 'other' });
    expect(byIetf.status).toBe(202);
    expect(byIetf.body.trade_id).not.toBe(first.body.trade_id);
    for (const id of [first.body.trade_id, byIetf.body.trade_id]) {
      await gateway.request('DELETE', `/api/v1/trades/${id}`, { headers: trader.headers });
    }
  });

  it('refuses an IETF key off the pattern as it refuses any other', async () => {
    const refused = await create({ 'idempotency-key': '"not a key"' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('invalid_idempotency_key');
  });
});
