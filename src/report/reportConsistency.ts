import { isEndpointLabel, MAX_MILLISECONDS } from '../records/recordCheck.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';
import { parseStatusList } from '../records/statusList.js';
import { bucketOf, histogramCount, mergedHistogram, type LatencyHistogram } from '../summary/latencyHistogram.js';
import type { QualityReport } from './qualityReport.js';
import { serverErrorsOf } from './buildReport.js';

/**
 * Whether a report's parts agree with each other, as every report this tool
 * writes does: the counts of each endpoint add up to its executions, its
 * times by status to its histogram, its histogram to its bounds, the
 * endpoints to the run. A report whose parts disagree (edited by hand,
 * damaged, made up) would merge into numbers that mean nothing, so `merge`
 * refuses it, naming the place; the schema has already held each value to
 * its type.
 */

/**
 * The most executions a report may count, and reports merged may add up to:
 * a trillion, far past any run (its times alone would take 8 TB), and far
 * below the largest whole number a double holds exactly (9 × 10^15), so
 * every count and sum of a merge stays exact.
 */
export const MAX_REPORT_EXECUTIONS = 1e12;

/** {@link MAX_REPORT_EXECUTIONS} as messages give it. */
export const MAX_REPORT_EXECUTIONS_TEXT = '10^12';

/** Where a report's parts disagree, and how. */
export interface Disagreement {
  readonly path: readonly PropertyKey[];
  /** The endpoint the place belongs to, when it is one's. */
  readonly endpoint?: string;
  readonly message: string;
}

type Endpoint = QualityReport['endpoints'][number];

const NOT_CANONICAL = 'is not a list of status codes in the canonical form a report gives ("100-399,404")';
const NOT_A_LABEL = 'is not an endpoint label as a report gives it ("<METHOD> <path>", the method in capitals)';

function at(path: readonly PropertyKey[], message: string): Disagreement {
  return { path, message };
}

function pastBound(path: readonly PropertyKey[], count: number): Disagreement {
  return at(path, `is ${count}, past ${MAX_REPORT_EXECUTIONS_TEXT}, the most a report may count`);
}

function sumOf(counts: Iterable<number | undefined>): number {
  let total = 0;
  for (const count of counts) total += count ?? 0;
  return total;
}

/** The first place where a report's parts disagree (see the module's comment), or undefined. */
export function reportDisagreement(report: QualityReport): Disagreement | undefined {
  // What a merge adds up besides the endpoints: each count within the bound, so that no sum of them loses a unit.
  const names = [
    'executionCount',
    'skippedAssetCount',
    'unrecordedCallCount',
    'browserCallCount',
    'mockedCallCount',
    'cachedCallCount',
    'serviceWorkerCallCount',
    'unfinishedCallCount',
  ] as const;
  const tests = Object.entries(report.tests ?? {}).map(([name, count]) => [['tests', name], count] as const);
  const counts = [...names.map((name) => [[name], report[name]] as const), ...tests];
  for (const [path, count] of counts) if (count !== undefined && count > MAX_REPORT_EXECUTIONS) return pastBound(path, count);
  const named = report.failedTests?.length ?? 0;
  if (named > (report.tests?.failed ?? 0))
    return at(['failedTests'], `names ${named} failed tests, where tests.failed is ${report.tests?.failed ?? 'absent'}`);
  const statuses = statusListProblem(report);
  if (statuses !== undefined) return statuses;
  const seen = new Set<string>();
  for (const [index, entry] of report.endpoints.entries()) {
    const { endpoint } = entry;
    if (!isEndpointLabel(endpoint) || normaliseEndpoint(endpoint) !== endpoint) return at(['endpoints', index, 'endpoint'], NOT_A_LABEL);
    if (seen.has(endpoint))
      return { path: ['endpoints', index, 'endpoint'], endpoint, message: 'names an endpoint listed before: a report lists each once' };
    seen.add(endpoint);
    const problem = endpointProblem(entry);
    if (problem !== undefined) return { ...problem, path: ['endpoints', index, ...problem.path], endpoint };
  }
  return totalProblem(report);
}

