import {
  StsEventStream,
  type MaintenanceEntry,
  type StreamState,
  type StsEvent,
  type TradeLifecycleEvent,
} from '@sts/sdk';
import {
  createContext,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useSession } from '../session/session';

/** A maintenance flag as the banner shows it (REST entries and socket frames alike). */
export interface MaintenanceFlag {
  exchange: string;
  enabled: boolean;
  reason: string;
  updated_at: string;
}

interface LiveContextValue {
  socket: StsEventStream | null;
  maintenance: ReadonlyMap<string, MaintenanceFlag>;
}

const LiveContext = createContext<LiveContextValue>({ socket: null, maintenance: new Map() });

/**
 * Holds the notifier socket for the signed-in session and the maintenance
 * flags: read once from GET /maintenance, then kept by the socket's frames.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const { config, session, api, signOut } = useSession();
  const [socket, setSocket] = useState<StsEventStream | null>(null);
  const [maintenance, setMaintenance] = useState<ReadonlyMap<string, MaintenanceFlag>>(new Map());
  const token = session?.token;
  const tokenRef = useRef(token);
  const userId = session?.userId;

  // The socket of a session opens with its token of the moment; renewals follow below.
  useEffect(() => {
    tokenRef.current = token;
  }, [token]);

  useEffect(() => {
    if (!userId || !tokenRef.current) {
      return;
    }
    // The SDK's stream: first-message auth with the JWT, every trade of the caller's,
    // reconnects with backoff, renewals in place, each event once.
    const opened = new StsEventStream({
      url: config.notifier_ws_url,
      token: tokenRef.current,
      reconnectBaseMs: 500,
    });
    opened.subscribe();
    const stopWatchingState = opened.onState((state) => {
      const refusal = opened.closedBy;
      if (state === 'closed' && refusal && refusal.closeCode !== 1000) {
        const reason = refusal.closeReason || `closed with ${refusal.closeCode}`;
        signOut(`The live connection was refused (${reason}): sign in again.`);
      }
    });
    const stop = opened.onEvent((event) => {
      if (event.event === 'maintenance') {
        // The switches in force come right after sign-in, changes as they happen: the latest wins.
        setMaintenance((flags) => {
          const known = flags.get(event.exchange);
          return known && Date.parse(known.updated_at) > Date.parse(event.updated_at)
            ? flags
            : new Map(flags).set(event.exchange, event);
        });
      }
    });
    setSocket(opened);
    return () => {
      stop();
      stopWatchingState();
      opened.close();
      setSocket(null);
    };
  }, [config.notifier_ws_url, userId, signOut]);

  // A renewed JWT goes to the open socket before the old one expires.
  useEffect(() => {
    if (socket && token) {
      socket.renew(token);
    }
  }, [socket, token]);

  useEffect(() => {
    if (!userId) {
      return;
    }
    let live = true;
    api.maintenance().then(
      (entries: MaintenanceEntry[]) => {
        if (live) {
          setMaintenance((flags) => {
            const next = new Map(flags);
            for (const entry of entries) {
              // A frame that arrived while the list was read is newer.
              if (!flags.has(entry.exchange)) {
                next.set(entry.exchange, entry);
              }
            }
            return next;
          });
        }
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, userId]);

  return <LiveContext.Provider value={{ socket, maintenance }}>{children}</LiveContext.Provider>;
}

export function useMaintenance(): MaintenanceFlag[] {
  return [...useContext(LiveContext).maintenance.values()].filter((flag) => flag.enabled);
}

/** Calls `listener` with each lifecycle event of the caller's trades (or of one trade). */
export function useTradeEvents(listener: (event: TradeLifecycleEvent) => void, tradeId?: string) {
  const { socket } = useContext(LiveContext);
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!socket) {
      return;
    }
    return socket.onEvent((event: StsEvent) => {
      if (event.event !== 'maintenance' && (!tradeId || event.trade_id === tradeId)) {
        latest.current(event);
      }
    });
  }, [socket, tradeId]);
}

/**
 * Calls `onSubscribed` each time the socket's subscriptions are confirmed on
 * a connection: the first one and every reconnect. The notifier does not
 * replay lifecycle events, so what a page read before then (or while the
 * socket was down, or before this page's socket opened) may have changed
 * unseen: it reads again here.
 */
export function useLiveSubscribed(onSubscribed: () => void) {
  const { socket } = useContext(LiveContext);
  const latest = useRef(onSubscribed);
  useEffect(() => {
    latest.current = onSubscribed;
  });
  useEffect(() => {
    if (!socket) {
      return;
    }
    return socket.onSubscribed(() => latest.current());
  }, [socket]);
}

export function useSocketState(): StreamState {
  const { socket } = useContext(LiveContext);
  return useSyncExternalStore(
    (notify) => socket?.onState(notify) ?? (() => undefined),
    () => socket?.state ?? 'closed',
  );
}
