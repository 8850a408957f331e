import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNotifier, type RunningNotifier } from '@sts/app-notifier';
import { eventually, WorkerHarness, type Trader } from '@sts/app-worker-testing';
import { runCli } from '../src/cli';

jest.setTimeout(90_000);

interface Run {
  exitCode?: number;
  stdout: string;
  stderr: string;
  done: Promise<number>;
}

/** The trader's CLI against the fleet on paper venues: gateway, budget, a worker, notifier. */
describe('sts (trader CLI)', () => {
  const harness = new WorkerHarness();
  let notifier: RunningNotifier;
  let trader: Trader;

  beforeAll(async () => {
    await harness.start();
    notifier = await startNotifier({
      ...harness.gateway.env,
      NOTIFIER_PORT: '0',
      NOTIFIER_HOST: '127.0.0.1',
      LOG_FILE: join(harness.logDir, 'notifier.log'),
    });
    trader = await harness.trader();
  });

  afterAll(async () => {
    await notifier?.close();
    await harness.stop();
  });

  const stsAs = (who: Trader, ...argv: string[]): Run => {
    const run: Run = { stdout: '', stderr: '', done: Promise.resolve(0) };
    run.done = runCli(argv, {
      stdout: (text) => (run.stdout += text),
      stderr: (text) => (run.stderr += text),
      env: {
        STS_API_URL: harness.gateway.baseUrl,
        STS_WS_URL: notifier.url,
        STS_API_KEY: who.headers['x-api-key'],
      },
    }).then((code) => (run.exitCode = code));
    return run;
  };
  const sts = (...argv: string[]): Run => stsAs(trader, ...argv);
  const lines = (run: Run) =>
    run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  const createArgs = (size: string, wallet = trader.wallet) => [
    'trades',
    'create',
    '--market',
    'BTC',
    '--long',
    'hyperliquid',
    '--short',
    'paradex',
    '--wallet',
    wallet,
    '--spread',
    '-1000',
    '--size',
    size,
  ];

  it('trades create then trades watch --json until completed: exit 0, one JSON line per change', async () => {
    const created = sts(...createArgs('0.002'), '--json');
    expect(await created.done).toBe(0);
    const { trade_id: tradeId, status } = lines(created)[0]!;
    expect(status).toBe('pending');

    const watch = sts('trades', 'watch', String(tradeId), '--json', '--interval', '200');
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.002');
    expect(await watch.done).toBe(0);
    const output = lines(watch);
    expect(output.at(-1)).toEqual({
      type: 'end',
      trade_id: tradeId,
      status: 'completed',
      exit_code: 0,
      residual_unhedged: '0',
      residual_unwound: '0',
    });
    expect(output.filter((line) => line.type === 'status').at(-1)).toMatchObject({
      status: 'completed',
      filled_size: '0.002',
      target_size: '0.002',
    });
    const logged = output.filter((line) => line.type === 'event').map((line) => line.event_type);
    expect(logged).toEqual(expect.arrayContaining(['maker_fill', 'hedge_sent', 'hedge_filled']));
  });

  it('trades watch in human form: status changes, a progress bar and log lines, exit 0', async () => {
    const created = sts(...createArgs('0.002'));
    expect(await created.done).toBe(0);
    const tradeId = /^trade (\S+) pending \(accepted\)/.exec(created.stdout)?.[1];
    expect(tradeId).toBeDefined();

    const watch = sts('trades', 'watch', tradeId!, '--interval', '200');
    const order = await harness.waitForMakerOrder(trader, 'hyperliquid');
    await harness.takeFromMaker(order, '0.002');
    expect(await watch.done).toBe(0);
    expect(watch.stdout).toMatch(/^status (\w+ -> )?\w+$/m);
    expect(watch.stdout).toContain('[####################] 0.002 / 0.002 base (100%)');
    expect(watch.stdout).toMatch(/^#\d+ \S+ maker_fill .*side=buy/m);
    expect(watch.stdout.trim().split('\n').at(-1)).toBe(`trade ${tradeId} completed`);

    // On a terminal the bar is redrawn in place (carriage return, clear line), never scrolled.
    let screen = '';
    const onTerminal = await runCli(['trades', 'watch', tradeId!], {
      stdout: (text) => (screen += text),
      stderr: () => undefined,
      env: { STS_API_URL: harness.gateway.baseUrl, STS_API_KEY: trader.headers['x-api-key'] },
      tty: true,
    });
    expect(onTerminal).toBe(0);
    expect(screen).toContain('\r\x1b[2K[####################] 0.002 / 0.002 base (100%)');
    expect(screen).not.toContain('(100%)\n#');
    expect(screen.endsWith(`\ntrade ${tradeId} completed\n`)).toBe(true);

    const shown = sts('trades', 'show', tradeId!);
    expect(await shown.done).toBe(0);
    expect(shown.stdout).toMatch(/^status\s+completed$/m);
  });

  it('show, list and watch name what a completed trade left unhedged (issue 54)', async () => {
    // Maker on Paradex (BTC minimum 100 USD), hedge on Aster (lot 0.001): of 0.0015 filled,
    // 0.001 is hedged and 0.0005 (about 48 USD) fits neither venue's minimum.
    const named = await harness.trader(['paradex', 'aster']);
    const created = stsAs(
      named,
      'trades',
      'create',
      '--market',
      'BTC',
      '--long',
      'paradex',
      '--short',
      'aster',
      '--wallet',
      named.wallet,
      '--spread',
      '-1000',
      '--size',
      '0.002',
      '--json',
    );
    expect(await created.done).toBe(0);
    const tradeId = String(lines(created)[0]!.trade_id);
    const watch = stsAs(named, 'trades', 'watch', tradeId, '--interval', '200');
    const order = await harness.waitForMakerOrder(named, 'paradex');
    await harness.takeFromMaker(order, '0.0015');
    expect(await watch.done).toBe(0);
    const note = '0.0005 BTC not hedged, not unwound: 0.0005 BTC left one-sided on paradex';
    expect(watch.stdout.trim().split('\n').at(-1)).toBe(`trade ${tradeId} completed; ${note}`);
    const shown = stsAs(named, 'trades', 'show', tradeId);
    expect(await shown.done).toBe(0);
    expect(shown.stdout).toContain(`\nunhedged      ${note}\n`);
    const listed = stsAs(named, 'trades', 'list');
    expect(await listed.done).toBe(0);
    expect(listed.stdout).toContain('UNHEDGED 0.0005 BTC on paradex');
  });

  it('--version and -V print the version of apps/cli/package.json, exit 0', async () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const shown = sts(flag);
      expect(await shown.done).toBe(0);
      expect(shown.stdout).toBe(`${manifest.version}\n`);
    }
  });

  it('spread: both legs and the verdict on a target, in JSON and in human form', async () => {
    const legs = ['BTC', '--long', 'hyperliquid', '--short', 'paradex'];
    const met = sts('spread', ...legs, '--target', '-1000', '--condition', 'gte', '--json');
    expect(await met.done).toBe(0);
    const decimal = expect.stringMatching(/^\d+(\.\d+)?$/);
    expect(lines(met)[0]).toMatchObject({
      market: 'BTC',
      long_exchange: 'hyperliquid',
      short_exchange: 'paradex',
      long: { bid: decimal, ask: decimal },
      short: { bid: decimal, ask: decimal },
      spread_type: 'absolute',
      condition_met: true,
    });

    // A target far above any paper spread, its condition left to the default (gte): not met.
    const human = sts('spread', ...legs, '--spread-type', 'bps', '--target', '100000');
    expect(await human.done).toBe(0);
    expect(human.stdout).toMatch(/^long\s+hyperliquid\s+bid \d\S*\s+ask \d\S*$/m);
    expect(human.stdout).toMatch(/^short\s+paradex\s+bid \d\S*\s+ask \d\S*$/m);
    expect(human.stdout).toMatch(/^spread -?\d\S* bps {2}target gte 100000: condition not met$/m);

    const untargeted = sts('spread', ...legs, '--maker-leg', 'short', '--json');
    expect(await untargeted.done).toBe(0);
    expect(lines(untargeted)[0]).toMatchObject({ condition_met: null });
    expect(await sts('spread', 'BTC', '--long', 'hyperliquid').done).toBe(2);
  });

  it('trades create --watch follows the new trade to completed: exit 0, the create line then the watch lines', async () => {
    const own = await harness.trader();
    const run = stsAs(
      own,
      ...createArgs('0.002', own.wallet),
      '--watch',
      '--interval',
      '200',
      '--json',
    );
    const order = await harness.waitForMakerOrder(own, 'hyperliquid');
    await harness.takeFromMaker(order, '0.002');
    expect(await run.done).toBe(0);
    const [created, ...watched] = lines(run);
    expect(created).toMatchObject({ status: 'pending', trade_id: expect.any(String) });
    expect(watched.at(-1)).toEqual({
      type: 'end',
      trade_id: created!.trade_id,
      status: 'completed',
      exit_code: 0,
      residual_unhedged: '0',
      residual_unwound: '0',
    });
    const logged = watched.filter((line) => line.type === 'event').map((line) => line.event_type);
    expect(logged).toEqual(expect.arrayContaining(['maker_fill', 'hedge_filled']));
  });

  it('a canceled trade ends trades watch with exit code 3, in both forms', async () => {
    for (const form of [['--json'], []]) {
      const created = sts(...createArgs('0.01'), '--json');
      expect(await created.done).toBe(0);
      const tradeId = String(lines(created)[0]!.trade_id);
      await harness.waitForMakerOrder(trader, 'hyperliquid');

      const watch = sts('trades', 'watch', tradeId, '--interval', '200', ...form);
      await eventually(() => watch.stdout.includes('active'), 'watch saw the trade active');
      const cancel = sts('trades', 'cancel', tradeId, ...form);
      expect(await cancel.done).toBe(0);
      expect(await watch.done).toBe(3);
      if (form.length > 0) {
        expect(lines(cancel)[0]).toEqual({ status: 'cancel_sent', trade_id: tradeId });
        expect(lines(watch).at(-1)).toEqual({
          type: 'end',
          trade_id: tradeId,
          status: 'canceled',
          exit_code: 3,
          residual_unhedged: '0',
          residual_unwound: '0',
        });
      } else {
        expect(cancel.stdout).toBe(`trade ${tradeId} cancel sent (filled positions stay open)\n`);
        expect(watch.stdout.trim().split('\n').at(-1)).toBe(`trade ${tradeId} canceled`);
      }
    }
  });

  it('refusals exit 1 with the code; usage errors exit 2', async () => {
    const missing = sts('trades', 'show', '0b6c2b8e-1111-4a4a-9a9a-000000000000', '--json');
    expect(await missing.done).toBe(1);
    expect(lines(missing)[0]).toMatchObject({ status: 404, code: 'trade_not_found' });
    const human = sts('trades', 'show', '0b6c2b8e-1111-4a4a-9a9a-000000000000');
    expect(await human.done).toBe(1);
    expect(human.stderr).toMatch(
      /^error: 404 trade_not_found: trade not found \(request id \S+\)\n$/,
    );
    expect(await sts('trades', 'frobnicate').done).toBe(2);

    // Terms from a JSON file, a flag over them.
    const terms = join(mkdtempSync(join(tmpdir(), 'sts-cli-')), 'terms.json');
    writeFileSync(
      terms,
      JSON.stringify(harness.gateway.tradeBody(trader.wallet, { target_spread: '-1000' })),
    );
    const fromTerms = sts('trades', 'create', '--file', terms, '--size', '0.003', '--json');
    expect(await fromTerms.done).toBe(0);
    const fileTrade = String(lines(fromTerms)[0]!.trade_id);
    const shownFile = sts('trades', 'show', fileTrade, '--json');
    expect(await shownFile.done).toBe(0);
    expect(lines(shownFile)[0]).toMatchObject({ target_size: '0.003', market: 'BTC' });
    const amended = sts('trades', 'amend', fileTrade, '--size', '0.004', '--json');
    expect(await amended.done).toBe(0);
    expect(lines(amended)[0]).toMatchObject({
      trade_id: fileTrade,
      status: expect.stringMatching(/^amendment_(sent|persisted)$/),
    });
    expect(await sts('trades', 'cancel', fileTrade).done).toBe(0);
    const log = sts('events', fileTrade, '--json');
    expect(await log.done).toBe(0);
    expect(Array.isArray(lines(log)[0])).toBe(true);

    // Settings from a config file when the environment has none.
    const config = join(mkdtempSync(join(tmpdir(), 'sts-cli-')), 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ api_url: harness.gateway.baseUrl, api_key: trader.headers['x-api-key'] }),
    );
    let listed = '';
    const fromFile = await runCli(['trades', 'list', '--json'], {
      stdout: (text) => (listed += text),
      stderr: () => undefined,
      env: { STS_CONFIG: config },
    });
    expect(fromFile).toBe(0);
    expect((JSON.parse(listed) as Array<{ user_id: string }>)[0]?.user_id).toBe(trader.userId);

    const maintenance = sts('maintenance', '--json');
    expect(await maintenance.done).toBe(0);
    expect(lines(maintenance)[0]![0]).toMatchObject({ exchange: '_system', enabled: false });

    // Every venue of the paper fleet, PAPER in the human form.
    const venues = sts('exchanges');
    expect(await venues.done).toBe(0);
    expect(venues.stdout.trim().split('\n')).toEqual(
      ['hyperliquid', 'lighter', 'paradex', 'extended', 'aster'].map((id) =>
        expect.stringMatching(new RegExp(`^${id}\\s+PAPER\\s+maker cap \\d+\\s+open$`)),
      ),
    );
  });

  it('trades cancel-all cancels every live trade, a line each, and then finds none live', async () => {
    const trades = await harness.trader();
    const as = (...argv: string[]): Run => {
      const run: Run = { stdout: '', stderr: '', done: Promise.resolve(0) };
      run.done = runCli(argv, {
        stdout: (text) => (run.stdout += text),
        stderr: (text) => (run.stderr += text),
        env: { STS_API_URL: harness.gateway.baseUrl, STS_API_KEY: trades.headers['x-api-key'] },
      }).then((code) => (run.exitCode = code));
      return run;
    };
    const ids: string[] = [];
    // Sizes both venues accept (Paradex wants 100 USD of ETH): a trade rejected at pre-flight
    // before the cancel-all reaches its worker would end rejected, not canceled.
    for (const [market, size] of [
      ['BTC', '0.01'],
      ['ETH', '0.05'],
    ]) {
      const created = as(
        ...createArgs(size).map((arg) =>
          arg === trader.wallet ? trades.wallet : arg === 'BTC' ? market : arg,
        ),
        '--json',
      );
      expect(await created.done).toBe(0);
      ids.push(String(lines(created)[0]!.trade_id));
    }
    const all = as('trades', 'cancel-all', '--json');
    expect(await all.done).toBe(0);
    const answered = (lines(all)[0] as { trades: Array<{ trade_id: string }> }).trades;
    expect(answered.map((trade) => trade.trade_id)).toEqual(ids);
    for (const id of ids) {
      await harness.waitForStatus(trades, id, 'canceled', 20_000);
    }
    const again = as('trades', 'cancel-all');
    expect(await again.done).toBe(0);
    expect(again.stdout).toBe('no live trades\n');
    const live = as('trades', 'list', '--status', 'pending,validating,active,paused,recovering');
    expect(await live.done).toBe(0);
    expect(live.stdout).toBe('no trades\n');
    const page = as('trades', 'list', '--status', 'canceled', '--limit', '1', '--json');
    expect(await page.done).toBe(0);
    expect(
      (lines(page)[0] as unknown as Array<{ trade_id: string }>).map((t) => t.trade_id),
    ).toEqual([ids[1]]);
  });
});
