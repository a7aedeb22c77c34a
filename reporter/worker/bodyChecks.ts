import { dirname } from 'node:path';
import type { FullConfig } from '@playwright/test';
import type { BodyChecker, CheckedBody } from '../../src/contract/bodyConformance.js';
import type { MetConditions } from '../../src/contract/conditionsMet.js';
import type { ContractOperation } from '../../src/contract/contract.js';
import type { BodyCheck } from '../../src/records/bodyCheck.js';
import type { ConditionsRecord } from '../../src/records/conditionsRecord.js';
import { normaliseEndpoint } from '../../src/records/normaliseExecutionRecords.js';
import { FAILED_EXECUTION_LIMIT } from '../../src/summary/endpointEvidence.js';
import { resolveReporterSettings, type ReporterSettings } from '../shared/reporterSettings.js';
import { reporterOptionsFor } from '../shared/workerOptions.js';

/**
 * Body conformance in the test workers: where the run has a contract (the
 * reporter's `openapi` option, QE_OPENAPI_PATH or the settings file), each
 * recorded call's bodies are checked against the schemas of the operation it
 * matched, and the record carries only the outcome. The worker reads the
 * settings as the reporter does, from the config Playwright gives every
 * test; a setting or document the reporter refuses stops the run there
 * (before any test), so here it only means no checking.
 */

/** One recorded call, as the checker needs it. */
export interface CheckedCall {
  /** `POST /users/7`: the method and the path that answered. */
  readonly endpoint: string;
  readonly statusCode: number;
  readonly responseContentType: string | undefined;
  /**
   * The response body, read from Playwright's buffer (it holds every APIResponse's whole body until the context is disposed);
   * undefined when it could not be read.
   */
  readonly responseBody: Buffer | undefined;
  readonly requestContentType: string | undefined;
  readonly requestBody: CheckedBody;
  /** The URL that answered (its path and query give the call's path and query parameters). */
  readonly url: string;
  /** The headers the call sent as far as the fixture sees them: the context's extra headers, then the call's own. */
  readonly requestHeaders: readonly (readonly [string, string])[];
  /** A form body's fields (`form`, or `multipart`'s text fields). */
  readonly formFields?: readonly (readonly [string, string])[] | undefined;
}

/** What a call's check gives its record: its body check and the conditions it met, each when there is one. */
export interface CallCheck {
  readonly bodyCheck?: BodyCheck;
  readonly conditions?: ConditionsRecord;
}

/**
 * Checks one call's bodies; undefined when its endpoint matches no
 * operation or nothing was checked. `wants` says whether a call to an
 * endpoint is checked at all, so that its body is read only then.
 */
export interface CallChecker {
  wants(endpoint: string): boolean;
  check(call: CheckedCall): CallCheck;
}

const checkers = new WeakMap<object, Promise<CallChecker | undefined>>();
const workerSettings = new WeakMap<object, ReporterSettings | null>();

/**
 * The reporter's settings as a test worker reads them, from the config
 * Playwright gives every test: once per config; undefined when they do not
 * resolve (the reporter itself stops the run then). Read at once (the
 * reading is synchronous), so that a call can be sent by them: its trace
 * context is decided before it leaves.
 */
export function settingsNow(config: FullConfig): ReporterSettings | undefined {
  let settings = workerSettings.get(config);
  if (settings === undefined) {
    const configDir = config.configFile === undefined ? config.rootDir : dirname(config.configFile);
    try {
      // The options the reporter handed over (see shared/workerOptions.ts); none when it does not run (then the fixture
      // records, and nothing reads the checks).
      settings = resolveReporterSettings({ configDir, ...reporterOptionsFor(configDir, process.env) }, process.env, process.cwd());
    } catch {
      settings = null;
    }
    workerSettings.set(config, settings);
  }
  return settings ?? undefined;
}

/** {@link settingsNow}, for the code that waits on a contract or a module anyway. */
export function settingsIn(config: FullConfig): Promise<ReporterSettings | undefined> {
  return Promise.resolve().then(() => settingsNow(config));
}

/** Excerpts a failed call's body for the test attempt that made it, or says the report cannot list it (undefined). */
export type FailureExcerpts = (body: Buffer, attempt: object, endpoint: string, statusCode: number) => string | undefined;

const excerpters = new WeakMap<object, Promise<FailureExcerpts | undefined>>();

/**
 * The excerpt of a failed call's response body, when the run asks for
 * excerpts (failureExcerptBytes, off by default): its first bytes, secrets
 * replaced (see failureExcerpt.ts); undefined when it does not. Only for a
 * call the report may list ({@link createExcerptAdmission}): an excerpt of a
 * large body is costly.
 */
