import { MODE_LABEL, MODE_MEANING, type VenueMode } from '../venues/venue-modes';

/** PAPER or LIVE as a word in a badge: LIVE loud, PAPER muted, never colour alone. */
export function ModeBadge({ mode }: { mode: VenueMode }) {
  return (
    <span className={`mode mode-${mode}`} title={MODE_MEANING[mode]} data-testid="venue-mode">
      {MODE_LABEL[mode]}
    </span>
  );
}

/** A venue's name with the mode it runs in; no badge while the mode is unknown. */
export function VenueName({ exchange, mode }: { exchange: string; mode: VenueMode | undefined }) {
  return (
    <span className="venue" data-venue={exchange}>
      {exchange}
      {mode && (
        <>
          {' '}
          <ModeBadge mode={mode} />
        </>
      )}
    </span>
  );
}
