import { readFile } from 'node:fs/promises';
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import {
  RecordValidationError,
  buildQualityReport,
  formatIssueList,
  nodeFileSystem,
  writeReportAtomically,
  type ReportSettings,
  type TestCounts,
} from '../src/index.js';
import { EXECUTION_CONTENT_TYPE } from './executionAttachment.js';
import { resolveReporterSettings, type QualityEvidenceReporterOptions } from './reporterOptions.js';

/** Where a collected record came from, for messages about bad records. */
interface RecordSource {
  readonly test: TestCase;
  readonly retry: number;
}

/** One attachment of an execution record, as Playwright hands it over (inline or, after a merge, maybe as a file). */
interface PendingRecord {
  readonly source: RecordSource;
  readonly body: Buffer | undefined;
  readonly path: string | undefined;
}

/**
 * Playwright reporter that writes `quality-summary.json` from the execution
 * records the tests attach (with `recordExecution` or the recording `request`
 * fixture of `quality-evidence/test`).
 *
 * It collects in the hooks and does the work in `onEnd`, through the same
 * validate, normalise, summarise, format and atomic-write code as the
 * standalone runner. Every attempt of every test counts: a retried test's
 * first failure is evidence too. If the report cannot be made, the run is
 * marked failed and the reason goes to stderr.
 */
export default class QualityEvidenceReporter implements Reporter {
  private readonly settings: ReportSettings;
  private readonly listing: boolean;
  private readonly pending: PendingRecord[] = [];
  private rootSuite: Suite | undefined;

  constructor(options: QualityEvidenceReporterOptions = {}) {
    const rawOptions = options as Readonly<Record<string, unknown>>;
    // The reporter is an outermost program, so it may read the real environment.
    this.settings = resolveReporterSettings(rawOptions, process.env, process.cwd());
    // `playwright test --list` runs no test: there is no evidence to write.
    this.listing = rawOptions['_mode'] === 'list';
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(_config: unknown, suite: Suite): void {
    this.rootSuite = suite;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    for (const attachment of result.attachments) {
      if (attachment.contentType !== EXECUTION_CONTENT_TYPE) continue;
      this.pending.push({ source: { test, retry: result.retry }, body: attachment.body, path: attachment.path });
    }
  }

  async onEnd(_result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    if (this.listing) return undefined;
    try {
      const records = await Promise.all(this.pending.map(readRecord));
      const context = { ...this.settings, tests: countTests(this.rootSuite) };
      const { reportText } = buildQualityReport({ executions: records }, context);
      await writeReportAtomically(nodeFileSystem, this.settings.outputPath, reportText);
      return undefined;
    } catch (error) {
      process.stderr.write(`quality-evidence reporter: no report was written: ${describeFailure(error, this.pending)}\n`);
      return { status: 'failed' };
    }
  }
}

async function readRecord(pending: PendingRecord): Promise<unknown> {
  const text = pending.body?.toString('utf8') ?? (pending.path === undefined ? '' : await readFile(pending.path, 'utf8'));
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not JSON: hand validation a value it will reject, so the message names the test.
    return text;
  }
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

// A bad record's position means nothing to a person; the test that attached it does.
function describeFailure(error: unknown, pending: readonly PendingRecord[]): string {
  if (!(error instanceof RecordValidationError)) return error instanceof Error ? error.message : String(error);
  const lines = error.issues.map((issue) => {
    const source = issue.position === undefined ? undefined : pending[issue.position]?.source;
    if (source === undefined) return `${issue.path}: ${issue.message}`;
    const test = `test "${source.test.titlePath().filter(Boolean).join(' › ')}" (attempt ${source.retry + 1})`;
    return `${test}, ${issue.path.replace(/^executions\[\d+\]\.?/, '') || 'record'}: ${issue.message}`;
  });
  const verb = error.invalidRecordCount === 1 ? 'is' : 'are';
  return formatIssueList(`${error.invalidRecordCount} of ${error.recordCount} recorded executions ${verb} invalid`, lines, error.issueCount);
}
