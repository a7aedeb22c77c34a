import { isEndpointLabel, MAX_MILLISECONDS } from '../records/recordCheck.js';
import { normaliseEndpoint } from '../records/normaliseExecutionRecords.js';
import { parseStatusList } from '../records/statusList.js';
import { bucketOf, histogramCount, mergedHistogram, type LatencyHistogram } from '../summary/latencyHistogram.js';
import type { QualityReport } from './qualityReport.js';

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

/** The first place where a report's parts disagree (see the module's comment), or undefined. */
export function reportDisagreement(report: QualityReport): Disagreement | undefined {
  // What a merge adds up besides the endpoints: each count within the bound, so that no sum of them loses a unit.
  const tests = Object.entries(report.tests ?? {}).map(([name, count]) => [['tests', name], count] as const);
  const names = ['executionCount', 'skippedAssetCount', 'unrecordedCallCount', 'browserCallCount', 'mockedCallCount', 'cachedCallCount', 'serviceWorkerCallCount', 'unfinishedCallCount'] as const;
  for (const [path, count] of [...names.map((name) => [[name], report[name]] as const), ...tests]) {
    if (count !== undefined && count > MAX_REPORT_EXECUTIONS) return { path, message: `is ${count}, past ${MAX_REPORT_EXECUTIONS_TEXT}, the most a report may count` };
  }
  const statuses = statusListProblem(report);
  if (statuses !== undefined) return statuses;
  const seen = new Set<string>();
  for (const [index, entry] of report.endpoints.entries()) {
    const at = (...path: PropertyKey[]): readonly PropertyKey[] => ['endpoints', index, ...path];
    if (!isEndpointLabel(entry.endpoint) || normaliseEndpoint(entry.endpoint) !== entry.endpoint) {
      return { path: at('endpoint'), message: 'is not an endpoint label as a report gives it ("<METHOD> <path>", the method in capitals)' };
    }
    if (seen.has(entry.endpoint)) return { path: at('endpoint'), endpoint: entry.endpoint, message: 'names an endpoint listed before: a report lists each once' };
    seen.add(entry.endpoint);
    const problem = endpointProblem(entry);
    if (problem !== undefined) return { ...problem, path: at(...problem.path), endpoint: entry.endpoint };
  }
  return totalProblem(report);
}

// The expected statuses a report states, in the canonical form it writes (a merge labels nothing by them, but states them again).
function statusListProblem(report: QualityReport): Disagreement | undefined {
  const canonical = (list: string): boolean => {
    const parsed = parseStatusList(list);
    return 'set' in parsed && parsed.set.text === list;
  };
  if (!canonical(report.expectedStatuses)) return { path: ['expectedStatuses'], message: 'is not a list of status codes in the canonical form a report gives ("100-399,404")' };
  for (const [label, list] of Object.entries(report.expectedStatusesByEndpoint ?? {})) {
    if (!isEndpointLabel(label) || normaliseEndpoint(label) !== label) return { path: ['expectedStatusesByEndpoint', label], message: 'is not an endpoint label as a report gives it' };
    else if (!canonical(list)) return { path: ['expectedStatusesByEndpoint', label], message: 'is not a list of status codes in the canonical form a report gives ("100-399,404")' };
  }
  return undefined;
}

