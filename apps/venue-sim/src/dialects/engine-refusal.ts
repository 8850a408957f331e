import type { HttpFailure } from '../api/http-kit';
import { SIM_ERROR_CODES, SimError, type SimErrorCode } from '../engine/types';

/**
 * The engine's refusal behind an HttpFailure of the shared order path
 * (OrderEntry hands engine refusals on with the engine's code), or undefined
 * when the failure is the path's own (rate limit, expiry, freeze, reject-next).
 */
export function engineRefusalOf(failure: HttpFailure): SimError | undefined {
  if (!(SIM_ERROR_CODES as readonly string[]).includes(failure.code)) {
    return undefined;
  }
  const reason = failure.extra['reason'];
  return new SimError(
    failure.code as SimErrorCode,
    failure.message,
    typeof reason === 'string' ? reason : undefined,
  );
}
