import type { StsClient } from '@sts/sdk';
import type { CliIo, Settings } from '../io';
import { printJson } from '../output';

export async function listMarkets(
  client: StsClient,
  settings: Settings,
  io: CliIo,
  exchanges: string,
  minExchanges?: string,
) {
  const markets = await client.markets(
    exchanges.split(','),
    minExchanges === undefined ? undefined : Number(minExchanges),
  );
  if (settings.json) {
    return printJson(io, markets);
  }
  for (const market of markets) {
    const venues = Object.entries(market.exchanges)
      .map(
        ([venue, entry]) =>
          `${venue}:${entry?.symbol} tick ${entry?.tick_size} lot ${entry?.lot_size}`,
      )
      .join('  ');
    io.stdout(`${market.canonical.padEnd(10)} ${venues}\n`);
  }
}

export async function listWallets(client: StsClient, settings: Settings, io: CliIo) {
  const wallets = await client.wallets();
  if (settings.json) {
    return printJson(io, wallets);
  }
  for (const wallet of wallets) {
    io.stdout(
      `${wallet.address}  linked ${wallet.linked_at}${wallet.verified ? '  verified' : ''}\n`,
    );
  }
}

export async function listCredentials(client: StsClient, settings: Settings, io: CliIo) {
  const credentials = await client.credentials();
  if (settings.json) {
    return printJson(io, credentials);
  }
  for (const credential of credentials) {
    io.stdout(
      `${credential.exchange.padEnd(12)} ${credential.wallet_addr}  ${credential.key_preview}  last used ${credential.last_used ?? 'never'}\n`,
    );
  }
}

export async function listMaintenance(client: StsClient, settings: Settings, io: CliIo) {
  const entries = await client.maintenance();
  if (settings.json) {
    return printJson(io, entries);
  }
  for (const entry of entries) {
    const state = entry.enabled ? `ON  ${entry.reason}` : 'off';
    io.stdout(`${entry.exchange.padEnd(12)} ${state}\n`);
  }
}

/** `exchanges`: each venue, PAPER or LIVE, its maker cap, and whether trading is halted there. */
export async function listExchanges(client: StsClient, settings: Settings, io: CliIo) {
  const venues = await client.exchanges();
  if (settings.json) {
    return printJson(io, venues);
  }
  for (const venue of venues) {
    const state = venue.trading_halted
      ? venue.maintenance
        ? 'halted (maintenance)'
        : 'halted'
      : 'open';
    io.stdout(
      `${venue.exchange.padEnd(12)} ${venue.mode.toUpperCase().padEnd(6)} maker cap ${venue.maker_cap}  ${state}\n`,
    );
  }
}
