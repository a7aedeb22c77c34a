import type { QualityReport } from '../report/qualityReport.js';
import { isIncompleteRun } from '../report/buildReport.js';
import type { RunIdentity } from '../report/historySchemas.js';
import type { HistoryContract, HistoryRun, HistoryTest } from './historyLineSchema.js';

export type { HistoryConditionList, HistoryContract, HistoryEndpoint, HistoryRun, HistoryTest } from './historyLineSchema.js';

/**
 * The history file (`historyPath`): JSON Lines, one line per run, oldest
 * first, after a first line that states the schema version. A line holds
 * what trends and a baseline need of a run, per endpoint: counts, three
 * exact percentiles and the latency histogram; and, for a run judged
 * against a contract, what a baseline needs to compare the contract and its
 * conditions as a baseline report's contract section compares; and, from
 * the Playwright reporter, each test's place, title and outcome with the
 * endpoints its calls reached. Never a body, a header or a query string.
 */

/** The version of the history file's lines; raised on any incompatible change. */
export const HISTORY_SCHEMA_VERSION = 1;

/**
 * A test of the run as its feeder gives it (the exports' RunTest is one,
 * from the Playwright reporter): its place, its title, its status, whether a
 * retry made it pass, and the labels of the endpoints its calls reached.
 */
export interface TestOfRun {
  readonly file: string;
  readonly line: number;
  /** Its title path as the report names it: the project first when it has a name. */
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'skipped' | 'pending' | 'other';
  readonly flaky: boolean;
  readonly endpoints?: readonly string[] | undefined;
}

/**
 * The line a run appends: its identity, its totals and each endpoint's
 * counts, percentiles and histogram; with a contract section, its coverage
 * and what each operation's endpoint met of its conditions; given the run's
 * tests (the reporter's), each test with its outcome and the endpoints it reached.
 */
export function historyRunOf(report: QualityReport, identity: RunIdentity, tests?: readonly TestOfRun[], reportUrl?: string): HistoryRun {
  const operations = report.contract === undefined ? undefined : operationsByLabel(report.contract);
  return {
    ...identity,
    environment: report.environment,
    slowResponseThresholdMs: report.slowResponseThresholdMs,
    executionCount: report.executionCount,
    failedExecutionCount: report.failedExecutionCount,
    slowExecutionCount: report.slowExecutionCount,
    noResponseCount: report.noResponseCount,
    ...(report.serverErrorCount === undefined ? {} : { serverErrorCount: report.serverErrorCount }),
    endpoints: report.endpoints.map((entry) => ({
      endpoint: entry.endpoint,
      executionCount: entry.executionCount,
      failedExecutionCount: entry.failedExecutionCount,
      slowExecutionCount: entry.slowExecutionCount,
      noResponseCount: entry.noResponseCount,
      p50: entry.responseTimeMs.p50,
      p95: entry.responseTimeMs.p95,
      p99: entry.responseTimeMs.p99,
      latencyHistogram: entry.latencyHistogram,
      ...(entry.flakyFailedExecutionCount ? { flakyFailedExecutionCount: entry.flakyFailedExecutionCount } : {}),
      ...contractOfEndpoint(entry, operations?.get(entry.endpoint)),
    })),
    ...(report.contract === undefined ? {} : { contract: historyContractOf(report.contract) }),
    ...(tests === undefined ? {} : { tests: historyTestsOf(tests, report.endpoints) }),
    ...(report.budgets === undefined ? {} : { budgetsPassed: report.budgets.passed }),
    ...(reportUrl === undefined ? {} : { reportUrl }),
  };
}

const OUTCOMES: Readonly<Record<Exclude<TestOfRun['status'], 'other'>, HistoryTest['outcome']>> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'skipped',
};

/**
 * Each test with its outcome (a test passed on a retry is `flaky`) and its
 * endpoints' positions in the line. A test whose last attempt was
 * interrupted (`other`) ended neither way and is left out; a label the
 * report does not list (none should be) too.
 */
function historyTestsOf(tests: readonly TestOfRun[], endpoints: QualityReport['endpoints']): HistoryTest[] {
  // A Map, never a property lookup: a label may be "GET /__proto__".
  const positions = new Map(endpoints.map(({ endpoint }, index) => [endpoint, index]));
  return tests.flatMap(({ file, line, name, status, flaky, endpoints: labels = [] }) => {
    if (status === 'other') return [];
    const reached = [...new Set(labels.flatMap((label) => positions.get(label) ?? []))].sort((a, b) => a - b);
    const outcome = status === 'passed' && flaky ? 'flaky' : OUTCOMES[status];
    return [{ file, line, title: name, outcome, ...(reached.length === 0 ? {} : { endpoints: reached }) }];
  });
}

type ContractSection = NonNullable<QualityReport['contract']>;

/** What the operations of one label gave the contract section: their lists of conditions, undeclared statuses, bodies off their schema. */
interface LabelledOperations {
  readonly lists: Set<string>;
  readonly undeclaredStatuses: Set<string>;
  readonly schemaViolationCount: number;
}

