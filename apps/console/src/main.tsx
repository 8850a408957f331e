import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { loadConfig } from './config';
import { SessionProvider } from './session/session';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);

loadConfig().then(
  (config) =>
    root.render(
      <StrictMode>
        <SessionProvider config={config}>
          <App />
        </SessionProvider>
      </StrictMode>,
    ),
  (error: unknown) =>
    root.render(
      <main>
        <h1>Spread trading console</h1>
        <p role="alert">{error instanceof Error ? error.message : String(error)}</p>
      </main>,
    ),
);
