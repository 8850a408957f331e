import { GatewayHarness, type HttpResult } from './gateway-harness';

describe('API hygiene: rate limits and malformed requests', () => {
  const gateway = new GatewayHarness();

  beforeAll(() => gateway.start({ env: { GATEWAY_RATE_LIMIT_PER_S: '5' } }));
  afterAll(() => gateway.stop());

  /**
   * Eight requests at once on a new key. A burst the machine spread across
   * two windows, or one counted partly per replica (Redis slower than the
   * limiter waits), may rightly pass more than five: the passing answers then
   * repeat an `x-ratelimit-remaining`, and the burst is sent again on a new key.
   */
  async function burstInOneWindow(): Promise<HttpResult[]> {
    for (let attempt = 1; ; attempt += 1) {
      const noisy = await gateway.userWithKey('account:read');
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          gateway.request('GET', '/api/v1/wallets', { headers: { 'x-api-key': noisy.apiKey } }),
        ),
      );
      const remaining = responses
        .filter((response) => response.status === 200)
        .map((response) => response.headers.get('x-ratelimit-remaining'));
      if (new Set(remaining).size === remaining.length || attempt === 3) {
        return responses;
      }
    }
  }

  it('answers 429 rate_limited with Retry-After past the per-key rate, without slowing other keys', async () => {
    const quiet = await gateway.userWithKey('account:read');
    const responses = await burstInOneWindow();
    const limited = responses.filter((response) => response.status === 429);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(5);
    expect(limited).toHaveLength(3);
    expect(limited[0].body).toEqual({
      error: expect.stringMatching(/rate limit exceeded/),
      code: 'rate_limited',
    });
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await gateway.request('GET', '/api/v1/wallets', {
      headers: { 'x-api-key': quiet.apiKey },
    });
    expect(other.status).toBe(200);
  });

  it('answers a body that is not JSON with 400 invalid_request', async () => {
    const user = await gateway.userWithKey('account:read');
    const response = await fetch(`${gateway.baseUrl}/api/v1/trades`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': user.apiKey },
      body: '{"market": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: expect.any(String), code: 'invalid_request' });
  });

  it('answers an unknown route with 404 not_found', async () => {
    const response = await gateway.request('GET', '/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('not_found');
  });
});
