import type { DialectProfile } from '../dialect-profiles';
import type { ASTER_READINGS } from './aster-readings';
import { NONCE_WINDOW_US, type AsterSignedRequest } from './aster-signing';

/**
 * Until when Aster may still take a signed order request, in the paper
 * vocabulary (`expires_at_ms`, enforced by the shared order path, so a
 * request held past it by latency, delay-next, freeze or a lose-next hang is
 * refused -1021 and changes nothing): its nonce plus the documented 10 s
 * window (v3 "Nonce Mechanism": a request whose nonce lags the server by
 * more than 10 s is invalid), or its `recvWindow` where it ends sooner and
 * the `recv_window` reading honours it.
 */
export function asterRequestExpiry(
  signed: AsterSignedRequest,
  profile: DialectProfile<typeof ASTER_READINGS>,
): { expires_at_ms: number } {
  const byNonce = Math.floor(signed.nonceUs / 1000) + NONCE_WINDOW_US / 1000;
  const byWindow =
    profile.get('recv_window') === 'honoured' && signed.expiresAtMs !== undefined
      ? signed.expiresAtMs
      : Number.POSITIVE_INFINITY;
  return { expires_at_ms: Math.min(byNonce, byWindow) };
}
