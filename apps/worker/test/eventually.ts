import { sleep } from '@sts/platform';

/** What the running spec's harness can add to a timeout (its workers' warnings), if any. */
let explainTimeout: (() => string[]) | undefined;

/** Registers (or, with undefined, removes) what every timeout of this spec file appends. */
export function explainTimeoutsWith(explain: (() => string[]) | undefined): void {
  explainTimeout = explain;
}

/**
 * Polls `probe` until it returns something other than undefined/false, or
 * fails after `timeoutMs` naming what was awaited and the last value seen.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  options: { timeoutMs?: number; intervalMs?: number; last?: () => unknown } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) {
        return value;
      }
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const seen = options.last ? ` (last seen: ${JSON.stringify(options.last())})` : '';
      const failure = lastError ? ` (last error: ${String(lastError)})` : '';
      const lines = explainTimeout?.() ?? [];
      const explained =
        lines.length > 0 ? `\nworkers' last warnings:\n  ${lines.join('\n  ')}` : '';
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${seen}${failure}${explained}`,
      );
    }
    await sleep(options.intervalMs ?? 50);
  }
}
