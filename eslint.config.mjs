// Lint is part of CI and allows zero warnings. Module boundaries are real
// constraints: the domain imports only itself and an allow-list of pure
// packages, venue adapters cannot reach persistence, libs never import apps,
// and only specs and benches may use the testing lib.
// libs/testing/src/lint/lint-probes.int.spec.ts proves each of these fails lint.
import eslint from '@eslint/js';
import { readCachedProjectGraph } from '@nx/devkit';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Without Nx's cached project graph, @nx/enforce-module-boundaries prints a
// warning and checks nothing: lint would pass with no boundary enforced.
// `npm run lint` builds the graph first (`nx show projects`).
try {
  readCachedProjectGraph();
} catch (error) {
  throw new Error(
    'No Nx project graph: module boundaries cannot be checked. Run `npx nx show projects` first.',
    { cause: error },
  );
}

const FRAMEWORKS = [
  '@nestjs/*',
  'typeorm',
  'ioredis',
  '@nats-io/*',
  'pg',
  'ws',
  'ccxt',
  'pino',
  'jose',
];

/**
 * The only packages the domain may import: pure computation, no I/O. node:crypto
 * is there for createHash (client order ids are a hash of the trade's intent);
 * fast-check only in specs and the domain's test fixtures.
 */
const DOMAIN_PACKAGES = ['big.js', 'node:crypto'];
const DOMAIN_TEST_PACKAGES = [...DOMAIN_PACKAGES, 'fast-check'];
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const onlyImports = (packages) => ({
  regex: `^(?!(\\.{1,2}(/|$)|${packages.map(escapeRegExp).join('$|')}$)).*`,
  message: `The domain is pure: it imports only itself and ${packages.join(', ')} (eslint.config.mjs).`,
});
const LIB_ENTRY_POINTS = {
  group: ['@sts/*/src/*', '**/libs/*/src/*'],
  message: 'Import a lib through its @sts/<name> entry point.',
};

