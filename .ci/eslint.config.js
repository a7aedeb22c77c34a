// Lint configuration for `npm run check`. It lives beside the CI script so the
// repository's top level holds only the product (see CONTRIBUTING.md, "Static checks").
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Import directions (docs/architecture.md, "How the code is laid out"): the
// core never imports the command, the scripts or the reporter; errors, value
// rendering and the DeepReadonly type import nothing of ours; the helpers
// import only those; file access imports only those and the strict decoding
// of input bytes (every file a run reads is read as strictly as an input);
// records import no other stage; an API's contract (contract/) is read on
// records and file access, and labels (labels/) are made from records and
// the contract; the summary builds on records, the report on
// the summary; the history file (history/) is read and written on the report
// and file access, and the exports (exports/) are pure functions of the report; the evidence run (run/) is the one pure seam every entry point
// feeds, and the workflow (workflow/: openRun and publish) is the only place that opens and publishes a run, reading and
// writing files. Patterns match an import as
// written, relative to the importing file.
// DuckDB is the benchmark's yardstick (tests/benchmarks/runner.bench.ts), a devDependency: never a runtime one.
const benchmarkOnly = ['@duckdb/*'];
const outside = ['**/reporter/**', '**/scripts/**', ...benchmarkOnly];
// Node's modules that reach outside a computation: files, processes, threads, the network.
const nodeEffects = [
  'node:fs',
  'node:fs/*',
  'fs',
  'fs/*',
  'node:child_process',
  'node:worker_threads',
  'node:net',
  'node:http',
  'node:https',
  'node:os',
  'node:process',
];
const folders = [
  'issues',
  'config',
  'input',
  'io',
  'contract',
  'labels',
  'readers',
  'records',
  'summary',
  'report',
  'history',
  'exports',
  'evaluation',
  'helpers',
  'run',
  'workflow',
  'review',
  'suggest',
  'dashboard',
  'cli',
];
// A file one folder deeper (src/report/renderers/, src/report/sections/) reaches the others through ../../.
const except = (...allowed) =>
  folders.filter((folder) => !allowed.includes(folder)).flatMap((folder) => [`../${folder}/*`, `../../${folder}/*`]);
