import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayHarness } from './gateway-harness';

/** A request target sent exactly as written (fetch would resolve `..` segments first). */
function rawGet(baseUrl: string, target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path: target, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the trader console at /console/ (issue 20)', () => {
  const gateway = new GatewayHarness();
  // A console build as Vite writes it, with a secret beside it that must never be served.
  const parent = mkdtempSync(join(tmpdir(), 'sts-console-'));
  const build = join(parent, 'console');
  const INDEX =
    '<!doctype html><title>console</title><script src="/console/assets/index-3f2a.js"></script>';
  const SCRIPT = 'console.log("trader console");';
  const SECRET = 'secret outside the build';

  beforeAll(async () => {
    mkdirSync(join(build, 'assets'), { recursive: true });
    writeFileSync(join(build, 'index.html'), INDEX);
    writeFileSync(join(build, 'assets', 'index-3f2a.js'), SCRIPT);
    writeFileSync(join(build, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(parent, 'secret.txt'), SECRET);
    await gateway.start({
      env: {
        CONSOLE_DIR: build,
        CONSOLE_NOTIFIER_WS_URL: 'ws://127.0.0.1:4101/api/v1/ws',
        CONSOLE_IDENTITY_URL: 'http://127.0.0.1:4105',
      },
    });
  });
  afterAll(() => gateway.stop());

  const get = (path: string) => fetch(`${gateway.baseUrl}${path}`, { redirect: 'manual' });

  it('serves index.html at /console/ and the build’s files with their types', async () => {
    const index = await get('/console/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toBe(INDEX);

    const script = await get('/console/assets/index-3f2a.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(await script.text()).toBe(SCRIPT);

    const icon = await get('/console/favicon.svg');
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

    const bare = await get('/console');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/console/');
  });

  it('answers index.html for the console’s own routes, 404 for a missing file', async () => {
    for (const route of [
      '/console/trades',
      '/console/trades/0b7c2f9e-1f1e-4c55-9a55-6a8c1b7f4e21',
      '/console/markets?sort=funding',
    ]) {
      const page = await get(route);
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(INDEX);
    }
    const missing = await get('/console/assets/gone-1234.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: expect.any(String), code: 'not_found' });
  });

  it('serves /console/config.json from the settings', async () => {
    const config = await get('/console/config.json');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await config.json()).toEqual({
      api_base: '/api/v1',
      notifier_ws_url: 'ws://127.0.0.1:4101/api/v1/ws',
      identity_url: 'http://127.0.0.1:4105',
      // No OpenID Connect provider named (OIDC_ISSUER_URL unset).
      oidc: null,
      // Every venue of the registry is paper.
      paper: true,
    });
  });

  it('refuses paths that climb out of the build', async () => {
    for (const target of [
      '/console/../secret.txt',
      '/console/assets/../../secret.txt',
      '/console/%2e%2e/secret.txt',
      '/console/..%2fsecret.txt',
      '/console/%2e%2e%2fsecret.txt',
      '/console/assets/..%5c..%5csecret.txt',
      '/console/%00index.html',
    ]) {
      const answer = await rawGet(gateway.baseUrl, target);
      expect(answer.body).not.toContain(SECRET);
      expect([400, 404]).toContain(answer.status);
    }
  });

  it('leaves the API as it was: its routes, its 404s and its OpenAPI document', async () => {
    const wallets = await gateway.request('GET', '/api/v1/wallets');
    expect(wallets).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    const unknown = await gateway.request('GET', '/api/v1/no-such-route');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const outside = await get('/consoles');
    expect(outside.status).toBe(404);
    const document = await get('/api/v1/openapi.json');
    const paths = Object.keys(((await document.json()) as { paths: object }).paths);
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((path) => !path.startsWith('/api/v1/'))).toEqual([]);
    expect((await get('/readyz')).status).toBe(200);
  });
});
