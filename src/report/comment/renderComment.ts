import {
  baselineNumbers,
  comparisonHeadline,
  describeTests,
  headlineNumbers,
  contractCoverageChange,
  countOf,
  formatChangePercent,
  formatCount,
  formatCountChange,
  formatCoverage,
  formatMs,
  formatPValue,
  formatRateChange,
  SIGNIFICANCE_METHOD,
} from '../renderers/presentation.js';
import { statusSet } from '../../records/statusList.js';
import {
  conditionCoverageText,
  contractCoverageChangeText,
  newlyMetConditionParts,
  noLongerMetConditionParts,
} from '../renderers/conditionPresentation.js';
import { CONDITION_CHANGE_LIMIT, CONTRACT_CHANGE_LIMIT } from '../reportLimits.js';
import { markdownOf } from '../sections/contractConditions.js';
import { code, row } from '../sections/markdownParts.js';
import { flakinessWords } from '../sections/history.js';
import { attentionMarkdown } from '../sections/attention.js';
import { traceMarkdown } from '../sections/traceParts.js';
import { changeRowsMarkdown, changesLineMarkdown, CHANGES_TABLE_HEAD } from '../sections/contractChanges.js';
import {
  entriesOfChange,
  findingsOf,
  hasNothingToReport,
  improvementCount,
  regressionCount,
  STATUS_AND_CONTRACT_REGRESSIONS,
  type CommentFindings,
  type ComparedReport,
  type Finding,
  type ReportEndpoint,
  type StatusOrContractChange,
} from './commentFindings.js';

/**
 * The pull-request comment: a report's comparison with its base, written for
 * the reviewer. The hidden marker first (it finds the comment again on the
 * next push), the headline and the base it compared with, the regressions,
 * then the improvements, then what held, folded; a link to the run's
 * artifacts. Always within GitHub's limit for a comment body, regressions
 * kept first: what does not fit is counted, and the note says where it is.
 */

/** GitHub's longest comment body, in characters (GitLab's notes take a million). */
export const COMMENT_LIMIT_CHARACTERS = 65_536;

/** How a comment is written. */
export interface CommentOptions {
  /** The environment the marker and the title name: the report's own, unless the command was told another. */
  readonly environment: string;
  /** Where the run's artifacts are (its CI run's page), when CI says; the comment links to it. */
  readonly artifactsUrl?: string | undefined;
  /** The longest body, in UTF-16 code units (never fewer characters); default {@link COMMENT_LIMIT_CHARACTERS}. */
  readonly limitCharacters?: number | undefined;
  /** The traceUrlTemplate setting: a failing endpoint's failed calls link to their traces with it; without it, their trace ids as code. */
  readonly traceUrlTemplate?: string | undefined;
}

/** A comment, written. */
export interface RenderedComment {
  /** The Markdown body, its first line the marker. */
  readonly body: string;
  /** The hidden first line that identifies the comment of this environment: `<!-- quality-evidence:staging -->`. */
  readonly marker: string;
  /**
   * No regression and no improvement ({@link hasNothingToReport}), and no breaking change or warning to the contract: an
   * earlier comment is updated to say so, and none is created.
   */
  readonly nothingToReport: boolean;
  /** Entries of the report (endpoints, statuses, operations) left out of the body to keep within the limit. */
  readonly leftOut: number;
  readonly findings: CommentFindings;
}

/**
 * The marker of an environment's comment: the environment URI-encoded, so
 * that no name can end the HTML comment early or span two lines. A name
 * longer than 100 characters encoded is cut there and told apart by a hash
 * of the whole (FNV-1a, 32 bits), so the marker stays short.
 */
export function commentMarker(environment: string): string {
  const encoded = encodeURIComponent(environment);
  const shown = encoded.length <= MARKER_NAME_LENGTH ? encoded : `${encoded.slice(0, MARKER_NAME_LENGTH)}~${fnv1a(encoded)}`;
  return `<!-- quality-evidence:${shown} -->`;
}

const MARKER_NAME_LENGTH = 100;

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