/** The type-aware rules every TypeScript file is held to (services and the console alike). */
const TYPED_RULES = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
  '@typescript-eslint/switch-exhaustiveness-check': 'error',
  '@typescript-eslint/no-unused-vars': [
    'error',
    { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
  ],
  '@typescript-eslint/consistent-type-imports': [
    'error',
    { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
  ],
  curly: ['error', 'all'],
  eqeqeq: ['error', 'always'],
};

/** Tests pinned with `.only` would silently skip the rest of CI. */
const NO_FOCUSED_TESTS = {
  selector:
    "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']",
  message: 'No focused tests.',
};

/**
 * The selectors that keep a table's statements with its repository: SQL
 * naming the table (upper case, so prose about it does not match), or a
 * TypeORM repository of its entity, anywhere else in production code.
 */
function statementsOutside(table, entity, owner) {
  const message = `Statements on \`${table}\` belong to ${owner} (libs/persistence).`;
  const statement = `/\\b(FROM|UPDATE|INTO|JOIN)\\s+${table}\\b/`;
  return [
    { selector: `Literal[value=${statement}]`, message },
    { selector: `TemplateElement[value.raw=${statement}]`, message },
    {
      selector: `CallExpression[callee.property.name='getRepository'][arguments.0.name='${entity}']`,
      message,
    },
    {
      selector: `TSTypeReference[typeName.name='Repository'] Identifier[name='${entity}']`,
      message,
    },
  ];
}

/** Every statement on `trades` is TradeRepository's (issue 38). */
const TRADES_OUTSIDE_REPOSITORY = statementsOutside('trades', 'TradeEntity', 'TradeRepository');

/**
 * Every statement on `trade_events`, the execution log, is
 * TradeEventRepository's (issue 57); and no production code reads an
 * entry's data by string key (`data['price']`, SQL `data->>'price'`) outside
 * the log's decoders (libs/contracts; SQL names a field through their
 * logFieldSql), in libs/persistence neither.
 */
const LOG_BY_KEY =
  'Read an execution-log entry through its decoder (@sts/contracts decodeLogEntry), not by key.';
const JSON_KEY_SQL = "/data\\s*->>\\s*'/";
const LOG_OUTSIDE_REPOSITORY = [
  ...statementsOutside('trade_events', 'TradeEventEntity', 'TradeEventRepository'),
  { selector: `Literal[value=${JSON_KEY_SQL}]`, message: LOG_BY_KEY },
  { selector: `TemplateElement[value.raw=${JSON_KEY_SQL}]`, message: LOG_BY_KEY },
];
/** `data['...']` outside the decoders (contracts) and persistence. */
const LOG_DATA_BY_KEY = [
  {
    selector: "MemberExpression[computed=true][object.name='data'][property.type='Literal']",
    message: LOG_BY_KEY,
  },
  {
    selector:
      "MemberExpression[computed=true][object.property.name='data'][property.type='Literal']",
    message: LOG_BY_KEY,
  },
];

/** Libs under infrastructure: what every infrastructure lib may build on. */
const FOUNDATION = ['type:domain', 'type:contracts', 'type:platform'];

export default tseslint.config(
  {
    ignores: ['dist/**', 'dist.*/**', 'node_modules/**', 'coverage/**', 'tmp/**', '.nx/**'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  { plugins: { '@nx': nx } },
  {
    // Tools, jest and this config: plain JavaScript run by Node.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          banTransitiveDependencies: false,
          depConstraints: [
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain'],
              allowedExternalImports: DOMAIN_TEST_PACKAGES,
            },
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'],
              bannedExternalImports: FRAMEWORKS.filter((name) => name !== '@nats-io/*'),
            },
            // Config, logging, NATS, Redis, errors, timing: the base of every adapter.
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: FOUNDATION },
            // Venue adapters talk to exchanges only: no database, no other adapter.
            { sourceTag: 'type:venue', onlyDependOnLibsWithTags: FOUNDATION },
            // Clients of our own services over NATS (budget-client).
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: FOUNDATION },
            { sourceTag: 'type:persistence', onlyDependOnLibsWithTags: FOUNDATION },
            // The budget store in Redis: its scripts, keys and replies (the budget service's).
            { sourceTag: 'type:store', onlyDependOnLibsWithTags: [...FOUNDATION, 'type:client'] },
            // Auth reads API keys from the database.
            {
              sourceTag: 'type:auth',
              onlyDependOnLibsWithTags: [...FOUNDATION, 'type:persistence'],
            },
            // Operator commands: the database and the keys.
            {
              sourceTag: 'type:operations',
              onlyDependOnLibsWithTags: [...FOUNDATION, 'type:persistence', 'type:auth'],
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: [
                ...FOUNDATION,
                'type:persistence',
                'type:auth',
                'type:operations',
              ],
            },
            {
              // The SDK ships to traders' bots on its own: it depends on no lib of ours.
              sourceTag: 'type:sdk',
              onlyDependOnLibsWithTags: [],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                ...FOUNDATION,
                'type:venue',
                'type:client',
                'type:store',
                'type:persistence',
                'type:auth',
                'type:operations',
                'type:testing',
                'type:sdk',
              ],
            },
          ],
        },
      ],
      ...TYPED_RULES,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@sts/*/src/*', '**/libs/*/src/*'],
              message: 'Import a lib through its @sts/<name> entry point.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', NO_FOCUSED_TESTS],
    },
  },
  {
    // Specs and benches may reach the testing lib; production code may not.
    files: ['apps/**/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@sts/testing', message: 'The testing lib is for specs and benches only.' },
            {
              name: '@sts/testing/fuzz',
              message: 'The testing lib is for specs and benches only.',
            },
          ],
          patterns: [
            {
              group: ['@sts/*/src/*', '**/libs/*/src/*'],
              message: 'Import a lib through its @sts/<name> entry point.',
            },
          ],
        },
      ],
    },
  },
  {
    // Production code outside the trades table's owner (test support and
    // migrations write trades rows of their own, as fixtures and schema).
    files: ['apps/**/src/**/*.ts', 'libs/**/src/**/*.ts'],
    ignores: [
      '**/*.spec.ts',
      '**/test/**',
      'libs/testing/**',
      'libs/persistence/**',
      'apps/console/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_FOCUSED_TESTS,
        ...TRADES_OUTSIDE_REPOSITORY,
        ...LOG_OUTSIDE_REPOSITORY,
        ...LOG_DATA_BY_KEY,
      ],
    },
  },
  {
    // libs/persistence owns the tables' statements, not the log's schema: an
    // entry's field in SQL comes from the decoders (logFieldSql), never by hand.
    files: ['libs/persistence/src/**/*.ts'],
    ignores: ['**/*.spec.ts', 'libs/persistence/src/migrations/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_FOCUSED_TESTS,
        { selector: `Literal[value=${JSON_KEY_SQL}]`, message: LOG_BY_KEY },
        { selector: `TemplateElement[value.raw=${JSON_KEY_SQL}]`, message: LOG_BY_KEY },
        ...LOG_DATA_BY_KEY,
      ],
    },
  },
  {
    // The execution log's decoders are where its data is read by key.
    files: ['libs/contracts/src/execution-log/log-decoders.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_FOCUSED_TESTS,
        ...TRADES_OUTSIDE_REPOSITORY,
        ...statementsOutside('trade_events', 'TradeEventEntity', 'TradeEventRepository'),
      ],
    },
  },
  {
    // Specs and benches start other apps in-process (@sts/app-*): allowed there only.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: ['@sts/app-*'],
          depConstraints: [
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:domain'],
              allowedExternalImports: DOMAIN_TEST_PACKAGES,
            },
            { sourceTag: '*', onlyDependOnLibsWithTags: ['*'] },
          ],
        },
      ],
    },
  },
  {
    // Test bodies are JSON from the wire; typing every fixture adds noise, not safety.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The domain's allow-list, node builtins included (the Nx rule sees only npm packages).
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [LIB_ENTRY_POINTS, onlyImports(DOMAIN_PACKAGES)] },
      ],
    },
  },
  {
    files: ['libs/domain/**/*.spec.ts', 'libs/domain/src/testing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [LIB_ENTRY_POINTS, onlyImports(DOMAIN_TEST_PACKAGES)] },
      ],
    },
  },
  {
    // Size (issues 22, 38): a function over 60 lines is split. A file holds one
    // concept whatever its length; past about 400 lines it is worth a look
    // (a warning, which `npm run lint` still refuses: look, then cut by meaning). Not counted: specs and test support (a describe block is a list
    // of cases, not logic), migrations (each a frozen script of one schema
    // step, never edited once released), the SDK's types (generated from the
    // OpenAPI document), and the console's React components (a component's
    // body is mostly its markup; its logic lives in plain modules that are
    // held to the limits).
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts'],
    ignores: [
      '**/*.spec.ts',
      '**/test/**',
      'libs/testing/**',
      'libs/persistence/src/migrations/**',
      'libs/sdk/src/generated/**',
    ],
    rules: {
      'max-lines': ['warn', { max: 400 }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['apps/console/**/*.tsx'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // The trader console (apps/console): React in the browser, type-checked by its
    // own tsconfig. It may import only the SDK (for its types) among our libs.
    files: ['apps/console/**/*.ts', 'apps/console/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: {
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [{ sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:sdk'] }],
        },
      ],
      ...TYPED_RULES,
      'no-restricted-imports': ['error', { patterns: [LIB_ENTRY_POINTS] }],
    },
  },
  prettier,
);
