// One jest run for the whole monorepo. `unit` is the pure domain (no services);
// `service` holds the medium and end-to-end specs that use the real Postgres,
// Redis and NATS of the machine, each spec isolated in its own database and
// NATS/Redis namespace (see libs/testing).
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
  // Builds (dist/, tmp/*-dist-*) copy the package.json of libs/sdk and apps/cli: one name, one module.
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/tmp/'],
  moduleNameMapper,
};

module.exports = {
  testTimeout: 30000,
  // A worker that has run many service specs (each with its own sims, ccxt
  // instances and module registry) is replaced once it holds this much after
  // a file: one ran out of its 4 GB heap after 520 s in a clean-clone run.
  workerIdleMemoryLimit: '1536MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/domain/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'service',
      testMatch: [
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/libs/!(domain)/**/*.spec.ts',
        '<rootDir>/e2e/**/*.spec.ts',
      ],
    },
  ],
};
