import {
  StsEventStream,
  TERMINAL_STATUSES,
  type StsClient,
  type Trade,
  type TradeStatus,
} from '@sts/sdk';
import { EXIT, type CliIo, type Settings } from '../io';
import { eventLine, printJson, progressBar } from '../output';

export interface WatchOptions {
  /** Print execution-log entries (trades watch, events --follow). */
  events: boolean;
  /** Print status changes and progress (trades watch). */
  progress: boolean;
  /** Longest wait between two reads when the socket says nothing. */
  intervalMs: number;
}

/** How a trade's end becomes the process' exit code (README: 0 completed, 3 canceled, 4 failed, 5 rejected). */
export function exitCodeOf(status: TradeStatus): number {
  switch (status) {
    case 'completed':
      return EXIT.ok;
    case 'canceled':
      return EXIT.canceled;
    case 'failed':
      return EXIT.failed;
    case 'rejected':
      return EXIT.rejected;
    case 'pending':
    case 'validating':
    case 'active':
    case 'paused':
    case 'recovering':
      return EXIT.error;
  }
}

/**
 * Follows a trade until it ends: the notifier's events wake it at once (the
 * socket is a hint, never the record), the API is read on each wake-up and at
 * least every `intervalMs`, so nothing is missed while the socket reconnects.
 */
export async function watchTrade(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  tradeId: string,
  options: WatchOptions,
): Promise<number> {
  const wakeups = new Wakeups(settings, tradeId);
  const printer = new WatchPrinter(io);
  let status: TradeStatus | undefined;
  let filled: string | undefined;
  let lastSequence = 0;
  try {
    for (;;) {
      const trade = await client.getTrade(tradeId);
      if (options.progress) {
        report(printer, settings, trade, status, filled);
      }
      status = trade.status;
      filled = trade.filled_size;
      if (options.events) {
        lastSequence = await printEvents(client, settings, printer, tradeId, lastSequence);
      }
      if (TERMINAL_STATUSES.has(trade.status)) {
        return reportEnd(io, printer, settings, trade);
      }
      await wakeups.wait(options.intervalMs);
    }
  } finally {
    await wakeups.close();
  }
}

/** The last line of a watch, and the exit code of the trade's end. */
function reportEnd(io: CliIo, printer: WatchPrinter, settings: Settings, trade: Trade): number {
  const exitCode = exitCodeOf(trade.status);
  if (settings.json) {
    printJson(io, {
      type: 'end',
      trade_id: trade.trade_id,
      status: trade.status,
      exit_code: exitCode,
    });
  } else {
    const reason = trade.failure_reason ? `: ${trade.failure_reason}` : '';
    printer.end(`trade ${trade.trade_id} ${trade.status}${reason}`);
  }
  return exitCode;
}

/**
 * The notifier's events of one trade as wake-ups (none without an API key:
 * the interval alone). A socket that ends for good leaves the interval.
 */
class Wakeups {
  private wake: () => void = () => undefined;
  private readonly stream?: StsEventStream;
  private readonly listening: Promise<void>;

  constructor(settings: Settings, tradeId: string) {
    this.stream = settings.apiKey
      ? new StsEventStream({ url: settings.wsUrl, apiKey: settings.apiKey })
      : undefined;
    this.listening = this.listen(tradeId);
  }

  /** Resolves after `ms`, or at once when an event of the trade arrives. */
  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async close(): Promise<void> {
    this.stream?.close();
    await this.listening;
  }

  private async listen(tradeId: string): Promise<void> {
    if (!this.stream) {
      return;
    }
    this.stream.subscribe(tradeId);
    try {
      for await (const event of this.stream) {
        if ('trade_id' in event) {
          this.wake();
        }
      }
    } catch {
      // the socket ended for good: reading the API on the interval goes on
    }
  }
}

/** Human output: on a terminal the progress bar stays on the last line, redrawn in place. */
class WatchPrinter {
  private bar = '';
  constructor(readonly io: CliIo) {}

  line(text: string): void {
    if (this.bar) {
      this.io.stdout(CLEAR_LINE);
    }
    this.io.stdout(`${text}\n`);
    if (this.bar) {
      this.io.stdout(this.bar);
    }
  }

  progress(bar: string): void {
    if (!this.io.tty) {
      return this.io.stdout(`${bar}\n`);
    }
    this.bar = bar;
    this.io.stdout(`${CLEAR_LINE}${bar}`);
  }

  end(text: string): void {
    if (this.bar) {
      this.io.stdout('\n');
    }
    this.bar = '';
    this.io.stdout(`${text}\n`);
  }
}

const CLEAR_LINE = '\r\x1b[2K';

function report(
  printer: WatchPrinter,
  settings: Settings,
  trade: Trade,
  status: TradeStatus | undefined,
  filled: string | undefined,
): void {
  if (trade.status === status && trade.filled_size === filled) {
    return;
  }
  if (settings.json) {
    printJson(printer.io, {
      type: 'status',
      trade_id: trade.trade_id,
      status: trade.status,
      filled_size: trade.filled_size,
      target_size: trade.target_size,
    });
    return;
  }
  if (trade.status !== status) {
    printer.line(`status ${status ? `${status} -> ` : ''}${trade.status}`);
  }
  printer.progress(progressBar(trade));
}

async function printEvents(
  client: StsClient,
  settings: Settings,
  printer: WatchPrinter,
  tradeId: string,
  afterSequence: number,
): Promise<number> {
  const { events } = await client.tradeEvents(tradeId, { afterSequence });
  for (const event of events) {
    if (settings.json) {
      printJson(printer.io, { type: 'event', ...event });
    } else {
      printer.line(eventLine(event));
    }
  }
  return events.at(-1)?.sequence ?? afterSequence;
}
