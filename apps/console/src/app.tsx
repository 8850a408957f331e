import { BrowserRouter, Navigate, NavLink, Outlet, Route, Routes } from 'react-router';
import { MaintenanceBanner } from './components/maintenance-banner';
import { LiveProvider, useSocketState } from './live/live';
import { AccountPage } from './pages/account';
import { LinkFirstWalletPage } from './pages/link-first-wallet';
import { MarketsPage } from './pages/markets';
import { NewTradePage } from './pages/new-trade';
import { OidcCallbackPage } from './pages/oidc-callback';
import { PositionsPage } from './pages/positions';
import { QualityPage } from './pages/quality';
import { ResultsPage } from './pages/results';
import { SignInPage } from './pages/sign-in';
import { TradeDetailPage } from './pages/trade-detail';
import { TradesPage } from './pages/trades';
import { WebhooksPage } from './pages/webhooks';
import { useSession } from './session/session';
import { VenuesProvider } from './venues/venues';

/** The notifier socket's state in words that cannot be taken for a venue's mode (LIVE: real money). */
const SOCKET_LABEL = {
  connecting: 'connecting…',
  streaming: 'streaming',
  reconnecting: 'reconnecting…',
  closed: 'offline',
} as const;

/**
 * Pages behind sign-in: the navigation, the banner and the live socket. An
 * account with no wallet yet (its provider named none) sees only the page
 * that links one: every other page is about a wallet's trades.
 */
function SignedInLayout() {
  const { session, signOutEverywhere } = useSession();
  const socket = useSocketState();
  if (!session) {
    return <Navigate to="/sign-in" replace />;
  }
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="top">
        <nav aria-label="Main">
          {session.wallet && (
            <>
              <NavLink to="/trades" end>
                Trades
              </NavLink>
              <NavLink to="/trades/new">New trade</NavLink>
              <NavLink to="/positions">Positions</NavLink>
              <NavLink to="/results">Results</NavLink>
              <NavLink to="/quality">Quality</NavLink>
              <NavLink to="/markets">Markets</NavLink>
              <NavLink to="/webhooks">Webhooks</NavLink>
              <NavLink to="/account">Account</NavLink>
            </>
          )}
        </nav>
        <div className="who">
          <span className={`socket socket-${socket}`} data-testid="socket-state">
            updates: {SOCKET_LABEL[socket]}
          </span>
          {session.wallet ? (
            <code title={session.wallet}>
              {session.wallet.slice(0, 6)}…{session.wallet.slice(-4)}
            </code>
          ) : (
            <span>no wallet linked</span>
          )}
          <button type="button" onClick={() => void signOutEverywhere()}>
            Sign out
          </button>
        </div>
      </header>
      <MaintenanceBanner />
      <div id="content" tabIndex={-1}>
        {session.wallet ? <Outlet /> : <LinkFirstWalletPage />}
      </div>
    </>
  );
}

export function App() {
  return (
    <BrowserRouter basename="/console">
      <LiveProvider>
        <VenuesProvider>
          <Routes>
            <Route path="/sign-in" element={<SignInPage />} />
            <Route path="/callback" element={<OidcCallbackPage />} />
            <Route element={<SignedInLayout />}>
              <Route path="/trades" element={<TradesPage />} />
              <Route path="/trades/new" element={<NewTradePage />} />
              <Route path="/trades/:tradeId" element={<TradeDetailPage />} />
              <Route path="/positions" element={<PositionsPage />} />
              <Route path="/results" element={<ResultsPage />} />
              <Route path="/quality" element={<QualityPage />} />
              <Route path="/markets" element={<MarketsPage />} />
              <Route path="/webhooks" element={<WebhooksPage />} />
              <Route path="/account" element={<AccountPage />} />
            </Route>
            <Route path="*" element={<Navigate to="/trades" replace />} />
          </Routes>
        </VenuesProvider>
      </LiveProvider>
    </BrowserRouter>
  );
}