/** Writes the comment of a report that holds a `baseline` section. */
export function renderComment(report: ComparedReport, options: CommentOptions): RenderedComment {
  const limit = options.limitCharacters ?? COMMENT_LIMIT_CHARACTERS;
  const findings = findingsOf(report);
  const changes = report.contract?.changes;
  // A breaking change or a warning to the contract is something to report, with no regression beside it.
  const nothingToReport =
    hasNothingToReport(findings) && (changes === undefined || changes.summary.breaking + changes.summary.warning === 0);
  const marker = commentMarker(options.environment);
  const comparison = report.baseline;
  // What is wrong in the run itself leads, whatever the base had: its numbers, its server errors by endpoint, its failed tests by name.
  const head = [marker, `### API changes against the base · ${code(options.environment)}`, '', `**This run**: ${thisRun(report)}`];
  const wrong = attentionMarkdown(report, ['serverErrors', 'failedTests'], options.traceUrlTemplate);
  if (wrong.length > 0) head.push('', ...wrong);
  head.push('', `**${comparisonHeadline(comparison)}**`, '', `${comparedWith(report)} · ${baselineNumbers(comparison)}`);
  if (comparison.contract !== undefined) {
    head.push('', `**Contract**: ${contractLine(report, comparison.contract)}`);
    const notCompared = notComparedLine(comparison.contract);
    if (notCompared !== undefined) head.push('', notCompared);
  }
  if (changes !== undefined) head.push('', changesLineMarkdown(changes, report.tests !== undefined));
  if (findings.flakyAcrossRuns !== undefined) head.push('', flakyAcrossRunsLine(findings.flakyAcrossRuns));
  if (nothingToReport) head.push('', nothingToReportLine(report));
  const where = options.artifactsUrl === undefined ? "the run's artifacts" : `[the run's artifacts](${options.artifactsUrl})`;
  const sections: Section[] = [
    {
      open: [`#### Regressions (${formatCount(regressionCount(findings))})`],
      blocks: [
        {
          name: ['endpoint regression', 'endpoint regressions'],
          head: CHANGE_HEAD,
          rows: findings.regressions.map((finding) => one(changeRow(finding, report, options.traceUrlTemplate))),
        },
        {
          name: ['status or contract regression', 'status or contract regressions'],
          head: STATUS_OR_CONTRACT_HEAD,
          rows: findings.statusAndContractRegressions.map(statusOrContractRow),
        },
      ],
      close: [],
    },
    {
      open: [`#### Contract changes (${countOf(changes?.summary.breaking ?? 0, 'breaking change')})`],
      blocks: [
        {
          name: ['contract change', 'contract changes'],
          head: CHANGES_TABLE_HEAD,
          rows: changes === undefined ? [] : changeRowsMarkdown(changes).map(one),
        },
      ],
      close: [],
    },
    {
      open: [`#### Improvements (${formatCount(improvementCount(findings))})`],
      blocks: [
        {
          name: ['endpoint improvement', 'endpoint improvements'],
          head: CHANGE_HEAD,
          rows: findings.improvements.map((finding) => one(changeRow(finding, report))),
        },
        {
          name: ['status or contract improvement', 'status or contract improvements'],
          head: STATUS_OR_CONTRACT_HEAD,
          rows: findings.statusAndContractImprovements.map(statusOrContractRow),
        },
      ],
      close: [],
    },
    {
      open: [`#### New and no longer run (${formatCount(findings.others.length)})`],
      blocks: [
        {
          name: ['new or no longer run endpoint', 'new or no longer run endpoints'],
          head: ['| Change | Endpoint | p95 before → after | n before → after |', '|---|---|---:|---:|'],
          rows: findings.others.map((finding) => one(otherRow(finding))),
        },
      ],
      close: [],
    },
    {
      open: ['<details>', `<summary>What held: ${heldSummary(findings)}</summary>`],
      blocks: [
        {
          name: ['endpoint that held', 'endpoints that held'],
          head: ['| Endpoint | Verdict | p95 before → after | n before → after | p-value |', '|---|---|---:|---:|---:|'],
          rows: findings.held.map((finding) => one(heldRow(finding))),
        },
      ],
      close: ['', '</details>'],
    },
  ];
  const tail = [
    '',
    `Every endpoint is in the report's \`baseline\` section, among ${where}.`,
    '',
    `<sub>${SIGNIFICANCE_METHOD} (level ${comparison.significanceLevel}).</sub>`,
    '',
  ];
  return { ...fitSections(head, sections, tail, limit, where), marker, nothingToReport, findings };
}

