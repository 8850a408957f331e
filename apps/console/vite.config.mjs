// The console's build: `node tools/build.mjs` calls Vite with this file and an
// outDir of its own (dist/apps/console, or the fleet's copy). `base` is where
// the gateway serves it; `@sts/sdk` resolves to the SDK's sources (its core is
// browser-safe: the REST client and the notifier stream the console uses).
import react from '@vitejs/plugin-react';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react()],
  resolve: { alias: { '@sts/sdk': resolve(here, '../../libs/sdk/src/index.ts') } },
  build: { outDir: resolve(here, '../../dist/apps/console'), emptyOutDir: true, sourcemap: true },
  logLevel: 'warn',
  server: {
    // `npx nx serve console` against `npm start`: the API and config.json from the gateway.
    proxy: { '/api': 'http://127.0.0.1:3000', '/console/config.json': 'http://127.0.0.1:3000' },
  },
});
