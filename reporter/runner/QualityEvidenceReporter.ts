import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { dirname, join, relative, resolve, sep } from 'node:path';
// Each from its own module, never from the library's entry (src/index.ts), which would load every renderer and export.
import type { EnvironmentRecord } from '../../src/config/settingsSources.js';
import { nodeFileSystem, type FileSystem } from '../../src/io/fileSystem.js';
import { displayPath } from '../../src/io/displayPath.js';
import { countOf, describeIncompleteRun, passingTestFailureHints } from '../../src/report/renderers/presentation.js';
import { isIncompleteRun, type QualityReport, type TestCounts } from '../../src/report/qualityReport.js';
import { describeBreaches, formatHeadline } from '../../src/report/renderers/terminal.js';
import type { RunSettings } from '../../src/workflow/openRun.js';
import type { Judgement } from '../../src/evaluation/judgeReport.js';
import { escapeControlCharacters, quotePath } from '../../src/renderValue.js';
import { globalHookFilesOf, isListingRun } from './playwrightPrivate.js';
import { partsOfSuite } from './partialRun.js';
import { systemClock, type Clock } from '../../src/helpers/clock.js';
import { apiCallsOf } from '../shared/apiCalls.js';
import { BROWSER_CALLS_CONTENT_TYPE, EXECUTION_CONTENT_TYPE } from '../shared/executionAttachment.js';
import { EXPECTED_STATUS_ANNOTATION, feedAttempts, testIdentityOf, type Attempt } from './feedAttempts.js';
import type { TestIdentity } from '../../src/summary/endpointEvidence.js';
import { playwrightRequestModuleOf, testSourceOfFile } from './testSource.js';
import { checkBeforeRun } from './checkBeforeRun.js';
import { runTestsOf } from './runTests.js';
import { globalHookRequestHints, unrecordedCallHints, type PlaywrightRequestFile } from './unrecordedHints.js';
import { feedCallsOutsideTests, type CallOutsideTestsTaken, type GlobalHookFiles } from './feedCallsOutsideTests.js';
import { receiveCallsOutsideTests, type CallOutsideTests } from '../shared/callsOutsideTests.js';
import { resolveReporterSettings, type QualityEvidenceReporterOptions, type ReporterSettings } from '../shared/reporterSettings.js';
import { REPORTER_OPTIONS_VARIABLE, sharedReporterOptions } from '../shared/workerOptions.js';

/**
 * What the reporter is given of the process it runs in, as Playwright's own
 * reporters take their screen: its environment, working directory, output
 * streams and file system. Only the default below reads the real process.
 */
export interface ReporterHost {
  readonly env: EnvironmentRecord;
  readonly cwd: string;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly fileSystem: FileSystem;
  /** Checks the budgets, the baseline and the report's destination before any test runs (see checkBeforeRun); absent, the run's end checks them. */
  readonly checkBeforeRun?: typeof checkBeforeRun;
  /** The clock a history line's time is read from; default the system's. */
  readonly clock?: Pick<Clock, 'now'>;
  /** Sets a variable of the environment the test workers start with (see shared/workerOptions.ts); absent, the workers are told nothing. */
  readonly setWorkerVariable?: (name: string, value: string) => void;
  /** The runner's command line, where Playwright's config does not give it (older versions): whether the run is of part of the suite (see partialRun.ts). */
  readonly argv?: readonly string[];
  /**
   * Makes `receive` take the calls made outside any test in the reporter's process (global setup and teardown) with
   * `quality-evidence/test`'s `request` (see shared/callsOutsideTests.ts); absent, none is taken.
   */
  readonly receiveCallsOutsideTests?: (
    receive: (call: CallOutsideTests) => void,
    holder: object | undefined,
    traceContext: boolean,
  ) => void;
}

/** The process the reporter runs in: the one place it reads `process`. */
function processHost(): ReporterHost {
  return {
    env: process.env,
    cwd: process.cwd(),
    argv: process.argv,
    stdout: process.stdout,
    stderr: process.stderr,
    fileSystem: nodeFileSystem,
    checkBeforeRun,
    setWorkerVariable: (name, value) => {
      process.env[name] = value;
    },
    receiveCallsOutsideTests,
  };
}

/**
 * Playwright reporter that writes `quality-summary.json` from the execution
 * records the tests attach (with `recordExecution` or the recording fixtures
 * of `quality-evidence/test`), and accounts for every API call the tests
 * sent: Playwright reports each one as a `pw:api` step, so a call that no
 * record accounts for is counted as unrecorded, or, when it got no response,
 * recorded from the step itself.
 *
 * It collects in the hooks and does the work in `onEnd`: its attempts feed
 * the one evidence run every entry point feeds (src/run), and the report is
 * published as the command publishes it. Every attempt of every test counts: a retried test's
 * first failure is evidence too. If the report cannot be made, the run is
 * marked failed and the reason goes to stderr.
 */