function endpointProblem(entry: Endpoint): Disagreement | undefined {
  const { executionCount, failedExecutionCount, expectedErrorCount, slowExecutionCount, noResponseCount } = entry;
  if (executionCount > MAX_REPORT_EXECUTIONS) return { path: ['executionCount'], message: `is ${executionCount}, past ${MAX_REPORT_EXECUTIONS_TEXT}, the most a report may count` };
  const parts = [
    ['failedExecutionCount', failedExecutionCount, executionCount, 'executionCount'],
    ['expectedErrorCount', expectedErrorCount, executionCount - failedExecutionCount, 'executionCount less failedExecutionCount'],
    ['slowExecutionCount', slowExecutionCount, executionCount, 'executionCount'],
    ['noResponseCount', noResponseCount, failedExecutionCount, 'failedExecutionCount (a call with no response failed)'],
    ['newConnectionCount', entry.newConnectionCount ?? 0, executionCount, 'executionCount'],
    ['flakyFailedExecutionCount', entry.flakyFailedExecutionCount ?? 0, failedExecutionCount, 'failedExecutionCount'],
  ] as const;
  for (const [name, count, most, of] of parts) if (count > most) return { path: [name], message: `is ${count}, more than ${of} (${most})` };
  const withStatus = Object.values(entry.statusCodes).reduce((total, count) => total + count, 0);
  if (withStatus + noResponseCount !== executionCount) {
    return { path: ['statusCodes'], message: `count ${withStatus} executions with a status and noResponseCount ${noResponseCount} without, where executionCount is ${executionCount}` };
  }
  const times = histogramProblem(entry.latencyHistogram, executionCount, ['latencyHistogram']) ?? boundsProblem(entry) ?? byStatusProblem(entry);
  if (times !== undefined) return times;
  if (entry.failedExecutions !== undefined && entry.failedExecutions.length > failedExecutionCount) {
    return { path: ['failedExecutions'], message: `lists ${entry.failedExecutions.length} failed calls, where failedExecutionCount is ${failedExecutionCount}` };
  }
  const passing = Object.values(entry.passingTestFailures ?? {}).reduce((total, count) => total + count, 0);
  if (passing > failedExecutionCount) return { path: ['passingTestFailures'], message: `count ${passing} failed calls, where failedExecutionCount is ${failedExecutionCount}` };
  if ((entry.tests?.length ?? 0) > (entry.testCount ?? 0)) return { path: ['testCount'], message: `is ${entry.testCount ?? 'absent'}, where tests lists ${entry.tests?.length}` };
  const { bodies, sources } = entry;
  if (bodies !== undefined) {
    const reasons = Object.values(bodies.notValidatedReasons).reduce<number>((total, count) => total + (count ?? 0), 0);
    if (bodies.schemaViolationCount > bodies.validatedCount) return { path: ['bodies', 'schemaViolationCount'], message: `is ${bodies.schemaViolationCount}, more than validatedCount (${bodies.validatedCount})` };
    else if (reasons !== bodies.notValidatedCount) return { path: ['bodies', 'notValidatedReasons'], message: `count ${reasons} bodies, where notValidatedCount is ${bodies.notValidatedCount}` };
  }
  if (sources !== undefined) {
    for (const name of ['executionCount', 'failedExecutionCount'] as const) {
      const sum = sources.api[name] + sources.browser[name];
      if (sum !== entry[name]) return { path: ['sources'], message: `count ${sum} as ${name} of api and browser together, where the endpoint's is ${entry[name]}` };
    }
  }
  return undefined;
}

// A histogram counts the executions it stands for.
function histogramProblem(histogram: LatencyHistogram, executionCount: number, path: readonly PropertyKey[]): Disagreement | undefined {
  const count = histogramCount(histogram);
  return count === executionCount ? undefined : { path, message: `holds ${count} times, where executionCount is ${executionCount}` };
}

// The endpoint's fastest and slowest times: present, a day at most (as a record's), and where its histogram's first and last buckets are.
function boundsProblem(entry: Endpoint): Disagreement | undefined {
  const { min, max } = entry.responseTimeMs;
  if (min === null || max === null || min > max || max > MAX_MILLISECONDS) {
    return { path: ['responseTimeMs'], message: `has min ${min} and max ${max}: each must be a time from 0 to ${MAX_MILLISECONDS} ms (a day, as a record's), min first` };
  }
  const { zeroCount, bins } = entry.latencyHistogram;
  const first = bins[0]?.[0];
  const last = bins[bins.length - 1]?.[0];
  // One bucket of slack: the mapping of a time to its bucket is a logarithm, which another machine may round the other way.
  const near = (bucket: number | undefined, time: number): boolean => (time === 0 ? bucket === undefined : bucket !== undefined && Math.abs(bucket - bucketOf(time)) <= 1);
  if ((min === 0) !== zeroCount > 0 || (min > 0 && !near(first, min))) return { path: ['latencyHistogram'], message: `does not start where min (${min} ms) is` };
  return near(last, max) ? undefined : { path: ['latencyHistogram'], message: `does not end where max (${max} ms) is` };
}

