import { Command, CommanderError } from 'commander';
import { StsApiError, StsClient, StsNetworkError } from '@sts/sdk';
import {
  listCredentials,
  listExchanges,
  listMaintenance,
  listMarkets,
  listWallets,
} from './commands/account';
import {
  amendTrade,
  cancelAllTrades,
  cancelTrade,
  createTrade,
  listTrades,
  showTrade,
  type CreateFlags,
  type ListFlags,
} from './commands/trades';
import { showBalances } from './commands/balances';
import { showPositions } from './commands/positions';
import { showQuality, type QualityFlags } from './commands/quality';
import { showResults, type ResultsFlags } from './commands/results';
import { showSpread, type SpreadFlags } from './commands/spread';
import { watchTrade } from './commands/watch';
import {
  addWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  showWebhook,
  testWebhook,
  type AddWebhookFlags,
  type DeliveriesFlags,
} from './commands/webhooks';
import { CliStop, EXIT, settingsOf, type CliIo, type Settings } from './io';
import { eventLine, printJson } from './output';
import { cliVersion } from './version';
import { cliWebSocket } from './web-socket';

const INTERVAL_MS = '1000';
/** Commander's ways of ending after it printed help or the version: an answer, not a usage error. */
const SHOWN_NOT_RUN = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/**
 * `sts`: the trader's command line, on @sts/sdk. Returns the exit code (README:
 * 0 ok or completed, 1 refused or unreachable, 2 usage, 3 canceled, 4 failed,
 * 5 rejected) instead of exiting, so it runs inside specs as it runs in a shell.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('sts')
    .description(
      'the spread trading service from a terminal (STS_API_URL, STS_WS_URL, STS_API_KEY)',
    )
    .option('--json', 'machine-readable output (one JSON document, or one per line for watch)')
    .version(cliVersion(), '-V, --version', 'the CLI version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  /** Wraps an action: settings and client from the environment, refusals to exit code 1. */
  const run: Run =
    (action) =>
    async (...args) => {
      const settings = settingsOf(io, Boolean(program.opts()['json']));
      const client = new StsClient({
        baseUrl: settings.apiUrl,
        apiKey: settings.apiKey,
        notifierUrl: settings.wsUrl,
        WebSocket: cliWebSocket,
      });
      try {
        exitCode = (await action(client, settings, ...args)) ?? EXIT.ok;
      } catch (error) {
        exitCode = error instanceof CliStop ? error.exitCode : EXIT.error;
        reportFailure(io, settings, error);
      }
    };
  const trades = program.command('trades').description('create, read, amend, cancel, watch');
  addCreateCommand(trades, run, io);
  addTradeCommands(trades, run, io);
  addEventsCommand(program, run, io);
  addSpreadCommand(program, run, io);
  addAccountCommands(program, run, io);
  addResultsCommand(program, run, io);
  addWebhookCommands(program, run, io);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) {
      throw error;
    }
    return SHOWN_NOT_RUN.has(error.code) ? EXIT.ok : EXIT.usage;
  }
  return exitCode;
}

type Action<A extends unknown[]> = (
  client: StsClient,
  settings: Settings,
  ...args: A
) => Promise<number | void>;
type Run = <A extends unknown[]>(action: Action<A>) => (...args: A) => Promise<void>;

/** `trades create`: terms from a JSON file, flags override; `--watch` follows the trade after. */
function addCreateCommand(trades: Command, run: Run, io: CliIo): void {
  trades
    .command('create')
    .description('submit a trade (terms from --file JSON, flags override)')
    .option('--file <path>', 'JSON file with the create body')
    .option('--market <symbol>', 'canonical market, e.g. BTC')
    .option('--long <exchange>', 'long exchange')
    .option('--short <exchange>', 'short exchange')
    .option('--wallet <address>', 'wallet of both legs')
    .option('--long-wallet <address>')
    .option('--short-wallet <address>')
    .option('--spread <decimal>', 'target spread')
    .option('--condition <gte|gt|lte|lt|eq>', 'spread condition (default gte)')
    .option('--size <decimal>', 'target size')
    .option('--maker-leg <long|short>', 'default long')
    .option('--slippage <decimal>', 'max slippage (default 0.001)')
    .option('--size-type <base|notional>')
    .option('--spread-type <absolute|percentage|bps|ticks>')
    .option('--idempotency-key <key>', 'default: a fresh UUID')
    .option(
      '--yes',
      'on live venues, create without asking (else asked on a terminal, refused off one)',
    )
    .option(
      '--watch',
      'then follow it as trades watch does; exit 0 completed, 3 canceled, 4 failed, 5 rejected',
    )
    .option('--interval <ms>', 'with --watch: longest wait between reads', INTERVAL_MS)
    .action(
      run(async (client, settings, flags: CreateFlags) => {
        const created = await createTrade(client, settings, io, flags);
        if (flags.watch) {
          return watchTrade(client, settings, io, created.trade_id, {
            events: true,
            progress: true,
            intervalMs: Number(flags.interval),
          });
        }
      }),
    );
}

