import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Parser } from '@asyncapi/parser';
import { GatewayHarness } from './gateway-harness';

const ROOT = resolve(__dirname, '../../..');
const OPENAPI_FILE = join(ROOT, 'apps/gateway/openapi.json');
const ASYNCAPI_FILE = join(ROOT, 'apps/gateway/asyncapi.json');
/** `npm run api:docs` sets it: the served documents are written to the repo instead of compared. */
const UPDATE = process.env['UPDATE_API_DOCS'] === '1';

const pretty = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

interface RedoclyProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

async function redoclyLint(document: unknown): Promise<RedoclyProblem[]> {
  const file = join(mkdtempSync(join(tmpdir(), 'sts-openapi-')), 'openapi.json');
  writeFileSync(file, pretty(document));
  const { stdout } = await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/redocly'),
    ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
    { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 },
  ).catch((failure: { stdout?: string }) => ({ stdout: failure.stdout ?? '' }));
  return (JSON.parse(stdout) as { problems: RedoclyProblem[] }).problems;
}

describe('the API descriptions (OpenAPI, AsyncAPI)', () => {
  const gateway = new GatewayHarness();
  beforeAll(() => gateway.start(), 60_000);
  afterAll(() => gateway.stop());

  it('serves the OpenAPI document kept in apps/gateway/openapi.json (npm run api:docs rewrites it)', async () => {
    const served = await gateway.request('GET', '/api/v1/openapi.json');
    expect(served.status).toBe(200);
    if (UPDATE) {
      writeFileSync(OPENAPI_FILE, pretty(served.body));
    }
    expect(served.body).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
  });

  it('serves the AsyncAPI document kept in apps/gateway/asyncapi.json', async () => {
    const served = await gateway.request('GET', '/api/v1/asyncapi.json');
    expect(served.status).toBe(200);
    if (UPDATE) {
      writeFileSync(ASYNCAPI_FILE, pretty(served.body));
    }
    expect(served.body).toEqual(JSON.parse(readFileSync(ASYNCAPI_FILE, 'utf8')));
  });

  it('passes Redocly lint with the recommended rules: no error, no warning', async () => {
    const served = await gateway.request('GET', '/api/v1/openapi.json');
    const problems = await redoclyLint(served.body);
    expect(
      problems.map(
        (problem) =>
          `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
      ),
    ).toEqual([]);
  }, 60_000);

  it('Redocly lint bites: an operation without a success response is reported', async () => {
    const served = await gateway.request('GET', '/api/v1/openapi.json');
    const broken = structuredClone(served.body);
    broken.paths['/api/v1/trades'].get.responses = {
      '401': broken.paths['/api/v1/trades'].get.responses['401'],
    };
    const problems = await redoclyLint(broken);
    expect(problems.map((problem) => problem.ruleId)).toContain('operation-2xx-response');
  }, 60_000);

  it('the AsyncAPI document passes the AsyncAPI parser with no diagnostics above hints', async () => {
    const served = await gateway.request('GET', '/api/v1/asyncapi.json');
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(served.body));
    expect(
      diagnostics
        .filter((diagnostic) => diagnostic.severity < 3)
        .map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`),
    ).toEqual([]);
    expect(document?.version()).toBe('3.1.0');
    expect(document?.channels().get('notifications')?.address()).toBe('/api/v1/ws');
  });

  it('the AsyncAPI parser bites: a message without payload schema reference target is an error', async () => {
    const served = await gateway.request('GET', '/api/v1/asyncapi.json');
    const broken = structuredClone(served.body);
    broken.components.messages.Pong.payload = { $ref: '#/components/schemas/Missing' };
    const { diagnostics } = await new Parser().parse(JSON.stringify(broken));
    expect(diagnostics.some((diagnostic) => diagnostic.severity === 0)).toBe(true);
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
