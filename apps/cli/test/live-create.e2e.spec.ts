import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GatewayHarness } from '@sts/app-gateway-testing';
import type { CliIo } from '../src/io';
import { runCli } from '../src/cli';

jest.setTimeout(60_000);

interface Ran {
  exitCode: number;
  stdout: string;
  stderr: string;
  asked: string[];
}

/**
 * `sts` against a gateway whose hyperliquid runs live (its ccxt client
 * against the simulator's dialect) and the other venues on paper: a create
 * that would trade real money is confirmed at the terminal or refused, each
 * trade says its legs' modes and costs, and a failure names what to quote or
 * where the CLI could not reach.
 */
describe('sts: live creates, modes and costs, errors worth quoting', () => {
  const gateway = new GatewayHarness();
  let trader: Awaited<ReturnType<GatewayHarness['trader']>>;

  beforeAll(async () => {
    await gateway.start({ venues: true, budget: true, liveDialects: ['hyperliquid'] });
    trader = await gateway.trader(['hyperliquid', 'paradex', 'lighter']);
  });
  afterAll(() => gateway.stop());

  /** The CLI as a shell runs it; `answer` plays the person at the terminal (absent: a script). */
  const sts = async (
    argv: string[],
    options: { answer?: boolean; apiUrl?: string } = {},
  ): Promise<Ran> => {
    const ran: Ran = { exitCode: -1, stdout: '', stderr: '', asked: [] };
    const io: CliIo = {
      stdout: (text) => (ran.stdout += text),
      stderr: (text) => (ran.stderr += text),
      env: {
        STS_API_URL: options.apiUrl ?? gateway.baseUrl,
        STS_API_KEY: trader.headers['x-api-key'],
        STS_CONFIG: '/nonexistent/sts.json',
      },
      ...(options.answer === undefined
        ? {}
        : {
            confirm: (question: string) => {
              ran.asked.push(question);
              return Promise.resolve(options.answer!);
            },
          }),
    };
    ran.exitCode = await runCli(argv, io);
    return ran;
  };
  // Maker on paradex (paper) for the live trades, lighter (paper) for the paper ones: within caps.
  const create = (long: string, short: string, ...more: string[]) => [
    'trades',
    'create',
    '--market',
    'BTC',
    '--long',
    long,
    '--short',
    short,
    '--wallet',
    trader.wallet,
    '--spread',
    '5',
    '--size',
    '0.01',
    '--maker-leg',
    long === 'hyperliquid' ? 'short' : 'long',
    ...more,
  ];
  const tradeCount = async () =>
    (await gateway.request('GET', '/api/v1/trades', { headers: trader.headers })).body.length;

  it('refuses a live create with nobody to ask (exit 2, nothing sent), and says --yes', async () => {
    const refused = await sts(create('hyperliquid', 'paradex'));
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      'error: hyperliquid is a live venue: this trade places real orders there, and its fills ' +
        'move real money. Not created: nobody at a terminal to confirm it; run again with --yes to create it.\n',
    );
    const json = await sts([...create('hyperliquid', 'paradex'), '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ code: 'confirmation_required' });
    expect(await tradeCount()).toBe(0);
  });

  it('asks on a terminal: no creates nothing (exit 1), yes creates the trade', async () => {
    const declined = await sts(create('hyperliquid', 'paradex'), { answer: false });
    expect(declined).toMatchObject({ exitCode: 1, stderr: 'error: not created: not confirmed\n' });
    expect(declined.asked).toEqual([
      'hyperliquid is a live venue: this trade places real orders there, and its fills move ' +
        'real money.\nTrade real money on hyperliquid? [y/N] ',
    ]);
    expect(await tradeCount()).toBe(0);

    const confirmed = await sts(create('hyperliquid', 'paradex'), { answer: true });
    expect(confirmed.exitCode).toBe(0);
    expect(confirmed.stdout).toMatch(/^trade \S+ pending \(accepted\)/);
    expect(await tradeCount()).toBe(1);
  });

  it('--yes creates a live trade without asking; a paper one is never asked about', async () => {
    const skipped = await sts(create('hyperliquid', 'paradex', '--yes'), { answer: false });
    expect(skipped).toMatchObject({ exitCode: 0, asked: [] });
    const paper = await sts(create('lighter', 'paradex'), { answer: false });
    expect(paper).toMatchObject({ exitCode: 0, asked: [] });
    expect(await sts(create('lighter', 'paradex'))).toMatchObject({ exitCode: 0 });
  });

  it('list and show print the legs’ modes and the costs the API reports', async () => {
    const listed = await sts(['trades', 'list']);
    expect(listed.exitCode).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/ {2,}/)[2])).toEqual([
      'PAPER',
      'PAPER',
      'LIVE/PAPER',
      'LIVE/PAPER',
    ]);
    const liveId = lines[3]!.split(' ')[0]!;
    const shown = await sts(['trades', 'show', liveId]);
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain(
      '\nmode          long LIVE on hyperliquid, short PAPER on paradex: real money on hyperliquid\n',
    );
    expect(shown.stdout).toContain('\nlong costs    nothing filled\n');
    expect(shown.stdout).toContain('\nshort costs   nothing filled\n');
    expect(shown.stdout).toContain('\nrealised      -\n');
  });

  it('a refusal prints the request id the gateway logged it under, in both forms', async () => {
    const missing = '0b6c2b8e-1111-4a4a-9a9a-000000000000';
    const human = await sts(['trades', 'show', missing]);
    expect(human.exitCode).toBe(1);
    const id = /^error: 404 trade_not_found: trade not found \(request id ([\w-]+)\)\n$/.exec(
      human.stderr,
    )?.[1];
    expect(id).toBeDefined();
    expect(gateway.logs()).toContain(id);
    const json = await sts(['trades', 'show', missing, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      status: 404,
      error: 'trade not found',
      code: 'trade_not_found',
      request_id: expect.stringMatching(/^[\w-]+$/),
    });
  });

  it('an API it cannot reach is named with its URL and the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const apiUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const human = await sts(['exchanges'], { apiUrl });
    expect(human.exitCode).toBe(1);
    expect(human.stderr).toMatch(
      new RegExp(
        `^error: cannot reach the API at ${apiUrl}/api/v1/exchanges: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\n$`,
      ),
    );
    const json = await sts(['exchanges', '--json'], { apiUrl });
    expect(JSON.parse(json.stdout)).toMatchObject({
      code: 'network_error',
      url: `${apiUrl}/api/v1/exchanges`,
      cause: 'ECONNREFUSED',
    });
  });
});