/**
 * Coverage before → after, conditions met among them where the comparison
 * holds the base's (a report of a version before condition coverage does
 * not: then this run's conditions met beside them).
 */
function contractLine(report: ComparedReport, contract: NonNullable<ComparedReport['baseline']['contract']>): string {
  if (contract.conditionCoveragePercent !== undefined) return contractCoverageChangeText(contract, report.contract);
  const conditions = report.contract === undefined ? undefined : conditionCoverageText(report.contract);
  return [contractCoverageChange(contract), ...(conditions === undefined ? [] : [conditions])].join(' · ');
}

/** The operations whose conditions the document changed since the base, not compared: `**Conditions not compared** (…): `GET /a`.` */
function notComparedLine(contract: NonNullable<ComparedReport['baseline']['contract']>): string | undefined {
  const listed = contract.conditionListChangedOperations ?? [];
  const count = contract.conditionListChangedOperationCount ?? listed.length;
  if (count === 0) return undefined;
  const shown = listed.slice(0, NOT_COMPARED_SHOWN);
  const more = count - shown.length;
  return (
    `**Conditions not compared** (${countOf(count, 'operation')}: the document changed their conditions since the base): ` +
    `${shown.map(code).join(', ')}${more > 0 ? `, and ${formatCount(more)} more` : ''}.`
  );
}

/**
 * What is flaky across runs when the base scored none (a base report written without a history, or of a version before):
 * `**Flaky across the last 30 runs** (the base scored none, so none is said to be new): `GET /a` 4 of 30 runs flaky (13%), rising.`
 */
function flakyAcrossRunsLine({ runCount, flaky }: NonNullable<CommentFindings['flakyAcrossRuns']>): string {
  const shown = flaky.slice(0, FLAKY_SHOWN).map(({ subject, test, flakiness }) => {
    const named = test ? `test ${code(subject)}` : code(subject);
    return flakiness === undefined ? named : `${named} ${flakinessWords(flakiness)}`;
  });
  const more = flaky.length - shown.length;
  return (
    `**Flaky across the last ${countOf(runCount, 'run')}** (the base scored no flakiness across runs, so none is said to be new): ` +
    `${shown.join('; ')}${more > 0 ? `; and ${formatCount(more)} more` : ''}.`
  );
}

/** The endpoints and tests flaky across runs a comment names when the base scored none; the report's baseline section lists them. */
const FLAKY_SHOWN = 10;

/** The operations a comment names whose conditions were not compared; the report's `baseline.contract` lists 100. */
const NOT_COMPARED_SHOWN = 10;

/** What a comment with nothing to report says, naming the contract where the comparison has one. */
function nothingToReportLine(report: ComparedReport): string {
  const { contract } = report.baseline;
  const conditions = contract?.noLongerMetConditions === undefined ? '' : 'no condition newly met or no longer, ';
  const held =
    contract === undefined
      ? ''
      : ' The contract held: no operation newly exercised or no longer, no status newly undeclared, ' +
        `no more or fewer bodies off their schema, ${conditions}no coverage up or down.`;
  return (
    'Nothing to report: no endpoint got slower, started failing, failed more, got a new status or became flaky, ' +
    `and none got faster, recovered or stopped being flaky.${held}`
  );
}

const one = (line: string): Row => ({ line, entries: 1 });

/** One row of a table: its line, and how many entries of the report it stands for (a row may count those the report did not list). */
interface Row {
  readonly line: string;
  readonly entries: number;
}

/** One table of a part: what one row is and what several are (for the note on what was left out), its head and its rows. */
interface Block {
  readonly name: readonly [one: string, many: string];
  readonly head: readonly string[];
  readonly rows: readonly Row[];
}

/** One part of the body: a heading, its tables, and what closes it; written only with at least one row, each table likewise. */
interface Section {
  readonly open: readonly string[];
  readonly blocks: readonly Block[];
  readonly close: readonly string[];
}

