import type { AccountBalance, Balances } from '@sts/sdk';
import { balancesText } from '../src/commands/balances';

const WALLET = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
const AT = '2026-01-05T09:30:00.000Z';

const read = (exchange: string, asset: string, fields: Partial<AccountBalance> = {}) =>
  ({
    exchange,
    wallet: WALLET,
    mode: 'live',
    asset,
    balance: '1000',
    unrealised_pnl: '-2.5',
    equity: '997.5',
    available_margin: '900',
    margin_used: null,
    in_totals: true,
    as_of: AT,
    error: null,
    ...fields,
  }) as AccountBalance;

describe('balancesText', () => {
  it('lists each account, the totals, and what the totals leave out and why', () => {
    const answer: Balances = {
      accounts: [
        read('aster', 'BTC', { in_totals: false }),
        read('hyperliquid', 'USDC'),
        {
          ...read('paradex', 'USDC'),
          asset: null,
          balance: null,
          unrealised_pnl: null,
          equity: null,
          available_margin: null,
          in_totals: false,
          error: 'paradex balances unavailable: down',
        },
      ],
      totals: { equity_usd: '997.5', available_margin_usd: '900', complete: false },
    };
    expect(balancesText(answer).split('\n')).toEqual([
      'WALLET                                      VENUE        MODE  ASSET  BALANCE  UNREALISED PNL  EQUITY  AVAILABLE  MARGIN USED  AS OF',
      `${WALLET}  aster        LIVE  BTC       1000            -2.5   997.5        900            -  ${AT}`,
      `${WALLET}  hyperliquid  LIVE  USDC      1000            -2.5   997.5        900            -  ${AT}`,
      `${WALLET}  paradex      LIVE  -            -               -       -          -            -  ${AT}`,
      'total equity 997.5 USD, available margin 900 USD (USD stablecoins counted 1:1)',
      `not in the totals: aster ${WALLET} BTC (not a USD stablecoin)`,
      `not in the totals: paradex ${WALLET} unreadable: paradex balances unavailable: down`,
      '',
    ]);
  });

  it('says when there is no account to read', () => {
    expect(
      balancesText({
        accounts: [],
        totals: { equity_usd: '0', available_margin_usd: '0', complete: true },
      }),
    ).toBe('no venue accounts: link an exchange credential first\n');
  });
});
