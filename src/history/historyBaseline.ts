import type { FileSystem } from '../io/fileSystem.js';
import { readInputFile, CONFIGURATION_FILE_LIMIT_BYTES } from '../io/readInputFile.js';
import { quoteText } from '../renderValue.js';
import type { EndpointFlakinessSection, ReportFlakiness, RunIdentity } from '../report/historySchemas.js';
import type { PositionsMet } from '../summary/conditionTally.js';
import type { LatencyHistogram } from '../summary/latencyHistogram.js';
import type { HistoryContract, HistoryRun } from './historyLine.js';

/** The variables that say what a pull request (or merge request) is based on. */
export interface CiVariables {
  /** GitHub Actions: the event's payload, a JSON file; a pull_request event names `pull_request.base.sha`. */
  readonly GITHUB_EVENT_PATH?: string | undefined;
  /** GitLab CI: the merge request's base commit. */
  readonly CI_MERGE_REQUEST_DIFF_BASE_SHA?: string | undefined;
}

/** The variables of {@link CiVariables} an environment sets (only those cross to the check before a Playwright run). */
export function ciVariablesOf(env: Readonly<Record<string, string | undefined>>): CiVariables {
  const picked: Record<string, string> = {};
  for (const name of ['GITHUB_EVENT_PATH', 'CI_MERGE_REQUEST_DIFF_BASE_SHA'] as const) {
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}

/**
 * The commit a pull request or merge request is based on, where CI says:
 * GitLab's CI_MERGE_REQUEST_DIFF_BASE_SHA, or the base commit of GitHub's
 * pull_request event (`pull_request.base.sha` in the event's payload).
 * Undefined elsewhere, and when the payload cannot be read: the baseline is
 * then the branch's last run.
 */
export async function pullRequestBaseOf(variables: CiVariables, fileSystem: FileSystem): Promise<string | undefined> {
  if (variables.CI_MERGE_REQUEST_DIFF_BASE_SHA !== undefined) return variables.CI_MERGE_REQUEST_DIFF_BASE_SHA;
  if (variables.GITHUB_EVENT_PATH === undefined) return undefined;
  try {
    const event = JSON.parse(
      await readInputFile(fileSystem, variables.GITHUB_EVENT_PATH, 'event payload', CONFIGURATION_FILE_LIMIT_BYTES),
    ) as { pull_request?: { base?: { sha?: unknown } } };
    const sha = event.pull_request?.base?.sha;
    return typeof sha === 'string' && /^[0-9a-f]{7,64}$/i.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

// A reference that can be a commit: 7 to 64 hexadecimal digits (an abbreviated or a full SHA-1 or SHA-256).
const COMMIT = /^[0-9a-f]{7,64}$/i;

/**
 * The run of the history that is the baseline: for a commit (7 or more
 * hexadecimal digits, a prefix is enough), its last run; for a branch, the
 * run of the pull request's base commit when the history has it, else the
 * branch's last run. Only runs of the run's own environment count. None
 * (the first run of a history, a branch that never ran) is said in words:
 * the run goes on without a comparison, so a history can start.
 */
export function baselineRunOf(
  runs: readonly HistoryRun[],
  reference: string,
  environment: string | undefined,
  baseCommit: string | undefined,
): { readonly run: HistoryRun } | { readonly missing: string } {
  const candidates = environment === undefined ? runs : runs.filter((run) => run.environment === environment);
  const lastWhere = (test: (run: HistoryRun) => boolean): HistoryRun | undefined => candidates.findLast(test);
  const commitMatch = (commit: string) => (run: HistoryRun) =>
    run.commit !== undefined && run.commit.toLowerCase().startsWith(commit.toLowerCase());
  const found =
    (COMMIT.test(reference) ? lastWhere(commitMatch(reference)) : undefined) ??
    (baseCommit === undefined ? undefined : lastWhere(commitMatch(baseCommit))) ??
    lastWhere((run) => run.branch === reference);
  if (found !== undefined) return { run: found };
  // The reference and the environment come from a flag or a variable, whose values are never shown: the history's own branches are.
  const branches = [...new Set(candidates.flatMap((run) => (run.branch === undefined ? [] : [run.branch])))].sort();
  const known =
    branches.length === 0
      ? ''
      : `; their branches: ${branches
          .slice(0, 10)
          .map((name) => quoteText(name))
          .join(', ')}${branches.length > 10 ? ', …' : ''}`;
  return {
    missing:
      'holds no run of the branch or commit that baselineFromHistory names, ' +
      `in this run's environment (${candidates.length} ${candidates.length === 1 ? 'run' : 'runs'} read${known})`,
  };
}

/**
 * A run as the baseline comparison reads it: its totals, each endpoint's
 * counts, p50, p95 and histogram, and its contract section or what a
 * history line kept of it.
 */
export interface ComparedRun {
  readonly environment: string;
  readonly executionCount: number;
  readonly failedExecutionCount: number;
  readonly slowExecutionCount: number;
  /** Absent in a report or history line of a version before 0.2. */
  readonly serverErrorCount?: number | undefined;
  readonly failureCountByEndpoint: Readonly<Record<string, number>>;
  readonly slowEndpoints: readonly string[];
  readonly endpoints?:
    | readonly {
        readonly endpoint: string;
        readonly executionCount: number;
        readonly failedExecutionCount: number;
        readonly responseTimeMs: { readonly p50: number | null; readonly p95: number | null };
        readonly latencyHistogram?: LatencyHistogram | undefined;
        /** Only in a baseline report (a history line keeps no counts): the endpoint's executions by status code. */
        readonly statusCodes?: Readonly<Record<string, number>> | undefined;
        /** Only in a history line of a run with a contract, for an operation's endpoint: the status codes its calls got, ascending. */
        readonly statuses?: readonly string[] | undefined;
        /** Only where its records said which conditions they met: as the report's endpoint keeps them (a history line: without counts). */
        readonly conditionsMet?: readonly PositionsMet[] | undefined;
        /** Only in a baseline report written with its history: the endpoint's flakiness across runs. */
        readonly history?: { readonly flakiness?: Pick<EndpointFlakinessSection, 'state'> | undefined } | undefined;
      }[]
    | undefined;
  /** Only in a baseline report of the Playwright reporter: its flaky endpoints. */
  readonly flakyEndpoints?: readonly string[] | undefined;
  /** Only in a baseline report judged against a contract, or a history line of one: its contract section, or what the line kept of it. */
  readonly contract?: ComparedContract | undefined;
  /** Only for a run taken from a history file: which run it was. */
  readonly run?: RunIdentity | undefined;
  /** Only in a baseline report written with its history: its flakiness across runs. */
  readonly history?:
    { readonly flakiness?: Pick<ReportFlakiness, 'testsScored' | 'flakyTests' | 'flakyTestCount'> | undefined } | undefined;
}

/** What the comparison reads of a baseline's contract section: a report's, or what a history line kept of it. */
export interface ComparedContract {
  readonly operationCoveragePercent: number | null;
  readonly responseCoveragePercent: number | null;
  /** Absent in a report or a history line of a version before condition coverage. */
  readonly conditionCount?: number | undefined;
  readonly coveredConditionCount?: number | undefined;
  /** Its operations, by endpoint label; those sharing a label (the same method and path in two documents) share its calls. */
  readonly operations: readonly {
    readonly endpoint: string;
    readonly executionCount: number;
    readonly undeclaredStatuses: readonly string[];
    readonly schemaViolationCount: number;
    /** The list of conditions counted, by its fingerprint; a history line keeps it only for an operation called. */
    readonly conditions?: { readonly fingerprint?: string | undefined } | undefined;
  }[];
}

/** A run of the history as a baseline. */
export function comparedRunOf(run: HistoryRun): ComparedRun {
  const { time, commit, branch, runId } = run;
  return {
    environment: run.environment,
    executionCount: run.executionCount,
    failedExecutionCount: run.failedExecutionCount,
    slowExecutionCount: run.slowExecutionCount,
    ...(run.serverErrorCount === undefined ? {} : { serverErrorCount: run.serverErrorCount }),
    // fromEntries makes own properties: an endpoint named "__proto__" stays an endpoint.
    failureCountByEndpoint: Object.fromEntries(
      run.endpoints.filter((entry) => entry.failedExecutionCount > 0).map((entry) => [entry.endpoint, entry.failedExecutionCount]),
    ),
    slowEndpoints: run.endpoints.filter((entry) => entry.slowExecutionCount > 0).map((entry) => entry.endpoint),
    endpoints: run.endpoints.map((entry) => ({
      endpoint: entry.endpoint,
      executionCount: entry.executionCount,
      failedExecutionCount: entry.failedExecutionCount,
      responseTimeMs: { p50: entry.p50, p95: entry.p95 },
      latencyHistogram: entry.latencyHistogram,
      ...(entry.statuses === undefined ? {} : { statuses: entry.statuses }),
      ...(entry.conditionLists === undefined
        ? {}
        : { conditionsMet: entry.conditionLists.map(({ fingerprint, met, outside }) => ({ fingerprint, met, outside })) }),
    })),
    ...(run.contract === undefined ? {} : { contract: comparedContractOf(run.contract, run.endpoints) }),
    run: {
      time,
      ...(commit === undefined ? {} : { commit }),
      ...(branch === undefined ? {} : { branch }),
      ...(runId === undefined ? {} : { runId }),
    },
  };
}

/**
 * A line's contract as the comparison reads a report's contract section:
 * each called operation from its endpoint (one per list of conditions its
 * label's operations were counted in, each sharing the endpoint's calls),
 * each one not called from the line's list of them.
 */
function comparedContractOf(contract: HistoryContract, endpoints: HistoryRun['endpoints']): ComparedContract {
  const { operationCoveragePercent, responseCoveragePercent, conditionCount, coveredConditionCount, uncalledOperations } = contract;
  const called = endpoints.flatMap((entry) =>
    (entry.conditionLists ?? []).map(({ fingerprint }) => ({
      endpoint: entry.endpoint,
      executionCount: entry.executionCount,
      undeclaredStatuses: entry.undeclaredStatuses ?? [],
      schemaViolationCount: entry.schemaViolationCount ?? 0,
      conditions: { fingerprint },
    })),
  );
  const uncalled = uncalledOperations.map((endpoint) => ({ endpoint, executionCount: 0, undeclaredStatuses: [], schemaViolationCount: 0 }));
  return { operationCoveragePercent, responseCoveragePercent, conditionCount, coveredConditionCount, operations: [...called, ...uncalled] };
}
