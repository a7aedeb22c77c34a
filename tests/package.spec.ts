import { expect, test } from './support/test.js';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPlaywrightProject, packedFiles } from './support/playwrightProject.js';
import { SETTING_DEFAULTS } from '../src/config/settings.js';

// A consumer outside this repository that installs the packed package and
// imports it by name, as a user would.

// Each test packs the package (npm pack, once per worker) and most run tsc over its declarations and
// Playwright's: 5 to 11 s of CPU each, 20 to 30 s on a busy CI runner and more on a loaded machine,
// where Playwright's default 30 s cut them; 120 s leaves room, and a hung compiler still ends.
test.describe.configure({ timeout: 120_000 });
const consumerScript = `import {
  PollTimeoutError,
  RetryExhaustedError,
  createDeterministicClock,
  loadQualityToolConfig,
  pollUntil,
  retryBounded,
  summariseChecks,
} from 'quality-evidence';

const clock = createDeterministicClock();
const timeout = await pollUntil({
  operationName: 'job', operation: async () => 'pending', isComplete: (state) => state === 'complete',
  describe: (state) => 'state ' + state, timeoutMs: 3_600_000, intervalMs: 1000, clock,
}).catch((error) => error);
const flaky = new Error('503');
const exhausted = await retryBounded({
  operationName: 'create order', operation: async () => { throw flaky; }, shouldRetry: () => true, maxAttempts: 3, delayMs: 50, clock,
}).catch((error) => error);
console.log(JSON.stringify({
  pollTimeout: {
    isPollTimeoutError: timeout instanceof PollTimeoutError, isError: timeout instanceof Error,
    attempts: timeout.attempts, elapsedMs: timeout.elapsedMs,
  },
  retry: { isRetryExhaustedError: exhausted instanceof RetryExhaustedError, attempts: exhausted.attempts, causeKept: exhausted.cause === flaky },
  clockNow: clock.now(),
  summary: summariseChecks([{ endpoint: 'get /a', state: 'failed', responseTimeMs: 751 }], 750),
  config: loadQualityToolConfig({ QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'in.json' }),
}));
`;

// What a loaded configuration holds besides what was given (the report's path is outputPath there).
const { outputFile: _outputFile, quiet: _quiet, ...configDefaults } = SETTING_DEFAULTS;

test('a consumer imports the helpers, their error types and the loader by the package name, with no real waiting', async () => {
  const project = await createPlaywrightProject({ 'consumer.mjs': consumerScript });

  const { stdout } = await promisify(execFile)(process.execPath, [join(project, 'consumer.mjs')], { cwd: project, timeout: 30_000 });

  expect(JSON.parse(stdout)).toEqual({
    pollTimeout: { isPollTimeoutError: true, isError: true, attempts: 3601, elapsedMs: 3_600_000 },
    retry: { isRetryExhaustedError: true, attempts: 3, causeKept: true },
    clockNow: 3_600_100,
    summary: {
      executionCount: 1,
      failedExecutionCount: 1,
      slowExecutionCount: 1,
      failureCountByEndpoint: { 'GET /a': 1 },
      slowEndpoints: ['GET /a'],
    },
    // Every setting's effective value: the four given or defaulted, and each other default of the settings table.
    config: {
      ...configDefaults,
      environment: 'ci',
      slowResponseThresholdMs: 750,
      inputPath: 'in.json',
      outputPath: '.build/quality-summary.json',
    },
  });
});