export default class QualityEvidenceReporter implements Reporter {
  private readonly settings: ReporterSettings;
  private readonly listing: boolean;
  private readonly attempts: Attempt[] = [];
  private rootSuite: Suite | undefined;
  /**
   * The run's root folder (`config.rootDir`, the test folder): the report
   * names source files relative to it, as Playwright's own reports do. A
   * blob report keeps it, so a merged run names them as a single run does.
   */
  private rootDir: string;
  /** Playwright's HTML report, when its reporter runs beside this one: the report links each test into it. */
  private htmlReportFolder: string | undefined;
  private quiet: boolean;
  /** The budgets and baseline, loaded before the run; undefined when they could not be checked early (the run's end loads them). */
  private readonly judgement: Judgement | undefined;
  /** Why the run is of part of the suite (`--grep`, a file filter, a shard); empty for a whole run (see partialRun.ts). */
  private partsOfSuite: readonly string[] = [];
  /** The calls made outside any test in this process (global setup and teardown), in the order they ended. */
  private readonly callsOutsideTests: CallOutsideTestsTaken[] = [];
  /**
   * Whether the tests began: Playwright runs global setup before `onBegin` (1.45 to 1.65), so a call outside
   * the tests after it is the teardown's. A run whose setup failed calls `onBegin` only as it ends, after its
   * teardown: those calls are told by their stack (see feedCallsOutsideTests.ts).
   */
  private testsBegan = false;
  /** The config's global setup and teardown files, once `onBegin` gives the config. */
  private globalHooks: GlobalHookFiles = { setups: [], teardowns: [] };

