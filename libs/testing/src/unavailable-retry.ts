import { setTimeout as sleep } from 'node:timers/promises';

/** Longest wait a spec's client keeps between two tries, whatever Retry-After says. */
const LONGEST_WAIT_MS = 1_000;
/** The wait when a 503 names none. */
const DEFAULT_WAIT_MS = 250;

/**
 * Sends a request that is safe to repeat (a create with its idempotency key)
 * as a client is told to: a 503 is tried again after its Retry-After (at most
 * 1 s here), up to `attempts` tries in all; any other answer, or the last
 * 503, is returned. Setup only: on a loaded machine the budget service may not
 * answer a reserve in time, and a create says so with a 503 rather than
 * guessing.
 */
export async function retryingUnavailable<T extends { status: number | string }>(
  send: () => Promise<T>,
  retryAfterOf: (answer: T) => string | null,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await send();
    if (answer.status !== 503 || attempt >= attempts) {
      return answer;
    }
    const seconds = Number(retryAfterOf(answer));
    await sleep(
      Number.isFinite(seconds) && seconds > 0
        ? Math.min(seconds * 1_000, LONGEST_WAIT_MS)
        : DEFAULT_WAIT_MS,
    );
  }
}
