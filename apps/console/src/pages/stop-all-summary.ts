import type { CancelAllAnswer } from '@sts/sdk';

/**
 * The confirmation before POST /trades/cancel-all. "Running", not "live":
 * in the console "live" names a venue that trades real money.
 */
export const STOP_ALL_CONFIRMATION = {
  title: 'Stop all your trades?',
  sentences: [
    'This cancels every running trade of yours, on paper and live venues alike: ' +
      'their resting orders are canceled and no new order is placed.',
    'Positions already filled stay open on the venues: close them there if you need to.',
  ],
  confirm: 'Yes, stop all my trades',
  dismiss: 'Keep them running',
} as const;

export interface StopAllSummary {
  /** Canceled at once (DELETE's 200: nothing was resting). */
  canceled: number;
  /** Cancel sent (DELETE's 202): the worker is canceling the trade's open orders. */
  cancelSent: number;
  text: string;
}

const trades = (count: number) => `${count} trade${count === 1 ? '' : 's'}`;

export function stopAllSummary(answer: CancelAllAnswer): StopAllSummary {
  const canceled = answer.trades.filter((trade) => trade.status === 'canceled').length;
  const cancelSent = answer.trades.filter((trade) => trade.status === 'cancel_sent').length;
  if (answer.trades.length === 0) {
    return { canceled, cancelSent, text: 'You had no running trades: nothing to stop.' };
  }
  const sentNote = cancelSent > 0 ? ' (their open orders are being canceled)' : '';
  return {
    canceled,
    cancelSent,
    text:
      `Stopped ${trades(answer.trades.length)}: ${canceled} canceled, ` +
      `${cancelSent} cancel sent${sentNote}. Filled positions stay open.`,
  };
}
