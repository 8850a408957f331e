import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { GatewayHarness } from '@sts/app-gateway-testing';

const ROOT = resolve(__dirname, '../../..');
const run = promisify(execFile);
const tsc = (args: string[], cwd: string) =>
  run(join(ROOT, 'node_modules/.bin/tsc'), args, { cwd }).then(
    () => '',
    (failure: { stdout?: string }) => failure.stdout ?? 'failed',
  );

/** What a bot's script prints: the public maintenance list, and how a refusal looks. */
const BOT_CALLS = `
  const sts = new StsClient({ baseUrl: process.env.STS_API_URL });
  const maintenance = await sts.maintenance();
  const refusal = await sts.getTrade('0b6c2b8e-1111-4a4a-9a9a-000000000000').catch((error) => error);
  console.log(JSON.stringify({
    system: maintenance.find((entry) => entry.exchange === '_system')?.enabled,
    typed: refusal instanceof StsApiError,
    code: refusal.code,
    status: refusal.status,
  }));
`;

/**
 * A bot's view of @sts/sdk: the package built (ES modules and CommonJS),
 * packed by npm, installed from the tarball into a project of its own, and
 * used from an ES module and a CommonJS file against a running gateway.
 */
describe('@sts/sdk as a package', () => {
  const work = mkdtempSync(join(tmpdir(), 'sts-sdk-pkg-'));
  const project = join(work, 'bot');
  const gateway = new GatewayHarness();

  beforeAll(async () => {
    const built = join(work, 'built');
    await run('node', [join(ROOT, 'libs/sdk/tools/build-package.mjs'), '--out', built]);
    await run('npm', ['pack', built, '--pack-destination', work], { cwd: work });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"bot","private":true}\n');
    // The SDK depends on no package: the install needs no network.
    await run('npm', ['install', join(work, tarball), '--offline', '--no-audit', '--no-fund'], {
      cwd: project,
    });
    await gateway.start();
  }, 120_000);
  afterAll(() => gateway.stop());

  const runBot = async (file: string, code: string) => {
    writeFileSync(join(project, file), code);
    const env = { ...process.env, STS_API_URL: gateway.baseUrl };
    const { stdout } = await run('node', [file], { cwd: project, env });
    return JSON.parse(stdout) as Record<string, unknown>;
  };
  const expected = { system: false, typed: true, code: 'unauthorized', status: 401 };

  it('is used from an ES module', async () => {
    const answer = await runBot(
      'bot.mjs',
      `import { StsApiError, StsClient } from '@sts/sdk';\n${BOT_CALLS}`,
    );
    expect(answer).toEqual(expected);
  }, 30_000);

  it('is used from a CommonJS file', async () => {
    const answer = await runBot(
      'bot.cjs',
      `const { StsApiError, StsClient } = require('@sts/sdk');\n(async () => {${BOT_CALLS}})();`,
    );
    expect(answer).toEqual(expected);
  }, 30_000);

  const check = async (code: string, options: string[]) => {
    const file = join(project, `bot-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(file, code);
    return tsc(['--noEmit', '--strict', '--skipLibCheck', 'false', ...options, file], project);
  };
  const asNode = [
    ...['--module', 'node16', '--moduleResolution', 'node16'],
    ...['--types', 'node', '--typeRoots', join(ROOT, 'node_modules/@types')],
  ];
  const asBrowser = ['--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022,dom'];

  it('types a bot: the trade from getTrade, the error code, the stream events, a webhook', async () => {
    const problems = await check(
      `
      import { StsApiError, StsClient, StsEventStream, type TradeStatus } from '@sts/sdk';
      export async function bot(): Promise<TradeStatus> {
        const sts = new StsClient({ baseUrl: 'http://localhost:3000', apiKey: 'k' });
        const trade = await sts.getTrade('id');
        const size: string = trade.filled_size;
        void size;
        try { await sts.cancelTrade(trade.trade_id); } catch (error) {
          if (error instanceof StsApiError && error.code === 'trade_not_found') return 'canceled';
          if (error instanceof StsApiError && error.code === 'bad_gateway') return 'active';
        }
        // format is optional (the API's default: standard); the secret comes with the create only.
        const hook = await sts.createWebhook({ url: 'https://hooks.example.com/sts', events: ['trade.fill'] });
        const secret: string = hook.secret;
        const { deliveries } = await sts.webhookDeliveries(hook.id, { limit: 10 });
        void [secret, deliveries[0]?.attempt_log[0]?.status_code];
        for await (const update of sts.watchTrade(trade.trade_id)) {
          if (update.type === 'end') return update.trade.status;
        }
        for await (const event of new StsEventStream({ url: 'ws://x', apiKey: 'k' })) {
          if (event.event === 'trade.completed') return event.status;
        }
        return trade.status;
      }
    `,
      asNode,
    );
    expect(problems).toBe('');
  }, 60_000);

  it("types a browser's code: the platform WebSocket fits the stream, nothing of Node is needed", async () => {
    const problems = await check(
      `
      import { StsEventStream, type WebSocketConstructor } from '@sts/sdk';
      const platform: WebSocketConstructor = WebSocket;
      const stream = new StsEventStream({ url: 'ws://x', token: 'jwt', WebSocket: platform });
      stream.onFill((fill) => console.log(fill.sequence, fill.event_type));
      stream.subscribeFills('trade', { fromSequence: 1 });
    `,
      asBrowser,
    );
    expect(problems).toBe('');
  }, 60_000);

  it('refuses what the API does not have', async () => {
    const problems = await check(
      `
      import { StsClient, type ErrorCode } from '@sts/sdk';
      export async function bot() {
        const trade = await new StsClient({ baseUrl: '' }).getTrade('id');
        const code: ErrorCode = 'no_such_code';
        const hook = await new StsClient({ baseUrl: '' }).webhook('id');
        await new StsClient({ baseUrl: '' }).createWebhook({ url: 'https://x', events: ['trade.exploded'] });
        return [trade.filled_amount, code, hook.secret];
      }
    `,
      asNode,
    );
    expect(problems).toContain("Property 'filled_amount' does not exist");
    expect(problems).toContain('"no_such_code"');
    // An event type the API does not send, and a read that never shows the secret.
    expect(problems).toContain('"trade.exploded"');
    expect(problems).toContain("Property 'secret' does not exist");
  }, 60_000);
});
