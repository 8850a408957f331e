import { runOps } from '@sts/operations';
import { GatewayHarness } from './gateway-harness';

describe('public status endpoints and the operator tool', () => {
  const gateway = new GatewayHarness();

  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  it('GET /healthz reports Postgres and NATS', async () => {
    const response = await gateway.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', checks: { postgres: 'up', nats: 'up' } });
  });

  it('serves an OpenAPI description of the API', async () => {
    const response = await gateway.request('GET', '/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/wallets', '/api/v1/credentials', '/api/v1/maintenance']),
    );
  });

  it('GET /api/v1/maintenance is public and lists _system then every venue', async () => {
    const response = await gateway.request('GET', '/api/v1/maintenance');
    expect(response.status).toBe(200);
    expect(response.body.map((entry: { exchange: string }) => entry.exchange)).toEqual([
      '_system',
      'hyperliquid',
      'lighter',
      'paradex',
      'extended',
      'aster',
    ]);
    expect(response.body[0]).toEqual({
      exchange: '_system',
      enabled: false,
      reason: '',
      updated_by: '',
      updated_at: expect.any(String),
    });
  });

  it('maintenance set shows on the endpoint with reason and operator, and is audited', async () => {
    const result = await gateway.ops(
      '--operator',
      'op-17',
      'maintenance',
      'set',
      'paradex',
      'on',
      '--reason',
      'venue upgrade',
    );
    expect(result).toMatchObject({
      exchange: 'paradex',
      enabled: true,
      reason: 'venue upgrade',
      updated_by: 'op-17',
    });
    const listed = await gateway.request('GET', '/api/v1/maintenance');
    expect(
      listed.body.find((entry: { exchange: string }) => entry.exchange === 'paradex'),
    ).toMatchObject({
      enabled: true,
      reason: 'venue upgrade',
      updated_by: 'op-17',
    });
    await gateway.ops('maintenance', 'set', 'paradex', 'off');
    const audit = await gateway.query(
      `SELECT operator_id, action, target, details FROM operator_audit_log WHERE action = 'maintenance.set' ORDER BY id`,
    );
    expect(audit).toEqual([
      {
        operator_id: 'op-17',
        action: 'maintenance.set',
        target: 'paradex',
        details: { enabled: true, reason: 'venue upgrade' },
      },
      {
        operator_id: 'spec-operator',
        action: 'maintenance.set',
        target: 'paradex',
        details: { enabled: false, reason: '' },
      },
    ]);
  });

  it('records every operator action in the audit log, and never the raw key or secret', async () => {
    const user = await gateway.ops(
      'users',
      'create',
      '--wallet',
      '0x2222222222222222222222222222222222222222',
    );
    await gateway.ops(
      'wallets',
      'link',
      '--user',
      user.user_id,
      '--wallet',
      '0x3333333333333333333333333333333333333333',
    );
    const key = await gateway.ops(
      'api-keys',
      'create',
      '--user',
      user.user_id,
      '--scopes',
      'trades:read',
      '--expires-days',
      '30',
    );
    expect(key.api_key).toMatch(/^sts_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
    expect(new Date(key.expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    await gateway.ops('api-keys', 'revoke', key.key_id);
    await gateway.ops(
      'credentials',
      'add',
      '--user',
      user.user_id,
      '--exchange',
      'extended',
      '--wallet',
      '0x3333333333333333333333333333333333333333',
      '--api-key',
      'EXTKEY-1',
      '--api-secret',
      'ext-secret-value',
    );
    await gateway.ops('kill-switch', 'on', '--reason', 'drill');
    await gateway.ops('kill-switch', 'off');
    const actions = await gateway.query<{ action: string }>(
      `SELECT action FROM operator_audit_log ORDER BY id`,
    );
    expect(actions.map((row) => row.action)).toEqual(
      expect.arrayContaining([
        'users.create',
        'wallets.link',
        'api-keys.create',
        'api-keys.revoke',
        'credentials.add',
        'kill-switch.set',
      ]),
    );
    const everything = JSON.stringify(await gateway.query(`SELECT * FROM operator_audit_log`));
    expect(everything).not.toContain(key.api_key);
    expect(everything).not.toContain('ext-secret-value');
    const stored = JSON.stringify(await gateway.query(`SELECT * FROM api_keys`));
    expect(stored).not.toContain(key.api_key);
  });

  it('refuses bad operator input with a code and changes nothing', async () => {
    const user = await gateway.ops(
      'users',
      'create',
      '--wallet',
      '0x4444444444444444444444444444444444444444',
    );
    const before = await gateway.query(`SELECT count(*)::int AS n FROM api_keys`);
    for (const argv of [
      [
        'api-keys',
        'create',
        '--user',
        user.user_id,
        '--scopes',
        'trades:read',
        '--expires-days',
        '366',
      ],
      ['api-keys', 'create', '--user', user.user_id, '--scopes', 'admin'],
      [
        'api-keys',
        'create',
        '--user',
        user.user_id,
        '--scopes',
        'trades:read',
        '--allow-ip',
        'not-an-ip',
      ],
      ['api-keys', 'create', '--user', 'no-such-user', '--scopes', 'trades:read'],
      ['maintenance', 'set', 'binance', 'on'],
      ['kill-switch', 'maybe'],
      ['users', 'create', '--wallet', '0x4444444444444444444444444444444444444444'],
    ]) {
      const result = await runOps(argv, gateway.env);
      expect({ argv, exitCode: result.exitCode }).toEqual({ argv, exitCode: 1 });
      expect(result.output).toEqual({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await gateway.query(`SELECT count(*)::int AS n FROM api_keys`)).toEqual(before);
  });
});
