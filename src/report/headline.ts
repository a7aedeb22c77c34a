import type { QualityReport } from './qualityReport.js';

/** A count and its noun, in the plural when it is not 1, with thousands separators: `1,204 executions`. */
export function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * The one line a run ends with, for people and CI logs: the headline
 * numbers and where the report is. The command and the reporter both print it.
 */
export function formatHeadline(report: QualityReport, shownPath: string): string {
  const count = (value: number) => value.toLocaleString('en-US');
  const numbers = [
    countOf(report.executionCount, 'execution'),
    `${count(report.failedExecutionCount)} failed`,
    `${count(report.slowExecutionCount)} slow`,
    `${count(report.noResponseCount)} with no response`,
  ];
  if ((report.unrecordedCallCount ?? 0) > 0) numbers.push(`${countOf(report.unrecordedCallCount ?? 0, 'call')} not recorded`);
  if ((report.skippedAssetCount ?? 0) > 0) numbers.push(`${countOf(report.skippedAssetCount ?? 0, 'asset')} left out`);
  return `quality-evidence: ${numbers.join(', ')}; report written to ${shownPath}`;
}
