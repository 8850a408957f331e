import type { AccountBalance, Balances, StsClient } from '@sts/sdk';
import type { CliIo, Settings } from '../io';
import { printJson, table } from '../output';

/**
 * `balances`: each venue account's margin balance, unrealised PnL, equity,
 * available and used margin as a table, in the account's margin asset; then
 * the totals in USD, and what they leave out (an unreadable account, with
 * its error; a margin asset that is not a USD stablecoin).
 */
export async function showBalances(
  client: StsClient,
  settings: Settings,
  io: CliIo,
): Promise<void> {
  const answer = await client.balances();
  if (settings.json) {
    return printJson(io, answer);
  }
  io.stdout(balancesText(answer));
}

const cell = (value: string | null): string => value ?? '-';

export function balancesText(answer: Balances): string {
  if (answer.accounts.length === 0) {
    return 'no venue accounts: link an exchange credential first\n';
  }
  const rows = [
    [
      'WALLET',
      'VENUE',
      'MODE',
      'ASSET',
      'BALANCE',
      'UNREALISED PNL',
      'EQUITY',
      'AVAILABLE',
      'MARGIN USED',
      'AS OF',
    ],
    ...answer.accounts.map((entry) => [
      entry.wallet,
      entry.exchange,
      entry.mode.toUpperCase(),
      cell(entry.asset),
      cell(entry.balance),
      cell(entry.unrealised_pnl),
      cell(entry.equity),
      cell(entry.available_margin),
      cell(entry.margin_used),
      entry.as_of,
    ]),
  ];
  const { totals } = answer;
  const lines = [
    table(rows),
    `total equity ${totals.equity_usd} USD, available margin ${totals.available_margin_usd} USD (USD stablecoins counted 1:1)`,
    ...answer.accounts.filter((entry) => !entry.in_totals).map(leftOut),
  ];
  return `${lines.join('\n')}\n`;
}

function leftOut(entry: AccountBalance): string {
  return entry.error === null
    ? `not in the totals: ${entry.exchange} ${entry.wallet} ${entry.asset} (not a USD stablecoin)`
    : `not in the totals: ${entry.exchange} ${entry.wallet} unreadable: ${entry.error}`;
}
