import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'web/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message: 'Time comes from deps.clock: side effects come in through Deps (see CONTRIBUTING.md, Conventions).',
        },
        {
          object: 'process',
          property: 'env',
          message:
            'Configuration comes from deps.config: side effects come in through Deps (see CONTRIBUTING.md, Conventions).',
        },
      ],
    },
  },
  {
    // The composition root, config loader, scripts, benches and tests may touch the process.
    files: ['src/main.ts', 'src/config/load.ts', 'src/cli/**', 'scripts/**', 'bench/**', 'test/**', 'bin/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
