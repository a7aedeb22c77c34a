import { readFile } from 'node:fs/promises';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { buildReport, executionRecordSchema, nodeFileSystem, type QualityReport, type TestCounts } from '../src/index.js';
import { displayPath } from '../src/io/displayPath.js';
import { countOf, describeIncompleteRun } from '../src/report/renderers/presentation.js';
import { isIncompleteRun } from '../src/report/qualityReport.js';
import { describeBreaches, formatHeadline } from '../src/report/renderers/terminal.js';
import { stepSummaryPathOf, writeReport } from '../src/workflow/reportFiles.js';
import { compareCodeUnits } from '../src/summary/summariseExecutions.js';
import { ConfigurationError } from '../src/errors.js';
import { parseStatusList, type StatusSet } from '../src/records/statusList.js';
import { judgeReport, judgementFiles, loadJudgement, type Judgement, type JudgementSettings } from '../src/workflow/judgement.js';
import { escapeControlCharacters } from '../src/renderValue.js';
import { RecordIntake } from '../src/workflow/recordIntake.js';
import { accountForCalls, type NoResponseCall, type RecordedCall } from './accountForCalls.js';
import { isListingRun } from './playwrightPrivate.js';
import { apiCallsOf, type ApiCall } from './apiCalls.js';
import { EXECUTION_CONTENT_TYPE } from './executionAttachment.js';
import { testSourceOfFile } from './testSource.js';
import { checkBeforeRun } from './checkBeforeRun.js';
import { unrecordedCallHints } from './unrecordedHints.js';
import { resolveReporterSettings, type QualityEvidenceReporterOptions, type ReporterSettings } from './reporterSettings.js';

/** One test attempt: where its records came from, and the API calls it sent. */
interface Attempt {
  readonly test: TestCase;
  readonly retry: number;
  readonly calls: readonly ApiCall[];
  /** How the attempt ended. */
  readonly status: TestResult['status'];
  /** The statuses its test declares expected (`expected-status` annotations), as written. */
  readonly expectedStatuses: readonly string[];
  /** Its execution attachments, as Playwright hands them over (inline or, after a merge, maybe as a file). */
  readonly attachments: readonly { readonly body: Buffer | undefined; readonly path: string | undefined }[];
}

/**
 * Playwright reporter that writes `quality-summary.json` from the execution
 * records the tests attach (with `recordExecution` or the recording fixtures
 * of `quality-evidence/test`), and accounts for every API call the tests
 * sent: Playwright reports each one as a `pw:api` step, so a call that no
 * record accounts for is counted as unrecorded, or, when it got no response,
 * recorded from the step itself.
 *
 * It collects in the hooks and does the work in `onEnd`, through the same
 * validate, normalise, summarise, format and atomic-write code as the
 * standalone runner. Every attempt of every test counts: a retried test's
 * first failure is evidence too. If the report cannot be made, the run is
 * marked failed and the reason goes to stderr.
 */
export default class QualityEvidenceReporter implements Reporter {
  private readonly settings: ReporterSettings;
  private readonly listing: boolean;
  private readonly attempts: Attempt[] = [];
  private rootSuite: Suite | undefined;
  private quiet: boolean;
  /** The budgets and baseline, loaded before the run; undefined when they could not be checked early (the run's end loads them). */
  private readonly judgement: Judgement | undefined;

