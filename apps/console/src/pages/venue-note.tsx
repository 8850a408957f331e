import { ModeBadge } from '../components/venue-name';
import type { VenueFacts } from '../venues/venue-modes';

/**
 * Under a venue choice of the new-trade form: its mode as a badge, and
 * whether trading on it is halted now. A halt does not block the form: the
 * API refuses the create (503) with the operator's reason, which the form shows.
 */
export function VenueNote({
  venue,
  reading,
}: {
  venue: VenueFacts | undefined;
  /** The first read of the venues has not answered yet. */
  reading: boolean;
}) {
  if (!venue) {
    return reading ? (
      <>reading the venue&apos;s mode…</>
    ) : (
      <>mode unknown (the venues could not be read): a create asks as for a live venue</>
    );
  }
  return (
    <>
      <ModeBadge mode={venue.mode} />{' '}
      {venue.mode === 'live' ? 'real orders, real money' : 'simulated, no real money'}
      {venue.trading_halted && (
        <>
          {'; '}
          <strong className="halted" data-testid="venue-halted">
            trading halted now: a create is refused
          </strong>
        </>
      )}
    </>
  );
}