/**
 * The body with as many rows as fit, in order: a row that does not fit
 * ends the listing, so nothing later (an improvement, what held) is shown
 * while a regression is left out. Each line costs its length and a line
 * break; the note on what was left out is reserved for at its longest.
 */
function fitSections(
  head: readonly string[],
  sections: readonly Section[],
  tail: readonly string[],
  limit: number,
  where: string,
): { body: string; leftOut: number } {
  const cost = (lines: readonly string[]) => lines.reduce((total, line) => total + line.length + 1, 0);
  const blocks = sections.flatMap((section) => section.blocks);
  const reserve =
    leftOutNote(
      blocks,
      blocks.map((block) => entriesIn(block)),
      where,
    ).length + 2;
  let used = cost(head) + cost(tail) + reserve;
  const shown = sections.map((section) => section.blocks.map(() => 0));
  let full = false;
  for (const [index, section] of sections.entries()) {
    for (const [blockIndex, block] of section.blocks.entries()) {
      for (const { line } of block.rows) {
        const sectionOpen = shown[index]!.some((count) => count > 0);
        const opening =
          (sectionOpen ? 0 : cost(['', ...section.open]) + cost(section.close)) +
          (shown[index]![blockIndex] === 0 ? cost(['', ...block.head]) : 0);
        const needed = opening + line.length + 1;
        if (used + needed > limit) {
          full = true;
          break;
        }
        used += needed;
        shown[index]![blockIndex]!++;
      }
      if (full) break;
    }
    if (full) break;
  }
  const lines = [...head];
  for (const [index, section] of sections.entries()) {
    if (!shown[index]!.some((count) => count > 0)) continue;
    lines.push('', ...section.open);
    for (const [blockIndex, block] of section.blocks.entries()) {
      const count = shown[index]![blockIndex]!;
      if (count > 0) lines.push('', ...block.head, ...block.rows.slice(0, count).map((row) => row.line));
    }
    lines.push(...section.close);
  }
  const left = sections.flatMap((section, index) => section.blocks.map((block, blockIndex) => entriesIn(block, shown[index]![blockIndex])));
  const leftOut = left.reduce((total, count) => total + count, 0);
  if (leftOut > 0) lines.push('', leftOutNote(blocks, left, where));
  lines.push(...tail);
  return { body: lines.join('\n'), leftOut };
}

/** The entries of the report a table's rows stand for, from its `from`th row on. */
function entriesIn(block: Block, from = 0): number {
  return block.rows.slice(from).reduce((total, row) => total + row.entries, 0);
}

// `**Left out to stay within GitHub's 65,536 characters for a comment:** 2,880 endpoint regressions, 12 endpoints that held; see …`.
function leftOutNote(blocks: readonly Block[], left: readonly number[], where: string): string {
  const parts = blocks.flatMap((block, index) =>
    left[index] === 0 ? [] : [`${formatCount(left[index]!)} ${block.name[left[index] === 1 ? 0 : 1]}`],
  );
  return (
    `**Left out to stay within GitHub's ${formatCount(COMMENT_LIMIT_CHARACTERS)} characters for a comment:** ${parts.join(', ')}. ` +
    `They are in the report's \`baseline\` section, among ${where}.`
  );
}

/** `47 calls · 2 server errors · 8 failed · 0 slow · 0 with no response · 12 tests: 11 passed, 1 failed, 0 flaky, 0 skipped`. */
function thisRun(report: ComparedReport): string {
  const passing = report.passingTestFailureCount ?? 0;
  return [
    ...headlineNumbers(report),
    ...(passing === 0 ? [] : [`${countOf(passing, 'failed call')} in tests that passed`]),
    ...(report.tests === undefined ? [] : [describeTests(report.tests)]),
  ].join(' · ');
}

/** What the comparison was made with: the base commit and its run where the baseline names them. */
function comparedWith(report: ComparedReport): string {
  const { run, environment } = report.baseline;
  if (run === undefined) return `Compared with the baseline report (environment ${code(environment.before)})`;
  const commit = run.commit === undefined ? 'a run' : `the base commit ${code(run.commit.slice(0, 12))}`;
  const details = [run.branch === undefined ? undefined : `branch ${code(run.branch)}`, `run of ${run.time}`];
  return `Compared with ${commit} (${details.filter((part) => part !== undefined).join(', ')})`;
}

