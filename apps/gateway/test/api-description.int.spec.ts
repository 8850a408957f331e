import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Parser } from '@asyncapi/parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { VENUE_IDS } from '@sts/domain';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from '@sts/persistence';
import { buildApiDocuments, type ApiDocuments } from '../src/openapi/api-documents';

const ROOT = resolve(__dirname, '../../..');
const OPENAPI_FILE = join(ROOT, 'apps/gateway/openapi.json');
const ASYNCAPI_FILE = join(ROOT, 'apps/gateway/asyncapi.json');
/** `npm run api:docs` sets it: the built documents are written to the repo instead of compared. */
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

type Operation = Record<string, any>;

/** Every operation of the document, named `METHOD path`. */
const operationsOf = (openapi: any): Array<[string, Operation]> =>
  Object.entries(openapi.paths as Record<string, Record<string, Operation>>).flatMap(
    ([path, item]) =>
      Object.entries(item).map(([method, op]): [string, Operation] => [`${method} ${path}`, op]),
  );

const bodySchemaName = (operation: Operation): string | undefined =>
  operation['requestBody']?.content['application/json'].schema.$ref.split('/').pop();

/**
 * Built from the sources with no service running (this spec starts none):
 * `npm run api:docs` writes them, and the committed files must be what the
 * sources build. api-description.e2e.spec.ts checks a running gateway serves them.
 */
describe('the API descriptions built from their sources (OpenAPI, AsyncAPI)', () => {
  let built: ApiDocuments;
  let openapi: any;
  beforeAll(async () => {
    built = await buildApiDocuments();
    openapi = built.openapi;
  });

  it('the committed apps/gateway/openapi.json is what the sources build (npm run api:docs)', () => {
    if (UPDATE) {
      writeFileSync(OPENAPI_FILE, pretty(built.openapi));
    }
    expect(built.openapi).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
  });

  it('the committed apps/gateway/asyncapi.json is what the sources build', () => {
    if (UPDATE) {
      writeFileSync(ASYNCAPI_FILE, pretty(built.asyncapi));
    }
    expect(built.asyncapi).toEqual(JSON.parse(readFileSync(ASYNCAPI_FILE, 'utf8')));
  });

  it('passes Redocly lint with the recommended rules: no error, no warning', async () => {
    const problems = await redoclyLint(openapi);
    expect(
      problems.map(
        (problem) =>
          `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
      ),
    ).toEqual([]);
  }, 60_000);

  it('Redocly lint bites: an operation without a success response is reported', async () => {
    const broken = structuredClone(openapi);
    broken.paths['/api/v1/trades'].get.responses = {
      '401': broken.paths['/api/v1/trades'].get.responses['401'],
    };
    const problems = await redoclyLint(broken);
    expect(problems.map((problem) => problem.ruleId)).toContain('operation-2xx-response');
  }, 60_000);

  it('every operation has a description; every body is closed and has an example that fits it', () => {
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ components: openapi.components }, 'openapi');
    const problems: string[] = [];
    for (const [name, operation] of operationsOf(openapi)) {
      if (!operation['description']) {
        problems.push(`${name}: no description`);
      }
      const schema = bodySchemaName(operation);
      if (!schema) {
        continue;
      }
      if (openapi.components.schemas[schema].additionalProperties !== false) {
        problems.push(`${name}: ${schema} allows unknown fields`);
      }
      const example = operation['requestBody'].content['application/json'].example;
      const fits = ajv.validate({ $ref: `openapi#/components/schemas/${schema}` }, example);
      if (example === undefined || !fits) {
        problems.push(`${name}: example ${ajv.errorsText()}`);
      }
    }
    expect(problems).toEqual([]);
    expect(operationsOf(openapi).filter(([, op]) => bodySchemaName(op))).toHaveLength(7);
  });

  it('names exchanges by the venue registry, decimals, wallets and keys by the server’s patterns', () => {
    const create = openapi.components.schemas.CreateTradeRequest.properties;
    expect(create.long_exchange).toMatchObject({ type: 'string', enum: [...VENUE_IDS] });
    expect(create.short_exchange.enum).toEqual([...VENUE_IDS]);
    expect(create.idempotency_key).toMatchObject({
      type: 'string',
      pattern: '^[a-zA-Z0-9_-]{1,128}$',
    });
    expect(create.long_wallet.pattern).toBe('^0x[0-9a-fA-F]{40,64}$');
    expect(create.target_spread).toMatchObject({ pattern: expect.any(String), maxLength: 64 });
    const credential = openapi.paths['/api/v1/credentials/{exchange}'].post.parameters;
    expect(credential[0].schema.enum).toEqual([...VENUE_IDS]);
  });

  it('describes a webhook body by the server’s rules: events an array of the types, each once', () => {
    const webhook = openapi.components.schemas.CreateWebhookRequest.properties;
    expect(webhook.events).toMatchObject({
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
    });
    expect(webhook.format.enum).toEqual([...WEBHOOK_FORMATS]);
    expect(webhook.url).toMatchObject({ minLength: 1, maxLength: 2048 });
    expect(webhook.description).toMatchObject({ maxLength: 256 });
  });

  it('decimal rules: the patterns refuse what the server refuses', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ components: openapi.components }, 'openapi');
    const accepts = (field: string, value: string) =>
      ajv.validate(
        { $ref: `openapi#/components/schemas/AmendTradeRequest/properties/${field}` },
        value,
      );
    expect(['0.5', '12', '-1.25', '0'].map((v) => accepts('target_spread', v))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['.5', '5.', '+1', '1e3', '01'].some((v) => accepts('target_spread', v))).toBe(false);
    expect(['0.01', '3'].every((v) => accepts('target_size', v))).toBe(true);
    expect(['0', '0.00', '-0', '-1'].some((v) => accepts('target_size', v))).toBe(false);
    expect(['0', '-0', '0.001'].every((v) => accepts('max_slippage', v))).toBe(true);
    expect(accepts('max_slippage', '-0.1')).toBe(false);
  });

  it('the AsyncAPI document passes the AsyncAPI parser with no diagnostics above hints', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(built.asyncapi));
    expect(
      diagnostics
        .filter((diagnostic) => diagnostic.severity < 3)
        .map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`),
    ).toEqual([]);
    expect(document?.version()).toBe('3.1.0');
    expect(document?.channels().get('notifications')?.address()).toBe('/api/v1/ws');
  });

  it('the AsyncAPI parser bites: a message without payload schema reference target is an error', async () => {
    const broken = structuredClone(built.asyncapi) as any;
    broken.components.messages.Pong.payload = { $ref: '#/components/schemas/Missing' };
    const { diagnostics } = await new Parser().parse(JSON.stringify(broken));
    expect(diagnostics.some((diagnostic) => diagnostic.severity === 0)).toBe(true);
  });
});
