import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GatewayHarness } from './gateway-harness';

const ROOT = resolve(__dirname, '../../..');
const committed = (file: string): unknown =>
  JSON.parse(readFileSync(join(ROOT, 'apps/gateway', file), 'utf8'));

/**
 * The running gateway serves the documents committed in apps/gateway, which
 * api-description.int.spec.ts builds from the sources with no service running
 * (`npm run api:docs`): what is built offline is what is served.
 */
describe('the API descriptions a running gateway serves', () => {
  const gateway = new GatewayHarness();
  beforeAll(() => gateway.start(), 60_000);
  afterAll(() => gateway.stop());

  it('serves the OpenAPI document kept in apps/gateway/openapi.json', async () => {
    const served = await gateway.request('GET', '/api/v1/openapi.json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(committed('openapi.json'));
  });

  it('serves the AsyncAPI document kept in apps/gateway/asyncapi.json', async () => {
    const served = await gateway.request('GET', '/api/v1/asyncapi.json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(committed('asyncapi.json'));
  });

  it('is browsable at /api/v1/docs (Swagger UI from the package, no CDN)', async () => {
    const page = await fetch(`${gateway.baseUrl}/api/v1/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/api/v1/openapi.json');
    const bundle = await fetch(`${gateway.baseUrl}/api/v1/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });
});