function heldSummary(findings: CommentFindings): string {
  const tooFew = findings.held.filter((finding) => finding.kind === 'too few samples').length;
  return `${countOf(findings.held.length - tooFew, 'endpoint')} unchanged, ${formatCount(tooFew)} with too few samples to judge`;
}

const CHANGE_HEAD = [
  '| Change | Endpoint | p50 now (change) | p95 before → after (change) | n before → after | Failed calls | Tests |',
  '|---|---|---:|---:|---:|---|---|',
];

const MARKS: Readonly<Record<string, string>> = {
  'newly failing': '🔺',
  'failing more': '🔺',
  slower: '🔺',
  recovered: '🔻',
  'failing less': '🔻',
  faster: '🔻',
};

function changeRow({ endpoint, kind, entry, now }: Finding, report: ComparedReport, traceUrlTemplate?: string): string {
  const failing = kind === 'newly failing' || kind === 'failing more';
  const traces = failing && now !== undefined ? tracesOf(now, traceUrlTemplate) : '';
  return row([
    `${MARKS[kind] ?? '•'} ${kind}`,
    code(endpoint),
    entry === undefined ? '' : `${formatMs(now?.responseTimeMs.p50 ?? null)} (${formatChangePercent(entry.latencyTest.p50ChangePercent)})`,
    entry === undefined ? '' : p95Change(entry),
    entry === undefined ? '' : formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter }),
    entry === undefined ? '' : `${failedCalls(entry, failing ? now : undefined, report)}${traces === '' ? '' : `<br>${traces}`}`,
    now === undefined ? '' : testsBehind(now, failing),
  ]);
}

const STATUS_OR_CONTRACT_HEAD = ['| Change | Endpoint or operation | What |', '|---|---|---|'];

/**
 * `| 🔺 new statuses | `GET /orders` | `409`, `503` |`: an endpoint's new
 * statuses or flakiness, or a change of the contract; `| 🔺 new undeclared
 * status | 150 more | … |` for those the report counted and did not list.
 */
function statusOrContractRow(change: StatusOrContractChange): Row {
  const mark = (STATUS_AND_CONTRACT_REGRESSIONS as readonly string[]).includes(change.kind) ? '🔺' : '🔻';
  const { subject, statuses, moreStatuses = 0, change: numbers, unlisted, condition, flakiness } = change;
  const coverage = change.kind === 'coverage up' || change.kind === 'coverage down';
  const conditionParts = change.kind === 'condition newly met' ? newlyMetConditionParts : noLongerMetConditionParts;
  const what =
    flakiness !== undefined
      ? flakinessWords(flakiness)
      : condition !== undefined
        ? `${markdownOf(conditionParts(condition))} · ${code(condition.where)}`
        : statuses !== undefined
          ? `${statuses.map(code).join(', ')}${moreStatuses > 0 ? ` and ${formatCount(moreStatuses)} more` : ''}`
          : numbers === undefined
            ? ''
            : coverage
              ? `${formatCoverage(numbers.before)} → ${formatCoverage(numbers.after)}`
              : formatCountChange(numbers);
  if (subject === undefined) {
    const either = change.kind === 'bodies off their schema changed' ? 'more or fewer; ' : '';
    const listLimit =
      change.kind === 'condition newly met' || change.kind === 'condition no longer met' ? CONDITION_CHANGE_LIMIT : CONTRACT_CHANGE_LIMIT;
    const counted = `${either}counted in the report's \`baseline.contract\`, which lists the first ${formatCount(listLimit)}`;
    return { line: row([`${mark} ${change.kind}`, `${formatCount(unlisted ?? 0)} more`, counted]), entries: entriesOfChange(change) };
  }
  const named = coverage ? subject : change.kind === 'newly flaky test across runs' ? `test ${code(subject)}` : code(subject);
  return { line: row([`${mark} ${change.kind}`, named, what]), entries: 1 };
}

