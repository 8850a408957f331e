// One jest run for the whole monorepo, two projects split by a spec's name:
// - `unit` (`npm run test:unit`): every other `*.spec.ts`, in-process code
//   that reaches no service, in under a minute;
// - `service`: `*.int.spec.ts` (uses Postgres, Redis or NATS, starts a child
//   process, or runs a venue client's conformance suite against the
//   simulator) and `*.e2e.spec.ts` (whole apps), on the machine's real
//   services, each spec isolated in its own database and NATS/Redis namespace
//   (see libs/testing).
const { readFileSync } = require('node:fs');

const swcrc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swcrc.$schema;
const paths = JSON.parse(readFileSync(`${__dirname}/tsconfig.base.json`, 'utf8')).compilerOptions
  .paths;

const moduleNameMapper = Object.fromEntries(
  Object.entries(paths).map(([alias, [target]]) => [
    `^${alias}$`,
    `<rootDir>/${target.replace(/\/index\.ts$/, '')}`,
  ]),
);

const SPEC_DIRS = '<rootDir>/{apps,libs,e2e,tools}';

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }],
    // ccxt's CommonJS build requires these ESM-only packages, and openapi-backend
    // (specs' response conformance) its ref parser (Node loads them natively;
    // jest's module runtime needs them compiled to CommonJS).
    '/node_modules/(@(noble|scure)|@apidevtools/json-schema-ref-parser)/.+\\.js$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!@(noble|scure)/|@apidevtools/json-schema-ref-parser/)',
  ],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // Builds (dist/, dist.<name>/ of `tools/build.mjs --out`, tmp/*-dist-*) copy the package.json
  // of libs/sdk and apps/cli: one name, one module.
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/dist\\.[^/]+/', '<rootDir>/tmp/'],
  moduleNameMapper,
  // StarkNet's Pedersen hash remembered within a spec file (Paradex's signing
  // and the simulator's check of it): tools/jest/pedersen-memo.js.
  setupFiles: ['<rootDir>/tools/jest/pedersen-memo.js'],
};

module.exports = {
  testTimeout: 30000,
  // Longest spec files first, from recorded durations where jest has no
  // cache of its own (a clean clone): tools/jest/duration-sequencer.js.
  testSequencer: '<rootDir>/tools/jest/duration-sequencer.js',
  // A worker that has run many service specs (each with its own sims, ccxt
  // instances and module registry) is replaced once it holds this much after
  // a file: one ran out of its 4 GB heap after 520 s in a clean-clone run.
  workerIdleMemoryLimit: '1536MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      // A negated glob, not testPathIgnorePatterns: `npm test` sets that on
      // the command line, which would replace it here and run those twice.
      testMatch: [`${SPEC_DIRS}/**/*.spec.ts`, '!**/*.{int,e2e}.spec.ts'],
    },
    {
      ...common,
      displayName: 'service',
      testMatch: [`${SPEC_DIRS}/**/*.{int,e2e}.spec.ts`],
    },
  ],
};
