import type { QualityReport } from '../report/qualityReport.js';
import {
  budgetSubject,
  describeIncompleteRun,
  failedStatus,
  failedWhere,
  formatBudgetLimit,
  formatCount,
  formatMeasured,
  statusesText,
} from '../report/renderers/presentation.js';
import { formatBudgetResult } from '../report/renderers/terminal.js';
import { isIncompleteRun } from '../report/buildReport.js';
import type { ExportContext } from './exportContext.js';

/**
 * The JUnit export: the gate as JUnit XML, which nearly every CI product
 * reads (the Jenkins schema: `testsuites` of `testsuite` of `testcase`).
 * One test case per budget, one per endpoint with failed calls, and, for a
 * Playwright run, one that the run completed: a breached budget, a failing
 * endpoint and an interrupted run each show as a failed test, its failure
 * carrying what was measured and the limit.
 */

/** The suites, in the order they are written. */
export const JUNIT_SUITES = { budgets: 'quality budgets', endpoints: 'endpoints with failed calls', run: 'run' } as const;

interface TestCase {
  readonly name: string;
  readonly failure?: { readonly type: string; readonly message: string; readonly text: string };
}

/** The export's text. */
export function renderJunit(report: QualityReport, context: ExportContext): string {
  const suites: { name: string; cases: TestCase[] }[] = [];
  if (report.budgets !== undefined) suites.push({ name: JUNIT_SUITES.budgets, cases: report.budgets.results.map(budgetCase) });
  suites.push({
    name: JUNIT_SUITES.endpoints,
    cases: report.endpoints.filter((entry) => entry.failedExecutionCount > 0).map((entry) => endpointCase(entry, report)),
  });
  if (report.runStatus !== undefined) suites.push({ name: JUNIT_SUITES.run, cases: [runCase(report)] });
  const timestamp = new Date(context.endedAtMs).toISOString().replace(/\.\d{3}Z$/, '');
  const time = context.startedAtMs === undefined ? 0 : Math.max(0, context.endedAtMs - context.startedAtMs) / 1000;
  const failures = (cases: readonly TestCase[]): number => cases.filter((entry) => entry.failure !== undefined).length;
  const all = suites.flatMap((suite) => suite.cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="quality-evidence" tests="${all.length}" failures="${failures(all)}" errors="0" time="${time}">`,
  ];
  suites.forEach((suite, index) => {
    lines.push(
      `  <testsuite name="${xml(suite.name)}" id="${index}" tests="${suite.cases.length}" ` +
        `failures="${failures(suite.cases)}" errors="0" skipped="0" time="${index === 0 ? time : 0}" ` +
        `timestamp="${timestamp}">`,
    );
    if (index === 0) {
      lines.push('    <properties>');
      for (const [name, value] of propertiesOf(report)) lines.push(`      <property name="${xml(name)}" value="${xml(value)}"/>`);
      lines.push('    </properties>');
    }
    for (const entry of suite.cases) {
      const open = `    <testcase classname="${xml(`quality-evidence.${suite.name}`)}" name="${xml(entry.name)}" time="0"`;
      if (entry.failure === undefined) lines.push(`${open}/>`);
      else {
        lines.push(
          `${open}>`,
          `      <failure type="${xml(entry.failure.type)}" message="${xml(entry.failure.message)}">${xmlText(entry.failure.text)}</failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  });
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

function budgetCase(result: NonNullable<QualityReport['budgets']>['results'][number]): TestCase {
  const subject = budgetSubject(result);
  const name = subject === undefined ? result.budget : `${result.budget} of ${subject}`;
  if (result.passed) return { name };
  return {
    name,
    failure: {
      type: 'budget breached',
      message: formatBudgetResult(result),
      text: [`measured: ${formatMeasured(result)}`, `limit: ${formatBudgetLimit(result)} (a measured value equal to the limit holds)`].join(
        '\n',
      ),
    },
  };
}

function endpointCase(entry: QualityReport['endpoints'][number], report: QualityReport): TestCase {
  const expected = report.expectedStatusesByEndpoint?.[entry.endpoint] ?? report.expectedStatuses;
  const listed = entry.failedExecutions ?? [];
  return {
    name: entry.endpoint,
    failure: {
      type: 'failed calls',
      message:
        `${formatCount(entry.failedExecutionCount)} of ${formatCount(entry.executionCount)} calls failed ` +
        `(limit 0: statuses expected ${expected}, every call answered)`,
      text: [
        `measured: ${formatCount(entry.failedExecutionCount)} failed calls; statuses ${statusesText(entry)}`,
        `limit: 0 failed calls (expected statuses ${expected})`,
        ...(listed.length === 0
          ? []
          : [
              `first failed calls:`,
              ...listed.map((execution) => `  ${failedStatus(execution)} in ${execution.responseTimeMs} ms · ${failedWhere(execution)}`),
            ]),
      ].join('\n'),
    },
  };
}

function runCase(report: QualityReport): TestCase {
  const name = 'the run completed, so its evidence is whole';
  if (!isIncompleteRun(report.runStatus)) return { name };
  const stopped = describeIncompleteRun(report);
  return {
    name,
    failure: {
      type: 'incomplete run',
      message: `${stopped}: the evidence is incomplete, so it passes no budget`,
      text: `measured: run status ${report.runStatus}\nlimit: passed or failed (a run that ended)`,
    },
  };
}

/** The run's facts as properties of the first suite. */
function propertiesOf(report: QualityReport): [string, string][] {
  return [
    ['environment', report.environment],
    ['executionCount', String(report.executionCount)],
    ['failedExecutionCount', String(report.failedExecutionCount)],
    ['slowExecutionCount', String(report.slowExecutionCount)],
    ['noResponseCount', String(report.noResponseCount)],
    ['endpointCount', String(report.endpoints.length)],
    ...(report.runStatus === undefined ? [] : [['runStatus', report.runStatus] as [string, string]]),
  ];
}

/**
 * Text for an element: `&`, `<` and `>` as entities, and what XML 1.0 cannot hold at all (control characters, lone surrogates,
 * U+FFFE and U+FFFF) written out as `\u{…}`.
 */
export function xmlText(text: string): string {
  const forbidden =
    // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids are what it finds
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
  return text
    .replace(forbidden, (character) => `\\u{${character.charCodeAt(0).toString(16)}}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Text for a double-quoted attribute: as {@link xmlText}, and quotes and white space kept as they are (a parser would fold a line break to a space). */
export function xml(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