const directions = [
  { files: ['src/renderValue.ts', 'src/deepReadonly.ts', 'src/compareCodeUnits.ts'], forbidden: ['./*', '../*'] },
  { files: ['src/errors.ts'], forbidden: folders.filter((folder) => folder !== 'issues').map((folder) => `./${folder}/*`) },
  { files: ['src/issues/**', 'src/helpers/**', 'src/input/**'], forbidden: except() },
  { files: ['src/io/**'], forbidden: except('input') },
  { files: ['src/contract/**'], forbidden: except('issues', 'input', 'io', 'records') },
  { files: ['src/labels/**'], forbidden: except('issues', 'records', 'contract') },
  { files: ['src/records/**'], forbidden: except('issues') },
  { files: ['src/readers/**'], forbidden: except('issues', 'input', 'records') },
  { files: ['src/summary/**'], forbidden: except('issues', 'records') },
  { files: ['src/report/**'], forbidden: except('issues', 'records', 'summary', 'config', 'contract') },
  { files: ['src/config/**'], forbidden: except('issues', 'input', 'io', 'records', 'labels') },
  { files: ['src/history/**'], forbidden: except('issues', 'config', 'input', 'io', 'records', 'summary', 'report') },
  { files: ['src/exports/**'], forbidden: except('config', 'summary', 'report') },
  { files: ['src/evaluation/**'], forbidden: except('issues', 'config', 'input', 'contract', 'records', 'summary', 'report', 'history') },
  // The evidence run is pure: no file access (io/, node:fs), no threads or child processes; what reads and writes lives in workflow/.
  {
    files: ['src/run/**'],
    forbidden: [
      ...except('issues', 'config', 'input', 'contract', 'labels', 'readers', 'records', 'summary', 'report', 'evaluation'),
      ...nodeEffects,
    ],
  },
  // The layer that opens and publishes runs may use every folder but the edges above it: the poster and the command.
  { files: ['src/workflow/**'], forbidden: except(...folders.filter((folder) => folder !== 'review' && folder !== 'cli')) },
  // Posting a pull-request comment (review/): the edge where a comment leaves for GitHub or GitLab; only the command imports it.
  { files: ['src/review/**'], forbidden: except('config', 'report') },
  // Drafting tests for the gaps (suggest/) is pure: the contract and the evaluation's condition coverage in, spec files' text out.
  { files: ['src/suggest/**'], forbidden: [...except('issues', 'contract', 'records', 'summary', 'report', 'evaluation'), ...nodeEffects] },
  // The history page (dashboard/) is a renderer of the history file: the history, the evaluation and the report's helpers in, HTML out.
  {
    files: ['src/dashboard/**'],
    forbidden: [...except('issues', 'config', 'records', 'summary', 'contract', 'report', 'history', 'evaluation'), ...nodeEffects],
  },
  { files: ['src/cli/**'], forbidden: [] },
];
// The reporter's two processes: what runs in Playwright's test workers and what runs in the runner import each other
// only through reporter/shared/ (the attachments between them, the settings), never directly.
const reporterProcesses = [
  { files: ['reporter/worker/**'], forbidden: ['../runner/*'], message: "The test workers never import the runner process's code" },
  { files: ['reporter/runner/**'], forbidden: ['../worker/*'], message: "The runner process never imports the test workers' code" },
  { files: ['reporter/shared/**'], forbidden: ['../worker/*', '../runner/*'], message: 'What both processes share imports neither' },
];
const reporterProcessRules = reporterProcesses.map(({ files, forbidden, message }) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: [...forbidden, ...benchmarkOnly], message: `${message} (see .ci/eslint.config.js).` },
          // The library's entry re-exports every renderer and export: through it, each test worker would load them all.
          {
            group: ['../../src/index.js'],
            message: "The reporter imports each module it uses, never the library's entry (docs/architecture.md).",
          },
        ],
      },
    ],
  },
}));
const importRules = directions.map(({ files, forbidden }) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: [...forbidden, ...outside], message: 'This import breaks the direction of the layers (see .ci/eslint.config.js).' },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: [
      '.build/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'blob-report/**',
      '.ci/**/*',
      // This file is a source too (see the last block); the rest of .ci/ holds the CI script and its Playwright install.
      '!.ci/eslint.config.js',
    ],
  },
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
      // A property taken out of an object so that the rest leaves it out is used by being left out.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // zod's `z` object holds every locale: imported by name, it brings 750 kB into the bundled programs (npm run build);
      // `import * as z` lets esbuild keep only what is used (190 kB).
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier",
          message: "Import zod as a namespace, `import * as z from 'zod'`: the named `z` brings all of zod's locales into the bundles.",
        },
      ],
    },
  },
  ...importRules,
  {
    files: ['reporter/**', 'scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: benchmarkOnly, message: 'DuckDB is for the benchmark only (see .ci/eslint.config.js).' }] },
      ],
    },
  },
  ...reporterProcessRules,
  {
    // ...nor the process, its environment or the clock: a run is a function of its settings and its records (src/workflow/openRun.ts reads the host once).
    files: ['src/run/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'The evidence run is pure: the host (src/workflow/openRun.ts) reads the process.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: "The evidence run is pure: the time is the host clock's (src/workflow/openRun.ts)." },
        {
          object: 'performance',
          property: 'now',
          message: "The evidence run is pure: the time is the host clock's (src/workflow/openRun.ts).",
        },
      ],
    },
  },
  {
    // Prettier lays code out in 140 columns but never breaks a string, a template literal or a comment: those are
    // broken by hand, and no line of a source passes 160 columns (CONTRIBUTING.md, "Static checks").
    files: ['**/*.{ts,mts,cts,js,mjs,cjs}'],
    rules: { 'max-len': ['error', { code: 160, tabWidth: 2 }] },
  },
  {
    // The build script runs before anything is compiled, and this file configures the lint: both are plain JavaScript.
    files: ['scripts/**/*.mjs', '.ci/eslint.config.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly' } },
  },
);
