import type { QualityReport } from '../qualityReport.js';
import { REPORT_SECTIONS } from '../sections/index.js';
import { code } from '../sections/markdownParts.js';
import type { MarkdownContext, MarkdownLimits } from '../sections/reportSection.js';
import { formatCount } from './presentation.js';

/** The Markdown written whole: every section. */
const FULL_LIMITS: MarkdownLimits = { endpoints: 50, budgets: 50, changes: 50, failingEndpoints: 20, operations: 50, everySection: true };

/** The Markdown cut to fit: what a reviewer needs first (the headline, the comparison, budgets, the worst endpoints and their failed calls). */
const CUT_LIMITS: MarkdownLimits = { endpoints: 20, budgets: 20, changes: 20, failingEndpoints: 10, operations: 0, everySection: false };

/**
 * The most bytes the Markdown of the job summary may take: 256 KiB, a
 * quarter of what GitHub accepts in one step's job summary (1 MiB), so that
 * other steps' summaries fit beside it. Past it, the Markdown is cut (see
 * CUT_LIMITS) and says so; the .md file beside the report is written whole.
 */
export const MARKDOWN_BYTE_LIMIT = 256 * 1024;

/** What the Markdown may say about the report around it. */
export interface MarkdownOptions {
  /** The JSON report's file name, for "see quality-summary.json"; default `quality-summary.json`. */
  readonly reportName?: string | undefined;
  /** The most bytes the Markdown may take; default {@link MARKDOWN_BYTE_LIMIT}. */
  readonly byteLimit?: number | undefined;
  /** The traceUrlTemplate setting: each failed call's, slow call's and failed test's trace id links to its trace; without it, the id as code. */
  readonly traceUrlTemplate?: string | undefined;
  /** The history page written beside the report, relative to the report's folder: the history line links to it. */
  readonly dashboardHref?: string | undefined;
}

/**
 * `quality-summary.md`, and what a run appends to the GitHub job summary:
 * a headline with the verdict, the budgets, the worst endpoints, the
 * slowest executions, the changes against the baseline, flaky endpoints and
 * calls with no response. GitHub-flavoured Markdown; every label and other
 * text from input is a code span, so no `|`, backtick or markup in a path
 * can break a table or become a link. Each section's lines come from its
 * module in src/report/sections/, in the order of REPORT_SECTIONS.
 */
export function renderMarkdown(
  report: QualityReport,
  { reportName = 'quality-summary.json', byteLimit = MARKDOWN_BYTE_LIMIT, traceUrlTemplate, dashboardHref }: MarkdownOptions = {},
): string {
  const full = renderWith(report, { reportName, limits: FULL_LIMITS, traceUrlTemplate, dashboardHref });
  if (Buffer.byteLength(full) <= byteLimit) return full;
  const cut = renderWith(report, { reportName, limits: CUT_LIMITS, traceUrlTemplate, dashboardHref });
  const base = reportName.replace(/\.json$/i, '');
  const note =
    `✂️ This summary is cut to fit GitHub's job summary (over ${formatCount(Math.floor(byteLimit / 1024))} KiB in full): ` +
    'it keeps the headline, the comparison, the budgets and the worst endpoints, ' +
    'and leaves out the rest of the endpoints, the contract, the slowest executions and the lists. ' +
    `The whole summary is in ${code(`${base}.md`)}, every number in ${code(reportName)} and ${code(`${base}.html`)}.`;
  const text = `${cut}\n${note}\n`;
  // Labels are at most 200 characters and the cut tables short, so this holds; should it not, the last lines go, never a half line.
  if (Buffer.byteLength(text) <= byteLimit) return text;
  const lines = cut.split('\n');
  while (lines.length > 0 && Buffer.byteLength(`${lines.join('\n')}\n${note}\n`) > byteLimit) lines.pop();
  return `${lines.join('\n')}\n${note}\n`;
}

/** The Markdown of every section in order; when cut, only the sections kept when cut. */
function renderWith(report: QualityReport, context: MarkdownContext): string {
  const kept = REPORT_SECTIONS.filter((section) => context.limits.everySection || section.keptWhenCut);
  const lines = kept.flatMap((section) => section.markdown?.(report, context) ?? []);
  return `${lines.join('\n')}\n`;
}
