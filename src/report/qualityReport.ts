import { z } from 'zod';
import type { RecordSummary } from '../summary/summariseExecutions.js';

/** Version of the report format; raised on any incompatible change. */
export const REPORT_SCHEMA_VERSION = 1;

/** What ran in a Playwright run, written by the reporter beside the execution summary. */
export const testCountsSchema = z.object({
  total: z.int().min(0).meta({ description: 'Tests in the run, each counted once however often it was retried' }),
  passed: z.int().min(0).meta({ description: 'Tests whose outcome was as expected: passed (or, under test.fail(), failed as declared)' }),
  failed: z.int().min(0).meta({ description: 'Tests that failed or timed out on their last attempt' }),
  flaky: z.int().min(0).meta({ description: 'Tests that failed, then passed on a retry' }),
  skipped: z.int().min(0).meta({ description: 'Tests that were skipped, or did not run (an interrupted run)' }),
});

export type TestCounts = z.infer<typeof testCountsSchema>;

/** `quality-summary.json`, as written by the runner and by the reporter. */
export const qualityReportSchema = z
  .object({
    schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
    environment: z.string().meta({ description: 'Name of the target environment' }),
    slowResponseThresholdMs: z.int().min(0).meta({ description: 'Executions strictly slower than this are slow' }),
    executionCount: z.int().min(0).meta({ description: 'Executions recorded, including calls that got no response' }),
    failedExecutionCount: z.int().min(0).meta({ description: 'Executions answered with a status code of 400 or above, or with no response at all' }),
    slowExecutionCount: z.int().min(0).meta({ description: 'Executions strictly slower than slowResponseThresholdMs (for a call with no response: the time until it failed)' }),
    failureCountByEndpoint: z.record(z.string(), z.int().min(1)).meta({ description: 'Failed executions per endpoint; endpoints without failures do not appear' }),
    slowEndpoints: z.array(z.string()).meta({ description: 'Endpoints with at least one slow execution, each once, in code-unit order' }),
    noResponseCount: z.int().min(0).meta({ description: 'Executions that got no response (connection refused, DNS failure, timeout, reset); they count as failed too' }),
    noResponseEndpoints: z.array(z.string()).meta({ description: 'Endpoints with at least one execution that got no response, each once, in code-unit order' }),
    skippedAssetCount: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Only when a HAR file was read: entries for page assets (documents, scripts, styles, images, fonts, media) left out' }),
    unrecordedCallCount: z
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Only in reports written by the Playwright reporter: API calls the tests sent that no execution record accounts for' }),
    unrecordedEndpoints: z
      .array(z.string())
      .optional()
      .meta({ description: 'Only in reports written by the Playwright reporter: endpoints of the unrecorded calls, ids templated as :id, each once, in code-unit order' }),
    tests: testCountsSchema.optional().meta({ description: 'Only in reports written by the Playwright reporter' }),
  })
  .strict()
  .meta({ title: 'QualityReport' });

export type QualityReport = z.infer<typeof qualityReportSchema>;

/** API calls that the tests sent and no execution record accounts for (Playwright reporter only). */
export interface UnrecordedCalls {
  readonly count: number;
  /** Templated endpoint labels, unique, in code-unit order. */
  readonly endpoints: readonly string[];
}

/** What the report says about where and how the summary was computed. */
export interface ReportContext {
  readonly environment: string;
  readonly slowResponseThresholdMs: number;
  /** Present only when a HAR file was read: its asset entries left out. */
  readonly skippedAssetCount?: number;
  /** Present only in reports from the Playwright reporter. */
  readonly unrecordedCalls?: UnrecordedCalls;
  /** Present only in reports from the Playwright reporter. */
  readonly tests?: TestCounts;
}

/** Assembles the report with its keys in a fixed order. */
export function buildReport(summary: RecordSummary, context: ReportContext): QualityReport {
  const report: QualityReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    environment: context.environment,
    slowResponseThresholdMs: context.slowResponseThresholdMs,
    executionCount: summary.executionCount,
    failedExecutionCount: summary.failedExecutionCount,
    slowExecutionCount: summary.slowExecutionCount,
    failureCountByEndpoint: { ...summary.failureCountByEndpoint },
    slowEndpoints: [...summary.slowEndpoints],
    noResponseCount: summary.noResponseCount,
    noResponseEndpoints: [...summary.noResponseEndpoints],
  };
  if (context.skippedAssetCount !== undefined) report.skippedAssetCount = context.skippedAssetCount;
  if (context.unrecordedCalls !== undefined) {
    report.unrecordedCallCount = context.unrecordedCalls.count;
    report.unrecordedEndpoints = [...context.unrecordedCalls.endpoints];
  }
  if (context.tests !== undefined) report.tests = { ...context.tests };
  return report;
}

/** The report file's bytes: JSON, 2-space indent, trailing newline, no timestamps. */
export function formatReport(report: QualityReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
