import { GatewayHarness } from './gateway-harness';

/**
 * The request line (LOG_LEVEL info and below) names a request by its method,
 * URL and correlation id. Its headers are not bound to the request's logger:
 * binding them cost every request a copy and a redaction pass, logged or not.
 */
describe('request log lines', () => {
  const gateway = new GatewayHarness();

  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  it('carry the method, URL, status and correlation id, and no request headers', async () => {
    const user = await gateway.userWithKey();
    const response = await gateway.request('GET', '/api/v1/wallets?probe=request-log', {
      headers: { 'x-api-key': user.apiKey },
    });
    expect(response.status).toBe(200);

    const line = gateway
      .logs()
      .split('\n')
      .filter((text) => text.includes('probe=request-log') && text.includes('"res"'))
      .map((text) => JSON.parse(text) as Record<string, any>)[0];
    expect(line).toBeDefined();
    expect(line!.correlation_id).toEqual(expect.any(String));
    expect(line!.req).toEqual({ method: 'GET', url: '/api/v1/wallets?probe=request-log' });
    expect(line!.res.statusCode).toBe(200);
    expect(JSON.stringify(line)).not.toContain(user.apiKey);
  });
});
