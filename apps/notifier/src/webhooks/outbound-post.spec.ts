import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_ANSWER_BYTES, MAX_REQUEST_BYTES, OutboundPost } from './outbound-post';

/** OutboundPost against an HTTP server of its own on loopback. */
describe('OutboundPost', () => {
  let server: Server;
  let base: string;
  let hits = 0;
  const running = new AbortController().signal;

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits += 1;
      request.resume();
      request.on('end', () => {
        if (request.url === '/moved') {
          response.writeHead(307, { location: 'http://169.254.169.254/latest' }).end();
        } else if (request.url === '/verbose') {
          response.writeHead(500).end('x'.repeat(100_000));
        } else if (request.url !== '/silent') {
          response.writeHead(204).end();
        } // '/silent' never answers
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    hits = 0;
  });

  const allowed = new OutboundPost({ allowPrivateAddresses: true, timeoutMs: 500 });
  const strict = new OutboundPost({ allowPrivateAddresses: false, timeoutMs: 500 });

  it('answers with the status, and a redirect with its target, never followed', async () => {
    expect(await allowed.post(`${base}/ok`, {}, '{}', running)).toMatchObject({
      kind: 'answered',
      status: 204,
    });
    expect(await allowed.post(`${base}/moved`, {}, '{}', running)).toMatchObject({
      kind: 'answered',
      status: 307,
      location: 'http://169.254.169.254/latest',
    });
    expect(hits).toBe(2);
  });

  it('reads at most MAX_ANSWER_BYTES of an answer', async () => {
    const result = await allowed.post(`${base}/verbose`, {}, '{}', running);
    expect(result).toMatchObject({ kind: 'answered', status: 500 });
    expect(result.kind === 'answered' && result.body.length).toBe(MAX_ANSWER_BYTES);
  });

  it('bounds the whole attempt by its timeout', async () => {
    expect(await allowed.post(`${base}/silent`, {}, '{}', running)).toMatchObject({
      kind: 'unreachable',
      error: 'timed out after 500 ms',
    });
  });

  it('refuses, without connecting, loopback, plain http, other schemes and a body too big', async () => {
    const secure = base.replace('http:', 'https:');
    expect(await strict.post(`${secure}/ok`, {}, '{}', running)).toEqual({
      kind: 'refused',
      error: 'refused: 127.0.0.1 resolves to 127.0.0.1, which is not a public address',
      durationMs: expect.any(Number),
    });
    expect(await strict.post(secure.replace('127.0.0.1', 'localhost'), {}, '{}', running)).toEqual(
      expect.objectContaining({
        error: expect.stringMatching(/^refused: localhost resolves to (127\.0\.0\.1|::1)/),
      }),
    );
    expect(await strict.post('https://[::ffff:10.0.0.1]/hook', {}, '{}', running)).toMatchObject({
      kind: 'refused',
    });
    expect(await strict.post(`${base}/ok`, {}, '{}', running)).toMatchObject({
      kind: 'refused',
      error: 'refused: http: URLs are not called (https: only)',
    });
    expect(await allowed.post('ftp://127.0.0.1/hook', {}, '{}', running)).toMatchObject({
      kind: 'refused',
      error: 'refused: ftp: URLs are not called (https: or http: only)',
    });
    const big = 'x'.repeat(MAX_REQUEST_BYTES + 1);
    expect(await allowed.post(`${base}/ok`, {}, big, running)).toMatchObject({
      kind: 'refused',
      error: `refused: body of ${MAX_REQUEST_BYTES + 1} bytes is over ${MAX_REQUEST_BYTES}`,
    });
    expect(hits).toBe(0);
  });

  it('stops at once for a stopping dispatcher', async () => {
    const stopping = new AbortController();
    const sending = allowed.post(`${base}/silent`, {}, '{}', stopping.signal);
    setTimeout(() => stopping.abort(), 50);
    expect(await sending).toMatchObject({ kind: 'stopped' });
    expect(await allowed.post(`${base}/ok`, {}, '{}', stopping.signal)).toMatchObject({
      kind: 'stopped',
    });
  });
});