  constructor(options: QualityEvidenceReporterOptions = {}) {
    const rawOptions = options as Readonly<Record<string, unknown>>;
    // The reporter is an outermost program, so it may read the real environment.
    this.settings = resolveReporterSettings(rawOptions, process.env, process.cwd());
    this.quiet = this.settings.quiet;
    // `playwright test --list` runs no test: there is no evidence to write.
    this.listing = isListingRun(rawOptions);
    // The budgets file, the baseline and the report's destination are checked now, before any test runs (see checkBeforeRun).
    const configDir = typeof rawOptions['configDir'] === 'string' ? rawOptions['configDir'] : process.cwd();
    const destination = { outputPath: this.settings.outputPath, formats: this.settings.formats, reads: judgementFiles(this.settings) };
    this.judgement = this.listing ? undefined : checkBeforeRun(judgementSettingsOf(this.settings), destination, configDir, process.cwd());
    for (const warning of this.settings.ignoredOptions) process.stderr.write(`quality-evidence reporter: warning: ${escapeControlCharacters(warning)}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.rootSuite = suite;
    // `playwright test --quiet` silences reporters' own output too.
    if ((config as { quiet?: boolean }).quiet === true) this.quiet = true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const attachments = result.attachments
      .filter((attachment) => attachment.contentType === EXECUTION_CONTENT_TYPE)
      .map(({ body, path }) => ({ body, path }));
    this.attempts.push({
      test,
      retry: result.retry,
      status: result.status,
      calls: apiCallsOf(result.steps),
      attachments,
      expectedStatuses: expectedStatusAnnotations(test, result),
    });
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    if (this.listing) return undefined;
    try {
      const judgement = this.judgement ?? (await loadJudgement(this.settings, nodeFileSystem));
      // A bad record is named by the test that attached it.
      const intake = new RecordIntake(this.settings, { schema: executionRecordSchema, noun: 'recorded execution' });
      // Failed executions per endpoint: all of them, and those from attempts that a later attempt of the same test made good.
      const failures = new Map<string, { all: number; retriedAway: number }>();
      const lastPassingRetry = new Map<TestCase, number>();
      for (const { test, retry, status } of this.attempts) {
        if (status === test.expectedStatus) lastPassingRetry.set(test, Math.max(retry, lastPassingRetry.get(test) ?? -1));
      }
      const unrecordedByFile = new Map<string, number>();
      const unrecordedEndpoints = new Set<string>();
      // In a fixed order (by test, then attempt), not the order workers finished in: ties stay the same on every run, sharded or not.
      for (const attempt of [...this.attempts].sort(compareAttempts)) {
        const records = await Promise.all(attempt.attachments.map(readRecord));
        const account = accountForCalls(attempt.calls, records.map(recordedCallOf), attempt.test.parent.project()?.use.baseURL);
        const location = { kind: 'test', title: titleOf(attempt.test), attempt: attempt.retry + 1 } as const;
        const expected = expectedSetOf(attempt);
        // A later attempt of the same test ended as the test expects: this attempt is one the test retried away.
        const retriedAway = (lastPassingRetry.get(attempt.test) ?? -1) > attempt.retry;
        const count = (endpoint: string, failed: boolean): void => {
          if (!failed) return;
          const tally = failures.get(endpoint) ?? { all: 0, retriedAway: 0 };
          tally.all++;
          if (retriedAway) tally.retriedAway++;
          failures.set(endpoint, tally);
        };
        // The recording fixture's records (they carry the call) and the calls rebuilt from steps have endpoints derived from URLs.
        for (const record of records) intake.take(record, () => location, { derivedFromUrl: recordedCallOf(record).call !== undefined, alsoExpected: expected }, count);
        for (const call of account.noResponse) intake.take(noResponseRecord(call), () => location, { derivedFromUrl: true, alsoExpected: expected }, count);
        if (account.unrecorded.length > 0) {
          const file = attempt.test.location.file;
          unrecordedByFile.set(file, (unrecordedByFile.get(file) ?? 0) + account.unrecorded.length);
          for (const endpoint of account.unrecorded) unrecordedEndpoints.add(endpoint);
        }
      }
      const unrecordedCount = [...unrecordedByFile.values()].reduce((sum, count) => sum + count, 0);
      const context = {
        ...this.settings,
        unrecordedCalls: { count: unrecordedCount, endpoints: [...unrecordedEndpoints].sort(compareCodeUnits) },
        tests: countTests(this.rootSuite),
        runStatus: result.status,
        flakyEndpoints: [...failures]
          .filter(([, tally]) => tally.all === tally.retriedAway)
          .map(([endpoint]) => endpoint)
          .sort(compareCodeUnits),
      };
      intake.validation.throwIfInvalid();
      const report = judgeReport(buildReport(intake.accumulator.result(), context), judgement);
      const { files, stepSummaryProblem } = await writeReport(nodeFileSystem, report, {
        outputPath: this.settings.outputPath,
        formats: this.settings.formats,
        stepSummaryPath: stepSummaryPathOf(process.env),
        reads: judgementFiles(this.settings),
      });
      // Each spec file with unrecorded calls is read once, to tell which file takes test from @playwright/test.
      const unrecordedSpecs = await Promise.all([...unrecordedByFile].map(async ([spec, count]) => ({ spec, count, source: await testSourceOfFile(spec) })));
      this.warn(report, unrecordedCallHints(unrecordedSpecs, process.cwd()));
      if (stepSummaryProblem !== undefined) process.stderr.write(`quality-evidence reporter: warning: ${stepSummaryProblem}\n`);
      if (!this.quiet) process.stdout.write(`${formatHeadline(report, files.map((file) => displayPath(file, process.cwd())))}\n`);
      if (report.budgets === undefined || report.budgets.passed) return undefined;
      // A breached budget fails the run, as a failing test does; the report is written all the same.
      const breaches = describeBreaches(report.budgets);
      if (breaches !== undefined) process.stderr.write(`quality-evidence reporter: ${breaches}\n`);
      // An interrupted or timed-out run has failed already, with its own exit code (130 for Ctrl-C): it keeps it.
      return isIncompleteRun(result.status) ? undefined : { status: 'failed' };
    } catch (error) {
      process.stderr.write(`quality-evidence reporter: no report was written: ${error instanceof Error ? error.message : String(error)}\n`);
      return { status: 'failed' };
    }
  }

  /** What a reader must know about the evidence: calls it leaves out, calls that got no answer, a run that recorded nothing. */
  private warn(report: QualityReport, unrecordedHints: readonly string[]): void {
    const lines: string[] = [];
    const unrecorded = report.unrecordedCallCount ?? 0;
    if (unrecorded > 0) {
      const sent = report.executionCount + unrecorded;
      lines.push(`quality-evidence reporter: ${countOf(unrecorded, 'API call')} of ${sent} ${unrecorded === 1 ? 'was' : 'were'} not recorded, so the report leaves ${unrecorded === 1 ? 'it' : 'them'} out:`);
      lines.push(...unrecordedHints);
    }
    if (report.noResponseCount > 0) {
      lines.push(
        `quality-evidence reporter: ${countOf(report.noResponseCount, 'API call')} got no response (${countOf(report.noResponseEndpoints.length, 'endpoint')}); is the server under test running?`,
      );
    }
    if (isIncompleteRun(report.runStatus)) {
      lines.push(`quality-evidence reporter: ${describeIncompleteRun(report)}: the report holds only what ran, and gets no passing verdict`);
    }
    const ran = report.tests === undefined ? 0 : report.tests.total - report.tests.skipped;
    if (ran > 0 && report.executionCount === 0 && unrecorded === 0) {
      lines.push(`quality-evidence reporter: ${countOf(ran, 'test')} ran and no API call was recorded: use the request fixture of quality-evidence/test, or recordExecution`);
    }
    if (lines.length > 0) process.stderr.write(`${lines.join('\n')}\n`);
  }
}

async function readRecord({ body, path }: Attempt['attachments'][number]): Promise<unknown> {
  const text = body?.toString('utf8') ?? (path === undefined ? '' : await readFile(path, 'utf8'));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: hand validation a value it will reject, so the message names the test.
    return text;
  }
}

function recordedCallOf(record: unknown): RecordedCall {
  if (typeof record !== 'object' || record === null) return { endpoint: '' };
  const { endpoint, call } = record as { endpoint?: unknown; call?: unknown };
  const written =
    typeof call === 'object' && call !== null && typeof (call as { method?: unknown }).method === 'string' && typeof (call as { url?: unknown }).url === 'string'
      ? (call as { method: string; url: string })
      : undefined;
  return { endpoint: typeof endpoint === 'string' ? endpoint : '', call: written };
}

function noResponseRecord({ endpoint, errorCode, responseTimeMs }: NoResponseCall): unknown {
  return { errorCode, endpoint, responseTimeMs };
}

function compareAttempts(a: Attempt, b: Attempt): number {
  const { file: fileA, line: lineA, column: columnA } = a.test.location;
  const { file: fileB, line: lineB, column: columnB } = b.test.location;
  return (
    compareCodeUnits(fileA, fileB) ||
    lineA - lineB ||
    columnA - columnB ||
    compareCodeUnits(a.test.titlePath().join('\u0000'), b.test.titlePath().join('\u0000')) ||
    a.retry - b.retry
  );
}

const EXPECTED_STATUS_ANNOTATION = 'expected-status';

// Annotations given in the test's details are on the test; those added while it ran, on the result (Playwright 1.52 and later).
function expectedStatusAnnotations(test: TestCase, result: TestResult): string[] {
  const annotations = [...test.annotations, ...((result as { annotations?: TestCase['annotations'] }).annotations ?? [])];
  const lists = annotations.filter((annotation) => annotation.type === EXPECTED_STATUS_ANNOTATION).map((annotation) => annotation.description ?? '');
  return [...new Set(lists)];
}

/** The statuses an attempt's test declares expected, or undefined; a malformed list fails the report, naming the test. */
function expectedSetOf(attempt: Attempt): StatusSet | undefined {
  if (attempt.expectedStatuses.length === 0) return undefined;
  const parsed = parseStatusList(attempt.expectedStatuses.join(','));
  if ('problem' in parsed) {
    throw new ConfigurationError([
      { variable: `the "${EXPECTED_STATUS_ANNOTATION}" annotation of test "${escapeControlCharacters(titleOf(attempt.test))}"`, message: parsed.problem },
    ]);
  }
  return parsed.set;
}

// Only what a judgement needs crosses to the worker that checks it.
function judgementSettingsOf({ budgets, budgetsSource, baselinePath }: JudgementSettings): JudgementSettings {
  return { budgets, budgetsSource, baselinePath };
}

/** A test's title path as messages and the report name it: `orders.spec.ts › lists orders`. */
function titleOf(test: TestCase): string {
  return test.titlePath().filter(Boolean).join(' › ');
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
