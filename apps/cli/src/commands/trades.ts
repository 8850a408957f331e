import { readFileSync } from 'node:fs';
import type {
  AmendTradeRequest,
  CreateTradeAccepted,
  CreateTradeReplayed,
  CreateTradeRequest,
  StsClient,
  TradeStatus,
} from '@sts/sdk';
import type { CliIo, Settings } from '../io';
import { confirmLiveCreate } from './live-confirmation';
import { printJson, tradeDetails, tradeLine } from '../output';

export interface CreateFlags {
  file?: string;
  market?: string;
  long?: string;
  short?: string;
  wallet?: string;
  longWallet?: string;
  shortWallet?: string;
  spread?: string;
  condition?: string;
  size?: string;
  makerLeg?: string;
  slippage?: string;
  sizeType?: string;
  spreadType?: string;
  idempotencyKey?: string;
  /** Follow the trade after the create, as `trades watch` does. */
  watch?: boolean;
  /** With `watch`: longest wait between reads (ms). */
  interval?: string;
  /** A create on live venues without asking (a script says it beforehand). */
  yes?: boolean;
}

const defined = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

/** Terms from a JSON file, then flags over them; the API judges them (the CLI adds no rules). */
export function termsOf(flags: CreateFlags): CreateTradeRequest {
  const fromFile = flags.file
    ? (JSON.parse(readFileSync(flags.file, 'utf8')) as Record<string, unknown>)
    : {};
  return {
    execution_type: 'maker_taker',
    spread_condition: 'gte',
    maker_leg: 'long',
    max_slippage: '0.001',
    ...fromFile,
    ...defined({
      market: flags.market,
      long_exchange: flags.long,
      short_exchange: flags.short,
      long_wallet: flags.longWallet ?? flags.wallet,
      short_wallet: flags.shortWallet ?? flags.wallet,
      target_spread: flags.spread,
      spread_condition: flags.condition,
      target_size: flags.size,
      maker_leg: flags.makerLeg,
      max_slippage: flags.slippage,
      size_type: flags.sizeType,
      spread_type: flags.spreadType,
    }),
  } as CreateTradeRequest;
}

export async function createTrade(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  flags: CreateFlags,
): Promise<CreateTradeAccepted | CreateTradeReplayed> {
  const terms = termsOf(flags);
  if (!flags.yes) {
    await confirmLiveCreate(client, io, terms);
  }
  const { status, body } = await client.createTrade(terms, {
    idempotencyKey: flags.idempotencyKey,
  });
  if (settings.json) {
    printJson(io, body);
    return body;
  }
  const how = status === 200 ? 'already created with this idempotency key' : 'accepted';
  io.stdout(`trade ${body.trade_id} ${body.status} (${how}), rate budget ${body.rate_budget}/s\n`);
  return body;
}

/** `trades list [--status s1,s2] [--limit n] [--before id]`: flags as GET /trades takes them. */
export interface ListFlags {
  status?: string;
  limit?: string;
  before?: string;
}

export async function listTrades(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  flags: ListFlags = {},
) {
  const trades = await client.listTrades({
    ...(flags.status ? { status: flags.status.split(',') as TradeStatus[] } : {}),
    ...(flags.limit ? { limit: Number(flags.limit) } : {}),
    ...(flags.before ? { before: flags.before } : {}),
  });
  if (settings.json) {
    return printJson(io, trades);
  }
  io.stdout(trades.length ? `${trades.map(tradeLine).join('\n')}\n` : 'no trades\n');
}

export async function showTrade(client: StsClient, settings: Settings, io: CliIo, id: string) {
  const trade = await client.getTrade(id);
  if (settings.json) {
    return printJson(io, trade);
  }
  io.stdout(`${tradeDetails(trade)}\n`);
}

export async function amendTrade(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  id: string,
  flags: {
    size?: string;
    spread?: string;
    slippage?: string;
    sizeType?: string;
    spreadType?: string;
  },
) {
  const changes = defined({
    target_size: flags.size,
    target_spread: flags.spread,
    max_slippage: flags.slippage,
    size_type: flags.sizeType,
    spread_type: flags.spreadType,
  }) as AmendTradeRequest;
  const { body } = await client.amendTrade(id, changes);
  if (settings.json) {
    return printJson(io, body);
  }
  const warning = 'warning' in body ? `: ${body.warning}` : '';
  io.stdout(`trade ${body.trade_id} ${body.status}${warning}\n`);
}

export async function cancelTrade(client: StsClient, settings: Settings, io: CliIo, id: string) {
  const { body } = await client.cancelTrade(id);
  if (settings.json) {
    return printJson(io, body);
  }
  io.stdout(
    body.status === 'canceled'
      ? `trade ${body.trade_id} canceled\n`
      : `trade ${body.trade_id} cancel sent (filled positions stay open)\n`,
  );
}

/** `trades cancel-all`: every live trade of the caller, a line each (filled positions stay open). */
export async function cancelAllTrades(client: StsClient, settings: Settings, io: CliIo) {
  const body = await client.cancelAllTrades();
  if (settings.json) {
    return printJson(io, body);
  }
  if (body.trades.length === 0) {
    io.stdout('no live trades\n');
    return;
  }
  for (const trade of body.trades) {
    io.stdout(
      trade.status === 'canceled'
        ? `trade ${trade.trade_id} canceled\n`
        : `trade ${trade.trade_id} cancel sent\n`,
    );
  }
  io.stdout(`${body.trades.length} trades; filled positions stay open\n`);
}
