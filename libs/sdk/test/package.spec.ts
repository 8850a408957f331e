import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../../..');
const tsc = (args: string[]) =>
  promisify(execFile)(join(ROOT, 'node_modules/.bin/tsc'), args, { cwd: ROOT }).then(
    () => '',
    (failure: { stdout?: string }) => failure.stdout ?? 'failed',
  );

/** A bot's view: the package's declarations (npm run sdk:build) type a consumer's code. */
describe('@sts/sdk as a package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sts-sdk-pkg-'));
  const pkg = join(dir, 'node_modules/@sts/sdk');

  beforeAll(async () => {
    mkdirSync(pkg, { recursive: true });
    copyFileSync(join(ROOT, 'libs/sdk/package.json'), join(pkg, 'package.json'));
    expect(await tsc(['-p', join(ROOT, 'libs/sdk/tsconfig.lib.json'), '--outDir', pkg])).toBe('');
  }, 60_000);

  const check = async (code: string) => {
    const file = join(dir, `bot-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(file, code);
    return tsc(['--noEmit', '--strict', '--types', 'node', '--moduleResolution', 'node', file]);
  };

  it('types a bot: the trade from getTrade, the error code, the stream events', async () => {
    const problems = await check(`
      import { StsApiError, StsClient, StsEventStream, type TradeStatus } from '@sts/sdk';
      export async function bot(): Promise<TradeStatus> {
        const sts = new StsClient({ baseUrl: 'http://localhost:3000', apiKey: 'k' });
        const trade = await sts.getTrade('id');
        const size: string = trade.filled_size;
        void size;
        try { await sts.cancelTrade(trade.trade_id); } catch (error) {
          if (error instanceof StsApiError && error.code === 'trade_not_found') return 'canceled';
        }
        for await (const event of new StsEventStream({ url: 'ws://x', apiKey: 'k' })) {
          if (event.event === 'trade.completed') return event.status;
        }
        return trade.status;
      }
    `);
    expect(problems).toBe('');
  }, 60_000);

  it('refuses what the API does not have', async () => {
    const problems = await check(`
      import { StsClient, type ErrorCode } from '@sts/sdk';
      export async function bot() {
        const trade = await new StsClient({ baseUrl: '' }).getTrade('id');
        const code: ErrorCode = 'no_such_code';
        return [trade.filled_amount, code];
      }
    `);
    expect(problems).toContain("Property 'filled_amount' does not exist");
    expect(problems).toContain('"no_such_code"');
  }, 60_000);
});