export function failureExcerptsFor(config: FullConfig): Promise<FailureExcerpts | undefined> {
  let excerpts = excerpters.get(config);
  if (excerpts === undefined) {
    excerpts = settingsIn(config).then(async (settings) => {
      const bytes = settings?.failureExcerptBytes ?? 0;
      if (bytes <= 0) return undefined;
      const { createFailureExcerpter } = await import('../../src/records/failureExcerpt.js');
      const excerpt = createFailureExcerpter(bytes, settings?.redactKeys);
      const admits = createExcerptAdmission();
      return (body, attempt, endpoint, statusCode) => (admits(attempt, `${statusCode} ${endpoint}`) ? excerpt(body) : undefined);
    });
    excerpters.set(config, excerpts);
  }
  return excerpts;
}

/**
 * Which failed calls of a test worker get an excerpt: the report lists an
 * endpoint's first FAILED_EXECUTION_LIMIT failed calls by their test's place,
 * a test attempt's own calls in the order they were recorded, so within one
 * attempt a call after that many of the same endpoint and status (which
 * fail alike: the attempt's expected statuses are the same for all) is never
 * listed. Which attempts' calls the report lists across tests and workers
 * is known only when the run ends: every attempt gets its own first ones.
 * Asked in the order the calls' records are attached.
 */
export function createExcerptAdmission(): (attempt: object, key: string) => boolean {
  const counts = new WeakMap<object, Map<string, number>>();
  return (attempt, key) => {
    let byKey = counts.get(attempt);
    if (byKey === undefined) counts.set(attempt, (byKey = new Map<string, number>()));
    const count = byKey.get(key) ?? 0;
    if (count >= FAILED_EXECUTION_LIMIT) return false;
    byKey.set(key, count + 1);
    return true;
  };
}

/** The checker of a worker's run, made once per config; undefined without a contract. */
export function callCheckerFor(config: FullConfig): Promise<CallChecker | undefined> {
  let checker = checkers.get(config);
  if (checker === undefined) {
    checker = makeCallChecker(config).catch(() => undefined);
    checkers.set(config, checker);
  }
  return checker;
}

async function makeCallChecker(config: FullConfig): Promise<CallChecker | undefined> {
  const settings = await settingsIn(config);
  if (settings?.openapi === undefined || settings.openapi.length === 0) return undefined;
  const [{ loadContract }, { createBodyChecker }, { createEndpointLabelling }, { nodeFileSystem }, { conditionsRecordOf }] =
    await Promise.all([
      import('../../src/contract/loadContract.js'),
      import('../../src/contract/bodyConformance.js'),
      import('../../src/labels/endpointLabels.js'),
      import('../../src/io/fileSystem.js'),
      import('../../src/contract/conditionsMet.js'),
    ]);
  const contract = await loadContract(settings.openapi, nodeFileSystem);
  const checker = await createBodyChecker(contract);
  // The labels the run gives calls (routes first, then the contract): a call is checked against the operation whose label it takes.
  const label = createEndpointLabelling({
    routes: settings.routes,
    endpointGrouping: settings.endpointGrouping,
    operations: contract.operations,
  });
  const byLabel = new Map<string, ContractOperation>();
  for (const operation of contract.operations) if (!byLabel.has(operation.label)) byLabel.set(operation.label, operation);
  const operationOf = (endpoint: string) => byLabel.get(label(normaliseEndpoint(endpoint), true).label);
  return {
    wants: (endpoint) => operationOf(endpoint) !== undefined,
    check(call) {
      const operation = operationOf(call.endpoint);
      return operation === undefined ? {} : checkCall(checker, operation, call, conditionsRecordOf);
    },
  };
}

function checkCall(
  checker: BodyChecker,
  operation: ContractOperation,
  call: CheckedCall,
  conditionsRecordOf: (met: MetConditions) => ConditionsRecord,
): CallCheck {
  const url = new URL(call.url);
  const { bodyCheck, conditions } = checker.examine(operation, {
    path: url.pathname,
    query: [...url.searchParams],
    headers: call.requestHeaders,
    formFields: call.formFields,
    statusCode: call.statusCode,
    responseContentType: call.responseContentType,
    responseBody: call.responseBody === undefined ? undefined : { text: call.responseBody },
    requestContentType: call.requestContentType,
    requestBody: call.requestBody,
  });
  return {
    ...(bodyCheck === undefined ? {} : { bodyCheck }),
    ...(conditions === undefined ? {} : { conditions: conditionsRecordOf(conditions) }),
  };
}
