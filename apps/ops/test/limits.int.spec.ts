import { randomBytes } from 'node:crypto';
import { runOps } from '@sts/operations';
import { createTestDatabase, type TestDatabase } from '@sts/testing';

/**
 * `ops limits set|clear|list` (issue 35) against a database of its own, as an
 * operator runs them: what each prints, what it stores, what it refuses, and
 * the audit entry of every change with the operator's id.
 */
describe('ops limits', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let userId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, OPERATOR_ID: 'desk-lead' };
    userId = (await ops('users', 'create', '--wallet', `0x${randomBytes(20).toString('hex')}`))
      .user_id;
  });
  afterAll(() => database.drop());

  async function ops(...argv: string[]): Promise<any> {
    const result = await runOps(argv, env);
    if (result.exitCode !== 0) {
      throw new Error(`ops ${argv.join(' ')} failed: ${JSON.stringify(result.output)}`);
    }
    return result.output;
  }
  const refused = (...argv: string[]) => runOps(argv, env);
  const audit = () =>
    database.query(
      `SELECT operator_id, action, target, details FROM operator_audit_log
       WHERE action LIKE 'limits.%' ORDER BY id`,
    );
  const stored = () =>
    database.query(
      `SELECT user_id, max_trade_notional::text, max_open_notional::text,
         max_open_notional_per_market::text, max_live_trades, max_slippage::text, updated_by
       FROM risk_limits ORDER BY user_id NULLS FIRST`,
    );

  it('sets a user’s limits, in canonical form, and a later set keeps the others', async () => {
    const first = await ops(
      'limits',
      'set',
      '--user',
      userId,
      '--max-open-notional',
      '50000.00',
      '--max-live-trades',
      '5',
    );
    expect(first).toEqual({
      scope: 'user',
      user_id: userId,
      max_trade_notional: null,
      max_open_notional: '50000',
      max_open_notional_per_market: null,
      max_live_trades: '5',
      max_slippage: null,
      updated_by: 'desk-lead',
      updated_at: expect.any(String),
    });
    const second = await ops(
      '--operator',
      'op-9',
      'limits',
      'set',
      '--user',
      userId,
      '--max-slippage',
      '0.002',
    );
    expect(second).toMatchObject({
      max_open_notional: '50000',
      max_live_trades: '5',
      max_slippage: '0.002',
      updated_by: 'op-9',
    });
  });

  it('sets the default for every user, and lists it first', async () => {
    await ops('limits', 'set', '--default', '--max-trade-notional', '10000');
    const listed = await ops('limits', 'list');
    expect(listed.map((row: any) => [row.scope, row.user_id])).toEqual([
      ['default', null],
      ['user', userId],
    ]);
    expect(listed[0]).toMatchObject({ max_trade_notional: '10000', max_open_notional: null });
    expect(await ops('limits', 'list', '--user', 'someone-else')).toHaveLength(1);
  });

  it('clears the named limits, and a scope left with none loses its row', async () => {
    const left = await ops('limits', 'clear', '--user', userId, '--max-live-trades');
    expect(left).toMatchObject({
      max_open_notional: '50000',
      max_live_trades: null,
      max_slippage: '0.002',
      cleared: ['max_live_trades'],
    });
    const gone = await ops('limits', 'clear', '--default');
    expect(gone).toMatchObject({
      scope: 'default',
      max_trade_notional: null,
      cleared: expect.any(Array),
    });
    expect(await stored()).toEqual([
      {
        user_id: userId,
        max_trade_notional: null,
        max_open_notional: '50000',
        max_open_notional_per_market: null,
        max_live_trades: null,
        max_slippage: '0.002',
        updated_by: 'desk-lead',
      },
    ]);
  });

  it('records every change with the operator id, the scope and what changed', async () => {
    expect(await audit()).toEqual([
      {
        operator_id: 'desk-lead',
        action: 'limits.set',
        target: userId,
        details: { set: { max_open_notional: '50000', max_live_trades: '5' } },
      },
      {
        operator_id: 'op-9',
        action: 'limits.set',
        target: userId,
        details: { set: { max_slippage: '0.002' } },
      },
      {
        operator_id: 'desk-lead',
        action: 'limits.set',
        target: '_default',
        details: { set: { max_trade_notional: '10000' } },
      },
      {
        operator_id: 'desk-lead',
        action: 'limits.clear',
        target: userId,
        details: { cleared: ['max_live_trades'] },
      },
      {
        operator_id: 'desk-lead',
        action: 'limits.clear',
        target: '_default',
        details: {
          cleared: [
            'max_trade_notional',
            'max_open_notional',
            'max_open_notional_per_market',
            'max_live_trades',
            'max_slippage',
          ],
        },
      },
    ]);
  });

  it('refuses a bad scope, a bad value, an unknown user or nothing to set, and stores nothing', async () => {
    const before = await stored();
    const cases: Array<[string[], number, string]> = [
      [['limits', 'set', '--max-live-trades', '1'], 1, 'invalid_request'],
      [
        ['limits', 'set', '--default', '--user', userId, '--max-live-trades', '1'],
        1,
        'invalid_request',
      ],
      [['limits', 'set', '--default'], 1, 'invalid_request'],
      [['limits', 'set', '--default', '--max-open-notional', '-5'], 1, 'invalid_request'],
      [['limits', 'set', '--default', '--max-open-notional', '1e6'], 1, 'invalid_request'],
      [['limits', 'set', '--default', '--max-live-trades', '2.5'], 1, 'invalid_request'],
      [['limits', 'set', '--user', 'no-such-user', '--max-live-trades', '1'], 1, 'not_found'],
      [['limits', 'set', '--default', '--max-gross', '1'], 2, 'invalid_request'],
    ];
    for (const [argv, exitCode, code] of cases) {
      const result = await refused(...argv);
      expect([argv.join(' '), result.exitCode, (result.output as any).code]).toEqual([
        argv.join(' '),
        exitCode,
        code,
      ]);
    }
    expect(await stored()).toEqual(before);
    expect(await audit()).toHaveLength(5);
  });
});
