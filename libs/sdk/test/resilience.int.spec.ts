import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StsApiError, StsClient, StsNetworkError } from '../src';

/** One scripted answer of the fake server: status, headers, body; or a dropped connection. */
type Scripted =
  { status: number; headers?: Record<string, string>; body?: string } | { drop: true };

const PROXY_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
const MAINTENANCE = JSON.stringify([{ exchange: '_system', enabled: false, reason: '' }]);

/**
 * The SDK against what stands between a bot and the API in production: a
 * proxy answering 502 with its HTML page, a load balancer's empty 504, a
 * 503 with Retry-After, a connection reset. A fake HTTP server plays them.
 */
describe('SDK against proxies and overload', () => {
  let server: Server;
  let baseUrl: string;
  let script: Scripted[] = [];
  const seen: Array<{ method: string; url: string; idempotencyKey?: string; at: number }> = [];

  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        idempotencyKey: request.headers['x-idempotency-key'] as string | undefined,
        at: Date.now(),
      });
      const next = script.shift() ?? { status: 200, body: MAINTENANCE };
      if ('drop' in next) {
        request.socket.destroy();
        return;
      }
      response.writeHead(next.status, next.headers ?? {});
      response.end(next.body ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    script = [];
    seen.length = 0;
  });

  const client = (retry: Partial<{ maxRetries: number; maxDelayMs: number }> = {}) =>
    new StsClient({ baseUrl, apiKey: 'sts_test', retry: { baseDelayMs: 5, ...retry } });
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it("makes a proxy's 502 HTML page a StsApiError bad_gateway with the page as raw text", async () => {
    script = [{ status: 502, headers: { 'content-type': 'text/html' }, body: PROXY_502 }];
    const error = await failureOf(client({ maxRetries: 0 }).maintenance());
    expect(error).toBeInstanceOf(StsApiError);
    expect(error).toMatchObject({ status: 502, code: 'bad_gateway', raw: PROXY_502 });
    expect((error as StsApiError).body.error).toBe("HTTP 502: an answer that is not the API's");
  });

  it('makes an empty 504 a StsApiError gateway_timeout', async () => {
    script = [{ status: 504 }];
    const error = await failureOf(client({ maxRetries: 0 }).maintenance());
    expect(error).toBeInstanceOf(StsApiError);
    expect(error).toMatchObject({ status: 504, code: 'gateway_timeout', raw: '' });
  });

  it("keeps the API's own error body and code", async () => {
    const body = { error: 'trade not found', code: 'trade_not_found' };
    script = [{ status: 404, body: JSON.stringify(body) }];
    const error = await failureOf(client().getTrade('t-1'));
    expect(error).toMatchObject({ status: 404, code: 'trade_not_found', body });
  });

  it('retries 502, 504 and an empty 503 with backoff, then answers', async () => {
    script = [{ status: 502, body: PROXY_502 }, { status: 504 }, { status: 503 }];
    const entries = await client().maintenance();
    expect(entries).toEqual(JSON.parse(MAINTENANCE));
    expect(seen).toHaveLength(4);
  });

  it('waits what Retry-After says on a 503 before retrying', async () => {
    script = [{ status: 503, headers: { 'retry-after': '1' }, body: '' }];
    await client().maintenance();
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("does not retry the API's own 503 without Retry-After (maintenance: no end known)", async () => {
    const body = { error: 'system maintenance', code: 'system_maintenance', reason: 'upgrade' };
    script = [{ status: 503, body: JSON.stringify(body) }];
    const error = await failureOf(client().maintenance());
    expect(error).toMatchObject({ status: 503, code: 'system_maintenance', fromApi: true });
    expect(seen).toHaveLength(1);
  });

  it('gives up after maxRetries, with the last answer as the error', async () => {
    script = Array.from({ length: 5 }, () => ({ status: 502, body: PROXY_502 }));
    const error = await failureOf(client({ maxRetries: 2 }).maintenance());
    expect(error).toMatchObject({ status: 502, code: 'bad_gateway' });
    expect(seen).toHaveLength(3);
  });

  it('does not retry when Retry-After asks for longer than the policy waits', async () => {
    script = [{ status: 503, headers: { 'retry-after': '120' }, body: '' }];
    const error = await failureOf(client({ maxDelayMs: 1000 }).maintenance());
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', retryAfterS: 120 });
    expect(seen).toHaveLength(1);
  });

  it('retries a create on 502 and a dropped connection with the same idempotency key', async () => {
    const accepted = { trade_id: 't-9', status: 'pending', rate_budget: 3 };
    script = [
      { status: 502, body: PROXY_502 },
      { drop: true },
      { status: 202, body: JSON.stringify(accepted) },
    ];
    const created = await client().createTrade({} as never);
    expect(created).toEqual({ status: 202, body: accepted });
    expect(seen.map((request) => request.method)).toEqual(['POST', 'POST', 'POST']);
    const keys = new Set(seen.map((request) => request.idempotencyKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retries a read after a dropped connection, and says StsNetworkError when it never answers', async () => {
    script = [{ drop: true }];
    await expect(client().maintenance()).resolves.toHaveLength(1);
    script = [{ drop: true }, { drop: true }];
    const error = await failureOf(client({ maxRetries: 1 }).maintenance());
    expect(error).toBeInstanceOf(StsNetworkError);
  });

  it('refuses a success whose body is not JSON (a captive page) as unexpected_response', async () => {
    script = [{ status: 200, body: '<html>sign in to the wifi</html>' }];
    const error = await failureOf(client().maintenance());
    expect(error).toMatchObject({ status: 200, code: 'unexpected_response' });
  });
});
