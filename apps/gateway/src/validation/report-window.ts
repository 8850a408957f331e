import { AppError } from '@sts/platform';

const DAY_MS = 86_400_000;

/** How wide a report's window is when `from` is not given, and how wide it may be. */
export interface WindowLimits {
  defaultDays: number;
  maxDays: number;
}

/**
 * A report's [from, to) in epoch ms: `to` defaults to now, `from` to
 * `defaultDays` before `to`; a window that is empty, reversed or wider than
 * `maxDays` is refused (400).
 */
export function reportWindow(
  query: { from?: string; to?: string },
  nowMs: number,
  limits: WindowLimits,
): { fromMs: number; toMs: number } {
  const toMs = query.to === undefined ? nowMs : Date.parse(query.to);
  const fromMs =
    query.from === undefined ? toMs - limits.defaultDays * DAY_MS : Date.parse(query.from);
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) {
    throw new AppError('invalid_request', 'from and to must be ISO 8601 date-times');
  }
  if (fromMs >= toMs) {
    throw new AppError(
      'invalid_request',
      `from (${new Date(fromMs).toISOString()}) must be before to (${new Date(toMs).toISOString()})`,
    );
  }
  if (toMs - fromMs > limits.maxDays * DAY_MS) {
    throw new AppError(
      'invalid_request',
      `the window from ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} is wider than ${limits.maxDays} days`,
    );
  }
  return { fromMs, toMs };
}