function otherRow({ endpoint, kind, entry }: Finding): string {
  return row([
    kind === 'new' ? '• new' : '• no longer run',
    code(endpoint),
    entry === undefined ? '' : p95Change(entry),
    entry === undefined ? '' : formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter }),
  ]);
}

function heldRow({ endpoint, kind, entry }: Finding): string {
  return row([
    code(endpoint),
    kind,
    entry === undefined ? '' : p95Change(entry),
    entry === undefined ? '' : formatCountChange({ before: entry.latencyTest.nBefore, after: entry.latencyTest.nAfter }),
    entry === undefined ? '' : formatPValue(entry.latencyTest.pValue),
  ]);
}

function p95Change(entry: NonNullable<Finding['entry']>): string {
  return `${formatMs(entry.p95.before)} → ${formatMs(entry.p95.after)} (${formatChangePercent(entry.p95.changePercent)})`;
}

/**
 * `0 → 4 (0% → 10%): 500 ×3, no response (ECONNRESET) ×1`: the failed calls
 * before and after, and this run's by status: its statuses outside the
 * expected ones (the run's, or the endpoint's own), and its calls that got
 * no response, by error code where the report has them.
 */
function failedCalls(entry: NonNullable<Finding['entry']>, now: ReportEndpoint | undefined, report: ComparedReport): string {
  const counts = `${formatCountChange(entry.failedExecutionCount)} (${formatRateChange(entry.failureRate)})`;
  if (now === undefined || now.failedExecutionCount === 0) return counts;
  const expected = statusSet(report.expectedStatusesByEndpoint?.[now.endpoint] ?? report.expectedStatuses).table;
  const statuses: [string, number][] =
    now.latencyByStatus === undefined
      ? [
          ...Object.entries(now.statusCodes).filter(([status]) => expected[Number(status)] !== 1),
          ...(now.noResponseCount === 0 ? [] : [['no response', now.noResponseCount] as [string, number]]),
        ]
      : now.latencyByStatus.flatMap((outcome): [string, number][] =>
          outcome.statusCode === undefined
            ? [[`no response (${outcome.errorCode ?? 'unknown'})`, outcome.executionCount]]
            : expected[outcome.statusCode] === 1
              ? []
              : [[String(outcome.statusCode), outcome.executionCount]],
        );
  if (statuses.length === 0) return counts;
  return `${counts}: ${statuses.map(([status, count]) => `${code(status)} ×${formatCount(count)}`).join(', ')}`;
}

/**
 * The traces of a failing endpoint's first failed calls (server errors
 * first, as the report lists them), each trace once, three at most:
 * `[trace 4bf92f35](https://…), [trace 0af76519](https://…)`; '' when none
 * has a trace id.
 */
function tracesOf(now: ReportEndpoint, traceUrlTemplate: string | undefined): string {
  const seen = new Set<string>();
  const traces: string[] = [];
  for (const execution of now.failedExecutions ?? []) {
    if (execution.traceId === undefined || seen.has(execution.traceId) || traces.length === TRACES_SHOWN) continue;
    seen.add(execution.traceId);
    traces.push(traceMarkdown(execution, traceUrlTemplate));
  }
  return traces.join(', ');
}

/** The traces a failing endpoint's row links: the first failed calls' (the report keeps five). */
const TRACES_SHOWN = 3;

/** The tests behind an endpoint: those with failed calls for a failing one, else those that called it most; three at most. */
function testsBehind(now: ReportEndpoint, failing: boolean): string {
  const tests = (now.tests ?? []).filter((test) => !failing || test.failedCalls > 0);
  if (tests.length === 0) return '';
  const shown = tests.slice(0, TESTS_SHOWN).map((test) => code(`${test.title} (${test.file}:${test.line})`));
  const total = failing ? tests.length : (now.testCount ?? tests.length);
  const more = total - shown.length;
  return `${shown.join('<br>')}${more > 0 ? `<br>and ${countOf(more, 'more test')}` : ''}`;
}

/** The tests a row names: a reviewer needs the first few to start from; the report lists up to ten. */
const TESTS_SHOWN = 3;
