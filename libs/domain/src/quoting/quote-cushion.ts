import Big from 'big.js';
import { divideRounded } from '../decimal/decimal-math';

/** Places of every bps figure the fast-move guard works with and reports. */
export const GUARD_BPS_PLACES = 4;

/**
 * Quote cushion: how far the resting maker price sits from the hedge
 * reference, in bps of H, to 4 places (half up). A move of H by this much
 * against the order eats the whole projected spread, which is why it is the
 * fast-move guard's default threshold.
 */
export const quoteCushionBps = (makerPrice: Big, hedgeReference: Big): Big =>
  divideRounded(
    makerPrice.minus(hedgeReference).abs().times(10000),
    hedgeReference,
    GUARD_BPS_PLACES,
    Big.roundHalfUp,
  );