// The expected statuses a report states, in the canonical form it writes (a merge labels nothing by them, but states them again).
function statusListProblem(report: QualityReport): Disagreement | undefined {
  const canonical = (list: string): boolean => {
    const parsed = parseStatusList(list);
    return 'set' in parsed && parsed.set.text === list;
  };
  if (!canonical(report.expectedStatuses)) return at(['expectedStatuses'], NOT_CANONICAL);
  for (const [label, list] of Object.entries(report.expectedStatusesByEndpoint ?? {})) {
    const path = ['expectedStatusesByEndpoint', label];
    if (!isEndpointLabel(label) || normaliseEndpoint(label) !== label) return at(path, 'is not an endpoint label as a report gives it');
    if (!canonical(list)) return at(path, NOT_CANONICAL);
  }
  return undefined;
}

function endpointProblem(entry: Endpoint): Disagreement | undefined {
  const { executionCount, failedExecutionCount: failed, expectedErrorCount, slowExecutionCount, noResponseCount } = entry;
  if (executionCount > MAX_REPORT_EXECUTIONS) return pastBound(['executionCount'], executionCount);
  const parts = [
    ['failedExecutionCount', failed, executionCount, 'executionCount'],
    ['expectedErrorCount', expectedErrorCount, executionCount - failed, 'executionCount less failedExecutionCount'],
    ['slowExecutionCount', slowExecutionCount, executionCount, 'executionCount'],
    ['noResponseCount', noResponseCount, failed, 'failedExecutionCount (a call with no response failed)'],
    ['serverErrorCount', entry.serverErrorCount ?? 0, failed, 'failedExecutionCount'],
    ['newConnectionCount', entry.newConnectionCount ?? 0, executionCount, 'executionCount'],
    ['flakyFailedExecutionCount', entry.flakyFailedExecutionCount ?? 0, failed, 'failedExecutionCount'],
  ] as const;
  for (const [name, count, most, of] of parts) if (count > most) return at([name], `is ${count}, more than ${of} (${most})`);
  const serverErrors = entry.serverErrorCount;
  const answered5xx = sumOf(Object.entries(entry.statusCodes).map(([code, count]) => (Number(code) >= 500 ? count : 0)));
  // Every call with no response is a server error, and so is a failed 5xx; nothing else is.
  if (serverErrors !== undefined && (serverErrors < noResponseCount || serverErrors > noResponseCount + answered5xx)) {
    const message = `is ${serverErrors}, where noResponseCount is ${noResponseCount} and statusCodes count ${answered5xx} of 500 or above`;
    return at(['serverErrorCount'], message);
  }
  const withStatus = sumOf(Object.values(entry.statusCodes));
  if (withStatus + noResponseCount !== executionCount) {
    const message = `count ${withStatus} executions with a status and noResponseCount ${noResponseCount} without, where executionCount is ${executionCount}`;
    return at(['statusCodes'], message);
  }
  const times =
    histogramProblem(entry.latencyHistogram, executionCount, ['latencyHistogram']) ?? boundsProblem(entry) ?? byStatusProblem(entry);
  if (times !== undefined) return times;
  const listed = entry.failedExecutions?.length ?? 0;
  if (listed > failed) return at(['failedExecutions'], `lists ${listed} failed calls, where failedExecutionCount is ${failed}`);
  const passing = sumOf(Object.values(entry.passingTestFailures ?? {}));
  if (passing > failed) return at(['passingTestFailures'], `count ${passing} failed calls, where failedExecutionCount is ${failed}`);
  const tests = entry.tests?.length ?? 0;
  if (tests > (entry.testCount ?? 0)) return at(['testCount'], `is ${entry.testCount ?? 'absent'}, where tests lists ${tests}`);
  const { bodies, sources } = entry;
  if (bodies !== undefined) {
    const { validatedCount, schemaViolationCount, notValidatedCount } = bodies;
    const reasons = sumOf(Object.values(bodies.notValidatedReasons));
    if (schemaViolationCount > validatedCount) {
      return at(['bodies', 'schemaViolationCount'], `is ${schemaViolationCount}, more than validatedCount (${validatedCount})`);
    }
    if (reasons !== notValidatedCount)
      return at(['bodies', 'notValidatedReasons'], `count ${reasons} bodies, where notValidatedCount is ${notValidatedCount}`);
  }
  for (const name of sources === undefined ? [] : (['executionCount', 'failedExecutionCount'] as const)) {
    const sum = sources!.api[name] + sources!.browser[name];
    if (sum !== entry[name])
      return at(['sources'], `count ${sum} as ${name} of api and browser together, where the endpoint's is ${entry[name]}`);
  }
  return undefined;
}

