import type { Settings } from '../config/resolveSettings.js';
import type { ExportSettingKey } from '../config/settings.js';
import { presentValue, type EnvironmentRecord } from '../config/settingsSources.js';
import type { SampledCall } from '../summary/spanSample.js';

export { DEFAULT_SERVICE_NAME } from '../config/settings.js';

/**
 * What an export says besides the report: the run's time, CI's names for it,
 * the service it speaks for, and, from the Playwright reporter, its tests.
 * The report itself holds none of these (it is the same bytes for the same
 * records); each entry point that writes exports gives them.
 */
export interface ExportContext {
  /** When the run ended, in milliseconds since the epoch, by the run's clock: the time of the exports' points and of a CTRF summary's stop. */
  readonly endedAtMs: number;
  /** When the run started, where the entry point knows it (the reporter: Playwright's start); otherwise the points are stamped with the end alone. */
  readonly startedAtMs?: number | undefined;
  /** The process's environment: CI's variables name the commit, branch, pipeline and run. */
  readonly env: EnvironmentRecord;
  /** The run's settings, every default applied (see withDefaults): an export reads its own settings here (`forExports` in the table). */
  readonly settings: Pick<Settings, ExportSettingKey>;
  /** The run's Playwright tests, when the reporter made the report: the CTRF export lists them. */
  readonly tests?: readonly RunTest[] | undefined;
  /**
   * The traced calls the run kept (see spanSample.ts), when it kept any: the
   * otlp export's spans and exemplars. Absent for a report not made from
   * records (`merge`, `check`, `compare`), which then sends no spans.
   */
  readonly spans?: readonly SampledCall[] | undefined;
}

/** One Playwright test as the CTRF export gives it. */
export interface RunTest {
  /** Its title path, the project first when it has a name: `API › orders.spec.ts › lists orders`. */
  readonly name: string;
  /** CTRF's statuses: a flaky test passed; an interrupted one is `other`. */
  readonly status: 'passed' | 'failed' | 'skipped' | 'pending' | 'other';
  /** The last attempt's duration, in milliseconds. */
  readonly durationMs: number;
  /** The file, relative to the Playwright project's root, and the line of its declaration. */
  readonly file: string;
  readonly line: number;
  /** Its describe blocks, outermost first, the file first. */
  readonly suite: readonly string[];
  /** Attempts after the first. */
  readonly retries: number;
  /** Passed on a retry. */
  readonly flaky: boolean;
  /** The Playwright project it ran in, when the run has named projects. */
  readonly project?: string | undefined;
  /** Why it failed: the first line of its last attempt's first error. */
  readonly message?: string | undefined;
  /** The labels of the endpoints its calls reached, as the report names them (EvidenceRun.endpointsOfTests): the history line keeps them. */
  readonly endpoints?: readonly string[] | undefined;
}

/** The run as CI names it: each value only where CI's variables give it. */
export interface CiRun {
  readonly commit?: string;
  readonly branch?: string;
  readonly repositoryUrl?: string;
  readonly pipelineName?: string;
  readonly runId?: string;
  readonly runUrl?: string;
}

/**
 * CI's names for the run: GitHub Actions' variables, else GitLab CI's
 * (the same systems the history file reads).
 */
export function ciRunOf(env: EnvironmentRecord): CiRun {
  const given = (name: string): string | undefined => presentValue(env[name]);
  if (given('GITHUB_SHA') !== undefined || given('GITHUB_RUN_ID') !== undefined) {
    const server = given('GITHUB_SERVER_URL') ?? 'https://github.com';
    const repository = given('GITHUB_REPOSITORY');
    const runId = given('GITHUB_RUN_ID');
    return compact({
      commit: given('GITHUB_SHA'),
      branch: given('GITHUB_REF_NAME'),
      repositoryUrl: repository === undefined ? undefined : `${server}/${repository}`,
      pipelineName: given('GITHUB_WORKFLOW'),
      runId,
      runUrl: repository === undefined || runId === undefined ? undefined : `${server}/${repository}/actions/runs/${runId}`,
    });
  }
  return compact({
    commit: given('CI_COMMIT_SHA'),
    branch: given('CI_COMMIT_REF_NAME'),
    repositoryUrl: given('CI_PROJECT_URL'),
    pipelineName: given('CI_PIPELINE_NAME') ?? given('CI_PROJECT_PATH'),
    runId: given('CI_PIPELINE_ID'),
    runUrl: given('CI_PIPELINE_URL'),
  });
}

function compact(run: { readonly [K in keyof CiRun]: string | undefined }): CiRun {
  return Object.fromEntries(Object.entries(run).filter(([, value]) => value !== undefined));
}

/** An endpoint label's method and path template: `GET /users/:id` → GET, /users/:id. */
export function methodAndTemplate(endpoint: string): { readonly method: string; readonly template: string } {
  const space = endpoint.indexOf(' ');
  return space < 0 ? { method: endpoint, template: '' } : { method: endpoint.slice(0, space), template: endpoint.slice(space + 1) };
}