/** `trades list|show|amend|cancel|cancel-all|watch`. */
function addTradeCommands(trades: Command, run: Run, io: CliIo): void {
  trades
    .command('list')
    .description('your 50 most recent trades, or a page of them')
    .option('--status <list>', 'only these statuses, comma-separated')
    .option('--limit <n>', 'how many (1-200)')
    .option('--before <trade-id>', 'only trades created before this one (the next page)')
    .action(run((client, settings, flags: ListFlags) => listTrades(client, settings, io, flags)));
  trades
    .command('show <trade-id>')
    .description('one trade')
    .action(run((client, settings, id: string) => showTrade(client, settings, io, id)));
  trades
    .command('amend <trade-id>')
    .description('change size, spread or slippage')
    .option('--size <decimal>')
    .option('--spread <decimal>')
    .option('--slippage <decimal>')
    .option('--size-type <base|notional>')
    .option('--spread-type <absolute|percentage|bps|ticks>')
    .action(
      run((client, settings, id: string, flags: Record<string, string>) =>
        amendTrade(client, settings, io, id, flags),
      ),
    );
  trades
    .command('cancel <trade-id>')
    .description('cancel (filled positions stay open)')
    .action(run((client, settings, id: string) => cancelTrade(client, settings, io, id)));
  trades
    .command('cancel-all')
    .description('cancel every live trade of yours (filled positions stay open)')
    .action(run((client, settings) => cancelAllTrades(client, settings, io)));
  trades
    .command('watch <trade-id>')
    .description('follow until the trade ends; exit 0 completed, 3 canceled, 4 failed, 5 rejected')
    .option('--interval <ms>', 'longest wait between reads', INTERVAL_MS)
    .action(
      run((client, settings, id: string, flags: { interval: string }) =>
        watchTrade(client, settings, io, id, {
          events: true,
          progress: true,
          intervalMs: Number(flags.interval),
        }),
      ),
    );
}

/** `events`: the execution log, once or followed. */
function addEventsCommand(program: Command, run: Run, io: CliIo): void {
  program
    .command('events <trade-id>')
    .description('the execution log')
    .option('--follow', 'keep printing new entries until the trade ends')
    .option('--interval <ms>', 'longest wait between reads', INTERVAL_MS)
    .action(
      run(async (client, settings, id: string, flags: { follow?: boolean; interval: string }) => {
        const options = { events: true, progress: false, intervalMs: Number(flags.interval) };
        if (flags.follow) {
          return watchTrade(client, settings, io, id, options);
        }
        const { events } = await client.tradeEvents(id);
        if (settings.json) {
          return printJson(io, events);
        }
        for (const event of events) {
          io.stdout(`${eventLine(event)}\n`);
        }
      }),
    );
}

/** `spread`: both venues' touch and the spread a trade on these terms would see now. */
function addSpreadCommand(program: Command, run: Run, io: CliIo): void {
  program
    .command('spread <market>')
    .description("both venues' bid/ask and the spread now; with --target, whether it holds")
    .requiredOption('--long <exchange>', 'long exchange')
    .requiredOption('--short <exchange>', 'short exchange')
    .option('--maker-leg <long|short>', 'default long')
    .option(
      '--spread-type <absolute|percentage|bps|ticks>',
      'unit of the spread (default absolute)',
    )
    .option('--target <decimal>', 'target spread, in --spread-type units')
    .option('--condition <gte|gt|lte|lt|eq>', 'with --target (default gte)')
    .action(
      run((client, settings, market: string, flags: SpreadFlags) =>
        showSpread(client, settings, io, market, flags),
      ),
    );
}

/** `markets`, `wallets`, `credentials`, `maintenance`, `exchanges`: the account's and the venues' reads. */
function addAccountCommands(program: Command, run: Run, io: CliIo): void {
  program
    .command('markets')
    .description('market universes of exchanges')
    .requiredOption('--exchanges <list>', 'comma-separated exchange ids')
    .option('--min <n>', 'listed on at least n of them (default all)')
    .action(
      run((client, settings, flags: { exchanges: string; min?: string }) =>
        listMarkets(client, settings, io, flags.exchanges, flags.min),
      ),
    );
  program
    .command('wallets')
    .description('your linked wallets')
    .action(run((client, settings) => listWallets(client, settings, io)));
  program
    .command('credentials')
    .description('your exchange credentials (metadata)')
    .action(run((client, settings) => listCredentials(client, settings, io)));
  program
    .command('maintenance')
    .description('maintenance flags')
    .action(run((client, settings) => listMaintenance(client, settings, io)));
  program
    .command('exchanges')
    .description('the venues: PAPER or LIVE, maker caps, whether trading is halted')
    .action(run((client, settings) => listExchanges(client, settings, io)));
  program
    .command('positions')
    .description("each venue's position beside what your fills imply, net per market, flagged")
    .action(run((client, settings) => showPositions(client, settings, io)));
  program
    .command('balances')
    .description(
      'each venue account: margin balance, unrealised PnL, equity, available and used margin; totals in USD',
    )
    .action(run((client, settings) => showBalances(client, settings, io)));
  program
    .command('quality')
    .description(
      "execution quality of one trade or a window grouped: markouts, hedge slippage against the decision and the arrival mid, quoting and fill rates, time to first fill, a trade's spread at start",
    )
    .option(
      '--trade <trade-id>',
      "one trade's fills, quoting, spread against target and at start, and times",
    )
    .option('--from <iso>', 'window start, inclusive (default: 7 days before --to)')
    .option('--to <iso>', 'window end, exclusive (default: now)')
    .option('--group-by <venue|market|side>', 'default venue')
    .action(
      run((client, settings, flags: QualityFlags) => showQuality(client, settings, io, flags)),
    );
}

