// Lint configuration for `npm run check`. It lives beside the CI script so the
// repository's top level holds only the product (see README, "Static checks").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The core never imports the programs, the reporter or the workflow that
// composes it; the reporter and the programs import the core. Paths are
// matched as written in the import, relative to the importing file.
const programsAndReporter = { group: ['**/runners/**', '**/reporter/**', '**/scripts/**'], message: 'The core never imports the programs or the reporter.' };
const workflow = { group: ['**/workflow/**'], message: 'Only the workflow composes the stages: a stage never imports it.' };

export default tseslint.config(
  { ignores: ['.build/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'blob-report/**', '.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: process.cwd() },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Reporter hooks and fixtures have fixed signatures; a leading underscore marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/runners/**', 'src/workflow/**', 'src/index.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [programsAndReporter, workflow] }] },
  },
  {
    files: ['src/workflow/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [programsAndReporter] }] },
  },
  {
    // The build script runs before anything is compiled, so it is plain JavaScript.
    files: ['scripts/**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly' } },
  },
);