  constructor(
    options: QualityEvidenceReporterOptions = {},
    private readonly host: ReporterHost = processHost(),
  ) {
    const rawOptions = options as Readonly<Record<string, unknown>>;
    this.settings = resolveReporterSettings(rawOptions, host.env, host.cwd);
    this.quiet = this.settings.quiet;
    this.rootDir = host.cwd;
    // `playwright test --list` runs no test: there is no evidence to write.
    this.listing = isListingRun(rawOptions);
    // The budgets file, the baseline and the report's destination are checked now, before any test runs (see checkBeforeRun).
    const configDir = typeof rawOptions['configDir'] === 'string' ? rawOptions['configDir'] : host.cwd;
    // The test workers start after this: they check bodies and excerpt failed ones by these options, however the project named the reporter.
    host.setWorkerVariable?.(REPORTER_OPTIONS_VARIABLE, sharedReporterOptions(rawOptions, configDir));
    this.judgement = this.listing
      ? undefined
      : host.checkBeforeRun?.(runSettingsOf(this.settings), [this.settings.settingsFile], { ...host.env }, configDir, host.cwd);
    for (const warning of this.settings.ignoredOptions)
      host.stderr.write(`quality-evidence reporter: warning: ${escapeControlCharacters(warning)}\n`);
    // Global setup runs after this and before onBegin: its calls are taken from now on.
    if (!this.listing)
      host.receiveCallsOutsideTests?.(
        (call) => this.callsOutsideTests.push({ ...call, phase: this.testsBegan ? 'teardown' : 'setup' }),
        undefined,
        this.settings.traceContext,
      );
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.rootSuite = suite;
    this.rootDir = config.rootDir;
    this.testsBegan = true;
    this.globalHooks = globalHookFilesOf(config);
    this.htmlReportFolder = htmlReportFolderOf(config, this.host.env);
    // Recent versions of Playwright give their command line in the config (config.argv); older ones, the runner's process has it.
    const given = (config as { argv?: unknown }).argv;
    const argv = Array.isArray(given) && given.length > 0 ? (given as string[]) : (this.host.argv ?? []);
    this.partsOfSuite = partsOfSuite(argv, config.shard);
    // `playwright test --quiet` silences reporters' own output too.
    if ((config as { quiet?: boolean }).quiet === true) this.quiet = true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const attachments = result.attachments
      .filter((attachment) => attachment.contentType === EXECUTION_CONTENT_TYPE)
      .map(({ body, path }) => ({ body, path }));
    const browserCalls = result.attachments.find((attachment) => attachment.contentType === BROWSER_CALLS_CONTENT_TYPE);
    this.attempts.push({
      test,
      retry: result.retry,
      status: result.status,
      calls: apiCallsOf(result.steps),
      attachments,
      ...(browserCalls === undefined ? {} : { browserCalls: { body: browserCalls.body, path: browserCalls.path } }),
      expectedStatuses: expectedStatusAnnotations(test, result),
    });
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    if (this.listing) return undefined;
    const { settings, host } = this;
    try {
      const runHost = { fileSystem: host.fileSystem, env: host.env, clock: host.clock ?? systemClock, cwd: host.cwd };
      // A run of part of the suite is judged against the history, not appended to it, unless the settings ask (historyPartialRuns).
      const keptFromHistory =
        this.partsOfSuite.length > 0 && settings.historyPath !== undefined && !settings.historyReadOnly && !settings.historyPartialRuns;
      const runSettings = keptFromHistory ? { ...runSettingsOf(settings), historyReadOnly: true } : runSettingsOf(settings);
      // The run itself loads only here, at the end: a test worker that imports quality-evidence/reporter for recordExecution
      // loads the class, not the run (docs/architecture.md, "What a run loads").
      const { openRun } = await import('../../src/workflow/openRun.js');
      // A bad record is named by the test that attached it.
      const opened = await openRun(runSettings, runHost, {
        reads: [settings.settingsFile],
        judgement: this.judgement,
        noun: 'recorded execution',
      });
      // The calls of global setup and teardown come first, as they were made before the tests' and after.
      feedCallsOutsideTests(opened.run, this.callsOutsideTests, { hooks: this.globalHooks, rootDir: this.rootDir });
      const { unrecordedCalls, unrecordedByFile, browserCalls } = await feedAttempts(opened.run, this.attempts, {
        fileSystem: host.fileSystem,
        rootDir: this.rootDir,
      });
      const htmlReport =
        this.htmlReportFolder === undefined
          ? {}
          : { playwrightHtmlReport: relativeLink(dirname(settings.outputFile), join(this.htmlReportFolder, 'index.html')) };
      const finished = opened.run.finish({
        unrecordedCalls,
        ...(browserCalls === undefined ? {} : { browserCalls }),
        tests: countTests(this.rootSuite),
        failedTests: failedTestsOf(this.rootSuite, this.rootDir),
        runStatus: result.status,
        ...htmlReport,
      });
      // The exports' time is the run's: from Playwright's start to its end.
      const startedAtMs = Math.min(runHost.clock.now(), result.startTime.getTime());
      const { report, files, warnings } = await opened.publish(finished, {
        startedAtMs,
        tests: runTestsOf(this.rootSuite, this.rootDir, (tests) => opened.run.endpointsOfTests(tests)),
      });
      // Each spec file with unrecorded calls is read once, to tell which file takes test from @playwright/test.
      const unrecordedSpecs = await Promise.all(
        [...unrecordedByFile].map(async ([spec, count]) => ({ spec, count, source: await testSourceOfFile(spec, host.fileSystem) })),
      );
      const partial = keptFromHistory ? [partialRunWarning(this.partsOfSuite, displayPath(settings.historyPath, host.cwd))] : [];
      const hookHints = globalHookRequestHints(await playwrightRequestFiles(this.globalHooks, host.fileSystem), host.cwd);
      this.warn(report, unrecordedCallHints(unrecordedSpecs, host.cwd), [...partial, ...warnings], hookHints);
      if (!this.quiet)
        host.stdout.write(
          `${formatHeadline(
            report,
            files.map((file) => displayPath(file, host.cwd)),
          )}\n`,
        );
      if (report.budgets === undefined || report.budgets.passed) return undefined;
      // A breached budget fails the run, as a failing test does; the report is written all the same.
      const breaches = describeBreaches(report.budgets);
      if (breaches !== undefined) host.stderr.write(`quality-evidence reporter: ${breaches}\n`);
      // An interrupted or timed-out run has failed already, with its own exit code (130 for Ctrl-C): it keeps it.
      return isIncompleteRun(result.status) ? undefined : { status: 'failed' };
    } catch (error) {
      host.stderr.write(`quality-evidence reporter: no report was written: ${error instanceof Error ? error.message : String(error)}\n`);
      return { status: 'failed' };
    }
  }

