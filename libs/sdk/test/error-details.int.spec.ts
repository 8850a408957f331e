import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StsApiError, StsClient, StsNetworkError } from '../src';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: Server) => new Promise((resolve) => server.close(resolve));
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/**
 * What an error tells a bot to act on or to quote: the request id the
 * gateway answered with (its log line's), and for a request that got no
 * answer, the URL it went to and why nothing came back.
 */
describe('SDK errors: the request id of a refusal, the URL and cause of no answer', () => {
  it('a refusal carries the X-Request-Id of its answer as requestId', async () => {
    const body = { error: 'trade not found', code: 'trade_not_found' };
    const server = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'req-42' });
      response.end(JSON.stringify(body));
    });
    const baseUrl = await listen(server);
    try {
      const error = await failureOf(new StsClient({ baseUrl }).getTrade('t-1'));
      expect(error).toBeInstanceOf(StsApiError);
      expect(error).toMatchObject({ status: 404, code: 'trade_not_found', requestId: 'req-42' });
    } finally {
      await close(server);
    }
  });

  it("a proxy's page without the header has no requestId; a non-JSON success keeps the id", async () => {
    const answers = [
      { status: 502, headers: {}, body: '<html>502 Bad Gateway</html>' },
      { status: 200, headers: { 'x-request-id': 'req-7' }, body: '<html>captive</html>' },
    ];
    const server = createServer((_request, response) => {
      const answer = answers.shift()!;
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    });
    const baseUrl = await listen(server);
    try {
      const client = new StsClient({ baseUrl, retry: { maxRetries: 0 } });
      const proxied = (await failureOf(client.maintenance())) as StsApiError;
      expect(proxied).toMatchObject({ status: 502, code: 'bad_gateway' });
      expect(proxied.requestId).toBeUndefined();
      expect(await failureOf(client.maintenance())).toMatchObject({
        code: 'unexpected_response',
        requestId: 'req-7',
      });
    } finally {
      await close(server);
    }
  });

  it('no answer names the method, the whole URL and the cause: a refused connection', async () => {
    // A port just freed: nothing listens there.
    const server = createServer();
    const baseUrl = await listen(server);
    await close(server);
    const client = new StsClient({ baseUrl, retry: { maxRetries: 0 } });
    const error = (await failureOf(client.exchanges())) as StsNetworkError;
    expect(error).toBeInstanceOf(StsNetworkError);
    const url = `${baseUrl}/api/v1/exchanges`;
    expect(error).toMatchObject({ method: 'GET', url, causeCode: 'ECONNREFUSED' });
    expect(error.causeText).toMatch(/ECONNREFUSED 127\.0\.0\.1:\d+/);
    expect(error.message).toBe(`GET ${url}: no answer (${error.causeText})`);
  });

  it('no answer in time is the cause `timeout`, with the time waited', async () => {
    const server = createServer(() => undefined); // takes the request, never answers
    const baseUrl = await listen(server);
    try {
      const client = new StsClient({ baseUrl, timeoutMs: 200, retry: { maxRetries: 0 } });
      const error = await failureOf(client.maintenance());
      expect(error).toBeInstanceOf(StsNetworkError);
      expect(error).toMatchObject({
        causeCode: 'timeout',
        message: `GET ${baseUrl}/api/v1/maintenance: no answer (timed out after 200 ms)`,
      });
    } finally {
      server.closeAllConnections();
      await close(server);
    }
  });

  it('a name that does not resolve says so (ENOTFOUND)', async () => {
    const client = new StsClient({ baseUrl: 'http://sts-api.invalid', retry: { maxRetries: 0 } });
    const error = await failureOf(client.maintenance());
    expect(error).toBeInstanceOf(StsNetworkError);
    expect(error).toMatchObject({
      url: 'http://sts-api.invalid/api/v1/maintenance',
      causeCode: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)$/),
    });
  });
});
