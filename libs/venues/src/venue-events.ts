import type { Unsubscribe, VenueEventMap, VenueEventType } from './venue-client';

type Listener<K extends VenueEventType> = (event: VenueEventMap[K]) => void;

/**
 * Typed, synchronous fan-out of a client's events. A listener that throws is
 * reported and skipped: it must never stop the others or the socket loop.
 */
export class VenueEvents {
  private readonly listeners: { [K in VenueEventType]: Set<Listener<K>> } = {
    fill: new Set(),
    order: new Set(),
    book: new Set(),
    connection: new Set(),
    unpaid: new Set(),
  };

  constructor(
    private readonly onListenerError: (error: unknown, type: VenueEventType) => void = () =>
      undefined,
  ) {}

  on<K extends VenueEventType>(type: K, listener: Listener<K>): Unsubscribe {
    const set = this.listeners[type] as Set<Listener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends VenueEventType>(type: K, event: VenueEventMap[K]): void {
    for (const listener of this.listeners[type] as Set<Listener<K>>) {
      try {
        listener(event);
      } catch (error) {
        this.onListenerError(error, type);
      }
    }
  }

  clear(): void {
    for (const set of Object.values(this.listeners)) {
      set.clear();
    }
  }
}
