/**
 * The assets counted one for one as US dollars: the stablecoins the venues
 * margin and settle in. Nothing converts the others; what holds them (a
 * balance, a fee) is shown in its own asset and left out of USD sums.
 */
export const USD_STABLECOINS: ReadonlySet<string> = new Set(['USD', 'USDC', 'USDT', 'USD1']);