test(`the tarball holds both builds, the JSON Schemas, the README with the documents it links to and the LICENSE, and no \
specs, programs or source maps`, async () => {
  const files = await packedFiles();

  // The README links into docs/ and CONTRIBUTING.md: they ship with it, so its links work inside the package too.
  expect(files.filter((path) => !path.startsWith('.build/'))).toEqual([
    'CONTRIBUTING.md',
    'LICENSE',
    'README.md',
    'action.yml',
    'docs/architecture.md',
    'docs/browser-tests.md',
    'docs/budgets-and-baseline.md',
    'docs/command.md',
    'docs/configuration.md',
    'docs/contract-diff.md',
    'docs/contract.md',
    'docs/dashboard.md',
    'docs/exports.md',
    'docs/helpers.md',
    'docs/history.md',
    'docs/html-report.png',
    'docs/input-formats.md',
    'docs/library.md',
    'docs/performance.md',
    'docs/pull-request-comment.md',
    'docs/reliability.md',
    'docs/report-format.md',
    'docs/reporter.md',
    'docs/statuses-and-labels.md',
    'docs/suggest.md',
    'docs/trace-context.md',
    'package.json',
    'schemas/budgets.schema.json',
    'schemas/check-observation.schema.json',
    'schemas/input.schema.json',
    'schemas/report.schema.json',
    'schemas/settings.schema.json',
  ]);
  for (const entry of [
    '.build/src/index.js',
    '.build/reporter/test.d.ts',
    '.build/cjs/package.json',
    '.build/cjs/src/index.js',
    '.build/cjs/reporter/index.d.ts',
  ]) {
    expect(files, entry).toContain(entry);
  }
  expect(files.filter((path) => /\.map$|^\.build\/(tests|scripts)\//.test(path))).toEqual([]);
});

const typedConsumer = `import { test, expect } from 'quality-evidence/test';
import QualityEvidenceReporter, { recordExecution, type QualityEvidenceReporterOptions } from 'quality-evidence/reporter';
import { loadQualityToolConfig, type QualityReport } from 'quality-evidence';

const options: QualityEvidenceReporterOptions = { outputFile: 'out/quality-summary.json', quiet: true };
const reporter: typeof QualityEvidenceReporter = QualityEvidenceReporter;
const report: QualityReport | undefined = undefined;
test('typed', async ({ request }) => {
  await recordExecution({ errorCode: 'ECONNREFUSED', endpoint: 'GET /x', responseTimeMs: 1 });
  expect(loadQualityToolConfig({ QE_ENVIRONMENT: 'ci', QE_INPUT_PATH: 'in.json' }).environment).toBe('ci');
  void request, options, reporter, report;
});
`;

// [module, moduleResolution, package type]: the classic resolver is still the
// default with "module": "commonjs"; node16 and nodenext in both package
// types; bundler with ES modules and with preserve.
const resolvers = [
  ['commonjs', 'node', 'commonjs'],
  ['node16', 'node16', 'commonjs'],
  ['node16', 'node16', 'module'],
  ['nodenext', 'nodenext', 'commonjs'],
  ['nodenext', 'nodenext', 'module'],
  ['esnext', 'bundler', 'module'],
  ['preserve', 'bundler', 'commonjs'],
] as const;

for (const [module, moduleResolution, moduleType] of resolvers) {
  test(`a ${moduleType} consumer type-checks with "module": "${module}", "moduleResolution": "${moduleResolution}"`, async () => {
    const tsconfig = {
      // TypeScript 6 deprecates the classic resolver; TypeScript 5, which most projects on it use, does not.
      compilerOptions: {
        module,
        moduleResolution,
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        ignoreDeprecations: '6.0',
      },
      files: ['consumer.ts'],
    };
    const project = await createPlaywrightProject(
      { 'consumer.ts': typedConsumer, 'tsconfig.json': JSON.stringify(tsconfig) },
      { moduleType },
    );

    const tsc = join(project, 'node_modules/typescript/bin/tsc');
    const outcome = await promisify(execFile)(process.execPath, [tsc, '-p', project], { cwd: project }).then(
      () => '',
      (error: unknown) => (error as { stdout: string }).stdout,
    );

    expect(outcome).toBe('');
  });
}

test('a CommonJS consumer loads every entry point with require, with no require(esm) support in Node', async () => {
  const project = await createPlaywrightProject(
    {
      'consumer.js': `const core = require('quality-evidence');
const reporter = require('quality-evidence/reporter');
const recording = require('quality-evidence/test');
console.log(JSON.stringify({
  core: typeof core.loadQualityToolConfig,
  reporter: typeof reporter.default,
  recordExecution: typeof reporter.recordExecution,
  test: typeof recording.test,
  resolvedTo: require.resolve('quality-evidence').split('node_modules/quality-evidence/')[1],
}));
`,
    },
    { moduleType: 'commonjs' },
  );

  // Node before 20.19 cannot require() an ES module; this flag makes today's Node behave the same.
  const { stdout } = await promisify(execFile)(process.execPath, ['--no-experimental-require-module', join(project, 'consumer.js')], {
    cwd: project,
  });

  expect(JSON.parse(stdout)).toEqual({
    core: 'function',
    reporter: 'function',
    recordExecution: 'function',
    test: 'function',
    resolvedTo: '.build/cjs/src/index.js',
  });
});