// The times by status add up to the endpoint: one entry per status code it counts, the calls with no response by error code.
function byStatusProblem(entry: Endpoint): Disagreement | undefined {
  const byStatus = entry.latencyByStatus;
  if (byStatus === undefined) {
    return { path: ['latencyByStatus'], message: 'is missing (a report of a version before 0.2): summarise its records again with this version' };
  }
  const outcomes = new Set<number | string>();
  let noResponse = 0;
  for (const [index, part] of byStatus.entries()) {
    const at = ['latencyByStatus', index];
    const outcome = part.statusCode ?? part.errorCode;
    if (outcome === undefined || (part.statusCode !== undefined && part.errorCode !== undefined)) {
      return { path: at, message: 'must have a statusCode or an errorCode, and not both' };
    }
    if (outcomes.has(outcome)) return { path: at, message: `repeats ${JSON.stringify(outcome)}: each status (or error code) has one entry` };
    outcomes.add(outcome);
    if (part.statusCode !== undefined && entry.statusCodes[part.statusCode] !== part.executionCount) {
      return { path: [...at, 'executionCount'], message: `is ${part.executionCount}, where statusCodes counts ${entry.statusCodes[part.statusCode] ?? 0} executions of status ${part.statusCode}` };
    }
    if (part.errorCode !== undefined) noResponse += part.executionCount;
    const problem = histogramProblem(part.latencyHistogram, part.executionCount, [...at, 'latencyHistogram']);
    if (problem !== undefined) return problem;
    if (part.totalMs > part.executionCount * MAX_MILLISECONDS) return { path: [...at, 'totalMs'], message: `is ${part.totalMs}, more than a day for each of its ${part.executionCount} executions` };
  }
  const missing = Object.keys(entry.statusCodes).find((code) => !outcomes.has(Number(code)));
  if (missing !== undefined) return { path: ['latencyByStatus'], message: `has no entry for status ${missing}, which statusCodes counts` };
  if (noResponse !== entry.noResponseCount) return { path: ['latencyByStatus'], message: `counts ${noResponse} calls by error code, where noResponseCount is ${entry.noResponseCount}` };
  const added = byStatus.length === 1 ? byStatus[0]!.latencyHistogram : mergedHistogram(byStatus.map((part) => part.latencyHistogram));
  return sameHistogram(added, entry.latencyHistogram) ? undefined : { path: ['latencyByStatus'], message: "has histograms that do not add up to the endpoint's latencyHistogram" };
}

// The run's counts are its endpoints' added up, and its split by source adds up to them too.
function totalProblem(report: QualityReport): Disagreement | undefined {
  const names = ['executionCount', 'failedExecutionCount', 'slowExecutionCount', 'noResponseCount', 'expectedErrorCount'] as const;
  for (const name of names) {
    const sum = report.endpoints.reduce((total, entry) => total + entry[name], 0);
    if (sum !== report[name]) return { path: [name], message: `is ${report[name]}, where the endpoints' add up to ${sum}` };
  }
  const statusCodes = new Map<string, number>();
  for (const entry of report.endpoints) for (const [code, count] of Object.entries(entry.statusCodes)) statusCodes.set(code, (statusCodes.get(code) ?? 0) + count);
  const code = [...new Set([...statusCodes.keys(), ...Object.keys(report.statusCodes)])].find((key) => statusCodes.get(key) !== report.statusCodes[key]);
  if (code !== undefined) return { path: ['statusCodes', code], message: `is ${report.statusCodes[code] ?? 'absent'}, where the endpoints' add up to ${statusCodes.get(code) ?? 0}` };
  const { sources } = report;
  if (sources === undefined) return undefined;
  for (const name of ['executionCount', 'failedExecutionCount', 'noResponseCount', 'slowExecutionCount'] as const) {
    const sum = sources.api[name] + sources.browser[name];
    if (sum !== report[name]) return { path: ['sources'], message: `count ${sum} as ${name} of api and browser together, where the report's is ${report[name]}` };
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
        : min !== null && mean !== null && max !== null && min <= max && max <= MAX_MILLISECONDS && mean >= min - 0.001 && mean <= max + 0.001;
    if (!bounded) return { path: ['sources', source, 'responseTimeMs'], message: `has min ${min}, mean ${mean} and max ${max} for ${executionCount} executions` };
  }
  return undefined;
}

function sameHistogram(a: LatencyHistogram, b: LatencyHistogram): boolean {
  return a.zeroCount === b.zeroCount && a.bins.length === b.bins.length && a.bins.every(([bucket, count], index) => bucket === b.bins[index]![0] && count === b.bins[index]![1]);
}
