import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { describeError } from '../api/api-error';
import { useMaintenance } from '../live/live';
import { useSession } from '../session/session';
import { venueBookOf, type VenueBook } from './venue-modes';

interface VenuesValue {
  /** Null until the first read answers. */
  book: VenueBook | null;
  /** Why the last read failed; the last book read stays. */
  error: string | null;
}

const VenuesContext = createContext<VenuesValue>({ book: null, error: null });

/**
 * The deployment's venues (GET /exchanges, public). A venue's mode is fixed
 * by the deployment, so one read would do for it; whether trading is halted
 * follows the operators' switches, so the list is read again whenever the
 * notifier pushes a change of the maintenance flags (the gateway answers
 * with the switches as they are, right after a flip).
 */
export function VenuesProvider({ children }: { children: ReactNode }) {
  const { api } = useSession();
  const switchesOn = useMaintenance()
    .map((flag) => flag.exchange)
    .sort()
    .join(',');
  const [value, setValue] = useState<VenuesValue>({ book: null, error: null });

  useEffect(() => {
    let current = true;
    api.exchanges().then(
      (list) => current && setValue({ book: venueBookOf(list), error: null }),
      (failure: unknown) =>
        current && setValue((last) => ({ book: last.book, error: describeError(failure) })),
    );
    return () => {
      current = false;
    };
  }, [api, switchesOn]);

  return <VenuesContext.Provider value={value}>{children}</VenuesContext.Provider>;
}

export function useVenues(): VenuesValue {
  return useContext(VenuesContext);
}
