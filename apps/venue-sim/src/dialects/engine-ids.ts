/**
 * Venues whose order and fill ids are integers (Aster's LONG, Hyperliquid's
 * oid and tid): the engine's ids are `o-<epoch>-<seq>` and `f-<epoch>-<seq>`,
 * numbered here as epoch × 10⁹ + seq.
 */
const EPOCH_SPAN = 1_000_000_000;

export function numericId(engineId: string): number {
  const [, epoch, seq] = engineId.split('-');
  return Number(epoch) * EPOCH_SPAN + Number(seq);
}

/** The engine order id of a numeric order id, or undefined when it is not one. */
export function engineOrderId(orderId: string | number): string | undefined {
  const text = String(orderId);
  if (!/^\d{1,15}$/.test(text)) {
    return undefined;
  }
  const id = Number(text);
  return `o-${Math.floor(id / EPOCH_SPAN)}-${id % EPOCH_SPAN}`;
}