// A histogram counts the executions it stands for.
function histogramProblem(histogram: LatencyHistogram, executionCount: number, path: readonly PropertyKey[]): Disagreement | undefined {
  const count = histogramCount(histogram);
  return count === executionCount ? undefined : at(path, `holds ${count} times, where executionCount is ${executionCount}`);
}

// The endpoint's fastest and slowest times: present, a day at most (as a record's), and where its histogram's first and last buckets are.
function boundsProblem(entry: Endpoint): Disagreement | undefined {
  const { min, max } = entry.responseTimeMs;
  if (min === null || max === null || min > max || max > MAX_MILLISECONDS) {
    return at(
      ['responseTimeMs'],
      `has min ${min} and max ${max}: each must be a time from 0 to ${MAX_MILLISECONDS} ms (a day, as a record's), min first`,
    );
  }
  const { zeroCount, bins } = entry.latencyHistogram;
  // One bucket of slack: the mapping of a time to its bucket is a logarithm, which another machine may round the other way.
  const near = (bucket: number | undefined, time: number): boolean =>
    time === 0 ? bucket === undefined : bucket !== undefined && Math.abs(bucket - bucketOf(time)) <= 1;
  if ((min === 0) !== zeroCount > 0 || (min > 0 && !near(bins[0]?.[0], min)))
    return at(['latencyHistogram'], `does not start where min (${min} ms) is`);
  return near(bins[bins.length - 1]?.[0], max) ? undefined : at(['latencyHistogram'], `does not end where max (${max} ms) is`);
}

// The times by status add up to the endpoint: one entry per status code it counts, the calls with no response by error code.
function byStatusProblem(entry: Endpoint): Disagreement | undefined {
  const byStatus = entry.latencyByStatus;
  if (byStatus === undefined)
    return at(['latencyByStatus'], 'is missing (a report of a version before 0.2): summarise its records again with this version');
  const outcomes = new Set<number | string>();
  let noResponse = 0;
  for (const [index, { statusCode, errorCode, executionCount, totalMs, latencyHistogram }] of byStatus.entries()) {
    const path = ['latencyByStatus', index];
    const outcome = statusCode ?? errorCode;
    if (outcome === undefined || (statusCode !== undefined && errorCode !== undefined))
      return at(path, 'must have a statusCode or an errorCode, and not both');
    if (outcomes.has(outcome)) return at(path, `repeats ${JSON.stringify(outcome)}: each status (or error code) has one entry`);
    outcomes.add(outcome);
    const counted = statusCode === undefined ? undefined : (entry.statusCodes[statusCode] ?? 0);
    if (counted !== undefined && counted !== executionCount) {
      return at(
        [...path, 'executionCount'],
        `is ${executionCount}, where statusCodes counts ${counted} executions of status ${statusCode}`,
      );
    }
    if (errorCode !== undefined) noResponse += executionCount;
    const problem = histogramProblem(latencyHistogram, executionCount, [...path, 'latencyHistogram']);
    if (problem !== undefined) return problem;
    if (totalMs > executionCount * MAX_MILLISECONDS) {
      return at([...path, 'totalMs'], `is ${totalMs}, more than a day for each of its ${executionCount} executions`);
    }
  }
  const missing = Object.keys(entry.statusCodes).find((code) => !outcomes.has(Number(code)));
  if (missing !== undefined) return at(['latencyByStatus'], `has no entry for status ${missing}, which statusCodes counts`);
  if (noResponse !== entry.noResponseCount) {
    return at(['latencyByStatus'], `counts ${noResponse} calls by error code, where noResponseCount is ${entry.noResponseCount}`);
  }
  const added = byStatus.length === 1 ? byStatus[0]!.latencyHistogram : mergedHistogram(byStatus.map((part) => part.latencyHistogram));
  if (sameHistogram(added, entry.latencyHistogram)) return undefined;
  return at(['latencyByStatus'], "has histograms that do not add up to the endpoint's latencyHistogram");
}

