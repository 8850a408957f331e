// Lint is part of CI and allows zero warnings. Module boundaries are real
// constraints: the domain imports no framework, libs never import apps, and
// only specs and benches may use the testing lib.
import eslint from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const FRAMEWORKS = ['@nestjs/*', 'typeorm', 'ioredis', 'nats', 'pg', 'ws', 'ccxt', 'pino', 'jose'];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'tmp/**',
      '.nx/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  { plugins: { '@nx': nx } },
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
              bannedExternalImports: FRAMEWORKS,
            },
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: ['type:domain', 'type:contracts'],
              bannedExternalImports: FRAMEWORKS.filter((name) => name !== 'nats'),
            },
            {
              sourceTag: 'type:platform',
              onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform'],
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform'],
            },
            {
              // The SDK ships to traders' bots on its own: it depends on no lib of ours.
              sourceTag: 'type:sdk',
              onlyDependOnLibsWithTags: [],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:domain',
                'type:contracts',
                'type:platform',
                'type:testing',
                'type:sdk',
              ],
            },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
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
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name=/^(it|test|describe)$/][callee.property.name='only']",
          message: 'No focused tests.',
        },
      ],
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
    // Specs and benches start other apps in-process (@sts/app-*): allowed there only.
    files: ['**/*.spec.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: ['@sts/app-*'],
          depConstraints: [
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain'] },
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
  prettier,
);
