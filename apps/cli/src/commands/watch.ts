import type { StsClient, Trade, TradeEvent, TradeStatus } from '@sts/sdk';
import { EXIT, type CliIo, type Settings } from '../io';
import { eventLine, printJson, progressBar, residualNote } from '../output';

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
 * Follows a trade until it ends, as the SDK's watchTrade does (the notifier's
 * events wake it, the API is read on each wake-up and at least every
 * `intervalMs`), printing each change; the trade's end is the exit code.
 */
export async function watchTrade(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  tradeId: string,
  options: WatchOptions,
): Promise<number> {
  const printer = new WatchPrinter(io);
  let status: TradeStatus | undefined;
  const updates = client.watchTrade(tradeId, {
    events: options.events,
    intervalMs: options.intervalMs,
  });
  for await (const update of updates) {
    switch (update.type) {
      case 'trade':
        if (options.progress) {
          report(printer, settings, update.trade, status);
        }
        status = update.trade.status;
        break;
      case 'event':
        printEvent(printer, settings, update.event);
        break;
      case 'end':
        return reportEnd(io, printer, settings, update.trade);
    }
  }
  throw new Error(`the watch of trade ${tradeId} ended before the trade did`);
}

/** The last line of a watch, and the exit code of the trade's end. */
function reportEnd(io: CliIo, printer: WatchPrinter, settings: Settings, trade: Trade): number {
  const exitCode = exitCodeOf(trade.status);
  if (settings.json) {
    printJson(io, {
      type: 'end',
      trade_id: trade.trade_id,
      status: trade.status,
      residual_unhedged: trade.residual_unhedged,
      residual_unwound: trade.residual_unwound,
      exit_code: exitCode,
    });
  } else {
    const reason = trade.failure_reason ? `: ${trade.failure_reason}` : '';
    const residual = residualNote(trade);
    printer.end(
      `trade ${trade.trade_id} ${trade.status}${reason}${residual ? `; ${residual}` : ''}`,
    );
  }
  return exitCode;
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

/** A change of status or filled size (the SDK hands over only those). */
function report(
  printer: WatchPrinter,
  settings: Settings,
  trade: Trade,
  status: TradeStatus | undefined,
): void {
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

function printEvent(printer: WatchPrinter, settings: Settings, event: TradeEvent): void {
  if (settings.json) {
    printJson(printer.io, { type: 'event', ...event });
  } else {
    printer.line(eventLine(event));
  }
}