  /** What a reader must know about the evidence: calls it leaves out, calls that got no answer, a run that recorded nothing. */
  private warn(
    report: QualityReport,
    unrecordedHints: readonly string[],
    runWarnings: readonly string[],
    hookHints: readonly string[],
  ): void {
    const lines: string[] = [];
    const unrecorded = report.unrecordedCallCount ?? 0;
    if (unrecorded > 0) {
      const sent = report.executionCount + unrecorded;
      lines.push(
        `quality-evidence reporter: ${countOf(unrecorded, 'API call')} of ${sent} ${unrecorded === 1 ? 'was' : 'were'} ` +
          `not recorded, so the report leaves ${unrecorded === 1 ? 'it' : 'them'} out:`,
      );
      lines.push(...unrecordedHints);
    }
    for (const hint of hookHints) lines.push(`quality-evidence reporter: ${hint}`);
    if (report.noResponseCount > 0) {
      lines.push(
        `quality-evidence reporter: ${countOf(report.noResponseCount, 'API call')} got no response ` +
          `(${countOf(report.noResponseEndpoints.length, 'endpoint')}); is the server under test running?`,
      );
    }
    for (const hint of passingTestFailureHints(report)) lines.push(`quality-evidence reporter: ${hint}`);
    for (const warning of runWarnings) lines.push(`quality-evidence reporter: warning: ${escapeControlCharacters(warning)}`);
    if (isIncompleteRun(report.runStatus)) {
      lines.push(
        `quality-evidence reporter: ${describeIncompleteRun(report)}: the report holds only what ran, and gets no passing verdict`,
      );
    }
    const ran = report.tests === undefined ? 0 : report.tests.total - report.tests.skipped;
    if (ran > 0 && report.executionCount === 0 && unrecorded === 0) {
      lines.push(
        `quality-evidence reporter: ${countOf(ran, 'test')} ran and no API call was recorded: ` +
          'use the request fixture of quality-evidence/test, or recordExecution',
      );
    }
    if (lines.length > 0) this.host.stderr.write(`${lines.join('\n')}\n`);
  }
}

// Annotations given in the test's details are on the test; those added while it ran, on the result (Playwright 1.52 and later).
function expectedStatusAnnotations(test: TestCase, result: TestResult): string[] {
  const annotations = [...test.annotations, ...((result as { annotations?: TestCase['annotations'] }).annotations ?? [])];
  const lists = annotations
    .filter((annotation) => annotation.type === EXPECTED_STATUS_ANNOTATION)
    .map((annotation) => annotation.description ?? '');
  return [...new Set(lists)];
}

/** The settings a run is opened with: the reporter's, without what only the reporter reads (crosses to the worker that checks them). */
function runSettingsOf({ ignoredOptions, settingsFile, quiet, ...settings }: ReporterSettings): RunSettings {
  return settings;
}

/**
 * Where Playwright's HTML reporter writes, when it is among the run's
 * reporters: its outputFolder option, else PLAYWRIGHT_HTML_OUTPUT_DIR, else
 * playwright-report, relative to the config's folder.
 */
function htmlReportFolderOf(config: FullConfig, env: EnvironmentRecord): string | undefined {
  const entry = config.reporter.find(([name]) => name === 'html');
  if (entry === undefined) return undefined;
  const configDir = config.configFile === undefined ? config.rootDir : dirname(config.configFile);
  const options = entry[1] as { outputFolder?: unknown } | undefined;
  const folder =
    typeof options?.outputFolder === 'string' ? options.outputFolder : (env['PLAYWRIGHT_HTML_OUTPUT_DIR'] ?? 'playwright-report');
  return resolve(configDir, folder);
}

/** A path from one folder to a file, with forward slashes, as a link takes it. */
function relativeLink(from: string, to: string): string {
  return relative(resolve(from), to).split(sep).join('/');
}

/** What a run of part of the suite says: why it is one, and that it was judged against the history but not appended to it. */
function partialRunWarning(parts: readonly string[], historyPath: string): string {
  return (
    `this run is of part of the suite (${parts.join(', ')}): it is judged against the history file ${quotePath(historyPath)} and not appended to it, ` +
    'so that it does not thin the range of every endpoint it did not call; historyPartialRuns: true (QE_HISTORY_PARTIAL_RUNS=true) appends such runs too'
  );
}

/** The global setup and teardown files (each once) that take `request` from Playwright; a file that cannot be read tells nothing. */
async function playwrightRequestFiles(hooks: GlobalHookFiles, fileSystem: FileSystem): Promise<PlaywrightRequestFile[]> {
  const files = [...new Set([...hooks.setups, ...hooks.teardowns])];
  const modules = await Promise.all(files.map((file) => fileSystem.readFile(file).then(playwrightRequestModuleOf, () => undefined)));
  return files.flatMap((file, index) => {
    const module = modules[index];
    return module === undefined ? [] : [{ file, module }];
  });
}

/** The tests that failed (their outcome `unexpected`, as countTests counts them), each as the report names a test. */
function failedTestsOf(suite: Suite | undefined, rootDir: string): TestIdentity[] {
  return (suite?.allTests() ?? []).filter((test) => test.outcome() === 'unexpected').map((test) => testIdentityOf(test, rootDir));
}

function countTests(suite: Suite | undefined): TestCounts {
  const counts = { total: 0, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  for (const test of suite?.allTests() ?? []) {
    counts.total++;
    const outcome = test.outcome();
    if (outcome === 'expected') counts.passed++;
    else if (outcome === 'unexpected') counts.failed++;
    else if (outcome === 'flaky') counts.flaky++;
    else counts.skipped++;
  }
  return counts;
}