/** `results`: what the caller's trades made over a window, grouped (issue 58). */
function addResultsCommand(program: Command, run: Run, io: CliIo): void {
  program
    .command('results')
    .description(
      'your results over a window per day, week, market or venue: trades, fills, volume, realised spread, fees, funding, net (USD)',
    )
    .option('--from <iso>', 'window start, inclusive (default: 30 days before --to)')
    .option('--to <iso>', 'window end, exclusive (default: now; at most 366 days after --from)')
    .option('--group-by <day|week|market|venue>', 'default day')
    .action(
      run((client, settings, flags: ResultsFlags) => showResults(client, settings, io, flags)),
    );
}

/** `webhooks add|list|show|delete|test|deliveries`: endpoints that receive your events (issue 58). */
function addWebhookCommands(program: Command, run: Run, io: CliIo): void {
  const webhooks = program
    .command('webhooks')
    .description(
      'endpoints that receive your events (Standard Webhooks, or Discord, Slack, Telegram messages)',
    );
  webhooks
    .command('add')
    .description('register an endpoint; prints its signing secret, shown this once')
    .requiredOption('--url <url>', 'where deliveries are POSTed (https:)')
    .requiredOption(
      '--events <list>',
      'comma-separated: trade.status_changed, trade.fill, trade.failed, system.kill_switch, system.maintenance',
    )
    .option('--format <standard|discord|slack|telegram>', 'the body sent (default standard)')
    .option('--description <text>', 'a note of yours, shown back on every read')
    .action(
      run((client, settings, flags: AddWebhookFlags) => addWebhook(client, settings, io, flags)),
    );
  webhooks
    .command('list')
    .description('your endpoints, oldest first, with their status (active, failing, disabled)')
    .action(run((client, settings) => listWebhooks(client, settings, io)));
  webhooks
    .command('show <webhook-id>')
    .description('one endpoint: since when it fails, or why it was disabled (never its secret)')
    .action(run((client, settings, id: string) => showWebhook(client, settings, io, id)));
  webhooks
    .command('delete <webhook-id>')
    .description('delete an endpoint; its pending deliveries are canceled')
    .action(run((client, settings, id: string) => deleteWebhook(client, settings, io, id)));
  webhooks
    .command('test <webhook-id>')
    .description('owe the endpoint a webhook.test delivery, sent and retried like any other')
    .action(run((client, settings, id: string) => testWebhook(client, settings, io, id)));
  webhooks
    .command('deliveries <webhook-id>')
    .description(
      "the endpoint's deliveries, newest first: status, attempts, last answer, next retry",
    )
    .option('--limit <n>', 'how many (1-200, default 50)')
    .option('--before <delivery-id>', 'only deliveries older than this one (the next page)')
    .action(
      run((client, settings, id: string, flags: DeliveriesFlags) =>
        listDeliveries(client, settings, io, id, flags),
      ),
    );
}

/**
 * A failure as the trader reads it: the API's refusal with its code and the
 * request id to quote; no answer with the URL and the cause; a stop before
 * any request with its reason. `--json` prints the same as one document.
 */
function reportFailure(io: CliIo, settings: Settings, error: unknown): void {
  if (error instanceof StsApiError) {
    const requestId = error.requestId ? { request_id: error.requestId } : {};
    if (settings.json) {
      printJson(io, { status: error.status, ...error.body, ...requestId });
    } else {
      const quoted = error.requestId ? ` (request id ${error.requestId})` : '';
      io.stderr(`error: ${error.status} ${error.code}: ${error.body.error}${quoted}\n`);
    }
    return;
  }
  if (error instanceof StsNetworkError) {
    const cause = error.causeText ?? String(error.cause);
    if (settings.json) {
      printJson(io, {
        error: error.message,
        code: 'network_error',
        url: error.url,
        cause: error.causeCode ?? cause,
      });
    } else {
      io.stderr(`error: cannot reach the API at ${error.url ?? settings.apiUrl}: ${cause}\n`);
    }
    return;
  }
  const code = error instanceof CliStop ? error.code : 'error';
  const message = error instanceof Error ? error.message : String(error);
  if (settings.json) {
    printJson(io, { error: message, code });
  } else {
    io.stderr(`error: ${message}\n`);
  }
}
