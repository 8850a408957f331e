import type Big from 'big.js';
import { divide } from '../decimal/decimal-math';

/**
 * Quote cushion: how far the resting maker price sits from the hedge
 * reference, in bps of H. A move of H by this much against the order eats
 * the whole projected spread, which is why it is the fast-move guard's
 * default threshold.
 */
export const quoteCushionBps = (makerPrice: Big, hedgeReference: Big): Big =>
  divide(makerPrice.minus(hedgeReference).abs().times(10000), hedgeReference);
