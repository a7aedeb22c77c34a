import type { QualityReport } from '../qualityReport.js';

/**
 * The sections of the Markdown and HTML reports, in the one order both walk
 * them (`REPORT_SECTIONS` in ./index.ts): a new section gets its id here, at
 * the place it takes in both renderings. Most actionable first: the
 * headline (server errors lead its numbers), what is new and wrong (the
 * page's list of it), the failed tests and the failed calls, then the
 * verdicts and comparisons, then every endpoint and the latency chart.
 */
export const SECTION_IDS = [
  'headline',
  'attention',
  'failedTests',
  'failedCalls',
  'hint',
  'budgets',
  'baseline',
  'history',
  'sources',
  'endpoints',
  'chart',
  'contract',
  'slowest',
  'flaky',
  'noResponse',
  'unrecorded',
  'footnote',
] as const;

export type SectionId = (typeof SECTION_IDS)[number];

/**
 * How many rows each part of the Markdown lists: endpoints worst first (and
 * each list of endpoints), budgets breached first, baseline changes
 * regressions first, failing endpoints, operations of the contract.
 */
export interface MarkdownLimits {
  readonly endpoints: number;
  readonly budgets: number;
  readonly changes: number;
  readonly failingEndpoints: number;
  readonly operations: number;
  /** Whether every section is written, or only those kept when the Markdown is cut ({@link ReportSection.keptWhenCut}). */
  readonly everySection: boolean;
}

/** What a section's Markdown may know of the rendering: the JSON report's file name, how much to list, how to link a trace. */
export interface MarkdownContext {
  readonly reportName: string;
  readonly limits: MarkdownLimits;
  /** The traceUrlTemplate setting: each trace id is linked to its trace with it (see ./traceParts.ts). */
  readonly traceUrlTemplate?: string | undefined;
  /** The history page written with the report (dashboardPath), a relative URL from the report's folder, its
   * path segments percent-encoded: the headline links to it. */
  readonly dashboardHref?: string | undefined;
}

/**
 * How many rows the page lists: endpoints worst first (the chart, the table
 * and each list), budgets breached first, baseline changes, failing
 * endpoints in the failed calls' table.
 */
export interface HtmlLimits {
  readonly endpoints: number;
  readonly budgets: number;
  readonly changes: number;
  readonly failingEndpoints: number;
}

/** What a section's HTML may know of the rendering: the JSON report's file name, how much to list, how to link a trace. */
export interface HtmlContext {
  readonly reportName: string;
  readonly limits: HtmlLimits;
  /** The traceUrlTemplate setting: each trace id is linked to its trace with it (see ./traceParts.ts). */
  readonly traceUrlTemplate?: string | undefined;
  /** The history page written with the report (dashboardPath), a relative URL from the report's folder, its
   * path segments percent-encoded: the headline links to it. */
  readonly dashboardHref?: string | undefined;
}

/**
 * One section of the report, in both renderings. A section gives only one
 * of them where the other shows that evidence elsewhere (said on the
 * section); each returns nothing when the report has nothing to say there.
 */
export interface ReportSection<Id extends SectionId = SectionId> {
  readonly id: Id;
  /** Whether the Markdown cut to fit GitHub's job summary keeps this section: what a reviewer needs first. The page is never cut. */
  readonly keptWhenCut: boolean;
  /** The section's Markdown lines, a section after the first starting with a blank line; none to leave it out. */
  readonly markdown?: (report: QualityReport, context: MarkdownContext) => readonly string[];
  /** The section's HTML, one piece of the page's `<main>`; '' to leave it out. */
  readonly html?: (report: QualityReport, context: HtmlContext) => string;
}