// The run's counts are its endpoints' added up, and its split by source adds up to them too.
function totalProblem(report: QualityReport): Disagreement | undefined {
  for (const name of ['executionCount', 'failedExecutionCount', 'slowExecutionCount', 'noResponseCount', 'expectedErrorCount'] as const) {
    const sum = sumOf(report.endpoints.map((entry) => entry[name]));
    if (sum !== report[name]) return at([name], `is ${report[name]}, where the endpoints' add up to ${sum}`);
  }
  if (report.serverErrorCount !== undefined) {
    const sum = sumOf(report.endpoints.map(serverErrorsOf));
    if (sum !== report.serverErrorCount)
      return at(['serverErrorCount'], `is ${report.serverErrorCount}, where the endpoints' add up to ${sum}`);
  }
  const statusCodes = new Map<string, number>();
  for (const entry of report.endpoints) {
    for (const [code, count] of Object.entries(entry.statusCodes)) statusCodes.set(code, (statusCodes.get(code) ?? 0) + count);
  }
  const codes = new Set([...statusCodes.keys(), ...Object.keys(report.statusCodes)]);
  const code = [...codes].find((key) => statusCodes.get(key) !== report.statusCodes[key]);
  if (code !== undefined) {
    return at(
      ['statusCodes', code],
      `is ${report.statusCodes[code] ?? 'absent'}, where the endpoints' add up to ${statusCodes.get(code) ?? 0}`,
    );
  }
  const { sources } = report;
  if (sources === undefined) return undefined;
  for (const name of ['executionCount', 'failedExecutionCount', 'noResponseCount', 'slowExecutionCount'] as const) {
    const sum = sources.api[name] + sources.browser[name];
    if (sum !== report[name])
      return at(['sources'], `count ${sum} as ${name} of api and browser together, where the report's is ${report[name]}`);
  }
  for (const source of ['api', 'browser'] as const) {
    const { executionCount, latencyHistogram, responseTimeMs } = sources[source];
    const problem = histogramProblem(latencyHistogram, executionCount, ['sources', source, 'latencyHistogram']);
    if (problem !== undefined) return problem;
    const { min, mean, max } = responseTimeMs;
    // The mean is rounded to the microsecond, and may pass a bound by that rounding.
    const bounded =
      executionCount === 0
        ? min === null && mean === null && max === null
        : min !== null &&
          mean !== null &&
          max !== null &&
          min <= max &&
          max <= MAX_MILLISECONDS &&
          mean >= min - 0.001 &&
          mean <= max + 0.001;
    if (!bounded)
      return at(['sources', source, 'responseTimeMs'], `has min ${min}, mean ${mean} and max ${max} for ${executionCount} executions`);
  }
  return undefined;
}

function sameHistogram(a: LatencyHistogram, b: LatencyHistogram): boolean {
  if (a.zeroCount !== b.zeroCount || a.bins.length !== b.bins.length) return false;
  return a.bins.every(([bucket, count], index) => bucket === b.bins[index]![0] && count === b.bins[index]![1]);
}
