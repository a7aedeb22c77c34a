import { baselineChanges, isRegression, type ChangeKind } from '../renderers/presentation.js';
import type { QualityReport } from '../qualityReport.js';
import type { BaselineComparison } from '../verdictSchemas.js';

/**
 * What a pull-request comment says, decided from a report's `baseline`
 * section before a word is written: the regressions, the improvements and
 * what held, each endpoint once. The renderer (./renderComment.ts) only
 * writes these down; a new kind of finding (a new status, a contract change)
 * gets its kind here and its row there.
 */

/** A report that holds a comparison with its base: what a comment is made of. */
export type ComparedReport = QualityReport & { readonly baseline: BaselineComparison };

/** One endpoint's entry of the comparison. */
export type ComparedEndpoint = BaselineComparison['endpoints'][number];

/** One endpoint of the report, with its tests and failed calls. */
export type ReportEndpoint = QualityReport['endpoints'][number];

/** What held: an endpoint the test judged unchanged, or could not judge on so few samples. */
export type HeldKind = 'unchanged' | 'too few samples';

/** Changes that are neither better nor worse: an endpoint new in this run, or one that ran only in the base. */
export type OtherKind = 'new' | 'missing';

/** One endpoint in a comment: how it changed, its comparison entry and its statistics in this run (absent for one that no longer ran). */
export interface Finding<Kind extends string = string> {
  readonly endpoint: string;
  readonly kind: Kind;
  readonly entry?: ComparedEndpoint | undefined;
  readonly now?: ReportEndpoint | undefined;
}

/** Everything a comment lists, each group in the order it is shown. */
export interface CommentFindings {
  /** Newly failing, failing more, slower: largest change first within each kind (presentation's baselineChanges). */
  readonly regressions: readonly Finding<ChangeKind>[];
  /** Recovered, failing less, faster. */
  readonly improvements: readonly Finding<ChangeKind>[];
  /** Endpoints new in this run, then those that ran only in the base. */
  readonly others: readonly Finding<OtherKind>[];
  /** Endpoints with too few samples to judge, then unchanged ones, each by label: shown folded. */
  readonly held: readonly Finding<HeldKind>[];
}

/**
 * Whether a comment has nothing to report: no regression and no
 * improvement. New endpoints and endpoints that no longer ran are listed
 * when a comment is written, but alone they make none: a pull request that
 * adds a test gets no comment for it until something it measures changes.
 */
export function hasNothingToReport(findings: CommentFindings): boolean {
  return findings.regressions.length === 0 && findings.improvements.length === 0;
}

/** The findings of a report against its base. */
export function findingsOf(report: ComparedReport): CommentFindings {
  const now = new Map(report.endpoints.map((endpoint) => [endpoint.endpoint, endpoint]));
  const regressions: Finding<ChangeKind>[] = [];
  const improvements: Finding<ChangeKind>[] = [];
  const others: Finding<OtherKind>[] = [];
  const changed = new Set<string>();
  for (const { endpoint, kind, entry } of baselineChanges(report)) {
    changed.add(endpoint);
    const finding = { endpoint, kind, entry, now: now.get(endpoint) };
    if (kind === 'new' || kind === 'missing') others.push({ ...finding, kind });
    else if (isRegression(kind)) regressions.push(finding);
    else improvements.push(finding);
  }
  // Too few samples first: an endpoint the test could not judge is named, so that no one reads it as unchanged.
  const held: Finding<HeldKind>[] = [];
  for (const kind of ['too few samples', 'unchanged'] as const)
    for (const entry of report.baseline.endpoints) {
      if (changed.has(entry.endpoint) || (entry.latencyVerdict === 'tooFewSamples') !== (kind === 'too few samples')) continue;
      held.push({ endpoint: entry.endpoint, kind, entry, now: now.get(entry.endpoint) });
    }
  return { regressions, improvements, others, held };
}