// A Map, never a property lookup: a label may be "GET /__proto__".
function operationsByLabel(contract: ContractSection): Map<string, LabelledOperations> {
  const byLabel = new Map<string, LabelledOperations>();
  for (const operation of contract.operations) {
    const known = byLabel.get(operation.endpoint);
    const labelled = known ?? { lists: new Set<string>(), undeclaredStatuses: new Set<string>(), schemaViolationCount: 0 };
    labelled.lists.add(operation.conditions.fingerprint);
    for (const status of operation.undeclaredStatuses) labelled.undeclaredStatuses.add(status);
    byLabel.set(operation.endpoint, { ...labelled, schemaViolationCount: operation.schemaViolationCount });
  }
  return byLabel;
}

/**
 * An operation's endpoint's part of the contract: the lists counted and what its calls met of each, the statuses seen;
 * what its records met of another list (recorded with another version of the document) no baseline compares, and is left out.
 */
function contractOfEndpoint(entry: QualityReport['endpoints'][number], operations: LabelledOperations | undefined) {
  if (operations === undefined) return {};
  const conditionLists = [...operations.lists].map((fingerprint) => {
    const met = entry.conditionsMet?.find((list) => list.fingerprint === fingerprint);
    if (met === undefined) return { fingerprint, met: '', metCounts: [], outside: '' };
    return { fingerprint, met: met.met, ...(met.metCounts === undefined ? {} : { metCounts: [...met.metCounts] }), outside: met.outside };
  });
  return {
    conditionLists,
    statuses: Object.keys(entry.statusCodes).sort(),
    ...(operations.undeclaredStatuses.size === 0 ? {} : { undeclaredStatuses: [...operations.undeclaredStatuses].sort() }),
    ...(operations.schemaViolationCount === 0 ? {} : { schemaViolationCount: operations.schemaViolationCount }),
  };
}

function historyContractOf(contract: ContractSection): HistoryContract {
  return {
    operationCoveragePercent: contract.operationCoveragePercent,
    responseCoveragePercent: contract.responseCoveragePercent,
    conditionCount: contract.conditionCount,
    coveredConditionCount: contract.coveredConditionCount,
    uncalledOperations: [
      ...new Set(contract.operations.filter((operation) => operation.executionCount === 0).map((operation) => operation.endpoint)),
    ],
  };
}

/**
 * Whether a run's report belongs in the history: not one cut short
 * (interrupted, timed out), whose numbers are partial, nor one that recorded
 * no call (a suite not yet recording, a server that was not there), which
 * would become the base of the next comparison with nothing in it.
 */
export function belongsInHistory(report: QualityReport): boolean {
  return !isIncompleteRun(report.runStatus) && report.executionCount > 0;
}

/** The variables CI systems name a run by: GitHub Actions first, then GitLab CI. */
const CI_VARIABLES = [
  { commit: 'GITHUB_SHA', branch: 'GITHUB_REF_NAME', runId: 'GITHUB_RUN_ID' },
  { commit: 'CI_COMMIT_SHA', branch: 'CI_COMMIT_REF_NAME', runId: 'CI_PIPELINE_ID' },
] as const;

/**
 * A run's identity: the time (milliseconds since the epoch, from the run's
 * clock), and the commit, branch and run id of the first CI system whose
 * variables are set (GitHub Actions, then GitLab CI).
 */
export function runIdentityOf(nowMs: number, env: Readonly<Record<string, string | undefined>>): RunIdentity {
  const given = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const system = CI_VARIABLES.find((names) => given(names.commit) !== undefined || given(names.runId) !== undefined) ?? CI_VARIABLES[0];
  const commit = given(system.commit);
  const branch = given(system.branch);
  const runId = given(system.runId);
  return {
    time: new Date(nowMs).toISOString(),
    ...(commit === undefined ? {} : { commit }),
    ...(branch === undefined ? {} : { branch }),
    ...(runId === undefined ? {} : { runId }),
  };
}

/**
 * Where a run's report can be read, for its history line: the reportUrl
 * setting, else the CI run's page: GitHub Actions'
 * `GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID`, else
 * GitLab CI's `CI_PIPELINE_URL`; only an http or https URL, else none.
 */
export function reportUrlOf(setting: string | undefined, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const given = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const [server, repository, runId] = [given('GITHUB_SERVER_URL'), given('GITHUB_REPOSITORY'), given('GITHUB_RUN_ID')];
  const github =
    server === undefined || repository === undefined || runId === undefined
      ? undefined
      : `${server.replace(/\/+$/, '')}/${repository}/actions/runs/${runId}`;
  return [setting, github, given('CI_PIPELINE_URL')].find((url) => url !== undefined && isWebAddress(url));
}

/** What a line's reportUrl may be: an http or https URL of at most 2,048 characters, no white space (the schema's rule). */
export function isWebAddress(text: string): boolean {
  if (text.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(text)) return false;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
