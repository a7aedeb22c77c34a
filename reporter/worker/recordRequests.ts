import { runInThisContext } from 'node:vm';
import type { APIRequest, APIRequestContext, APIResponse, TestInfo } from '@playwright/test';
import type { TimingPhases } from '../../src/records/executionRecord.js';
import { calledUrlOf, errorCodeOf, pathOfUrl } from '../shared/apiCalls.js';
import type { CheckedBody } from '../../src/contract/bodyConformance.js';
import { callCheckerFor, failureExcerptsFor, settingsNow, type CallCheck, type CallChecker } from './bodyChecks.js';
import { attachRecord } from './recordExecution.js';
import { callsOutsideTestsCollector, RECORDED_CALL_FILE, traceContextOutsideTests } from '../shared/callsOutsideTests.js';
import { headerOf, traceCall, traceOfTest, type CallTrace } from './traceContext.js';
import { responseTimeOf, roundToMicroseconds } from './resourceTiming.js';

/** The test a call belongs to: a fixed one, or whichever test is running when the call is made. */
export type TestInfoSource = TestInfo | (() => TestInfo | undefined);

const RECORDED_METHODS = new Set(['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head']);

/** What a call was sent with, decided as it was made, before its clock started. */
interface Begun {
  /** The arguments sent: the test's, or a copy with a traceparent header added. */
  readonly args: readonly unknown[];
  /** The stack of a call made outside any test where the reporter takes such calls. */
  readonly stack?: string | undefined;
  /** The trace ids its record carries. */
  readonly trace?: CallTrace | undefined;
}

type Settle<Result> = (begun: Begun, startedMs: number, result: Result | undefined, error: unknown) => Result | Promise<Result>;
type Call<Result> = (...args: unknown[]) => Promise<Result>;

/**
 * Wraps `send` so that `settle` sees each call's start time and outcome, and
 * what `begin` (when given) decided as the call was made, before its clock
 * starts: the arguments to send (`begin` may add a header to a copy of them)
 * and what the record needs to know. The wrapper is compiled under a `node:`
 * file name: Playwright leaves such frames out of the stack it shows for a
 * failed call and out of the source location of the call's step, so a call
 * made through the recording wrapper reads, in every report, as if the test
 * made it itself; `begin` has returned before `send` is called, and is in no
 * stack Playwright reads.
 */
const observeCall = runInThisContext(
  `(function observeCall(send, settle, begin) {
    return function (...args) {
      const begun = begin === undefined ? { args } : begin(args);
      const startedMs = performance.now();
      return send(...begun.args).then(
        (result) => settle(begun, startedMs, result, undefined),
        (error) => settle(begun, startedMs, undefined, error),
      );
    };
  })`,
  { filename: RECORDED_CALL_FILE },
) as <Result>(send: Call<Result>, settle: Settle<Result>, begin?: (args: unknown[]) => Begun) => Call<Result>;

/**
 * The stack of a call made outside any test where a reporter takes such calls
 * (global setup and teardown, in the runner's process), read as the call is
 * made: the reporter tells by it which setup file made the call, and where.
 * Undefined in a test, and in a test worker, where it costs one lookup.
 */
function stackOutsideTests(currentTest: () => TestInfo | undefined): string | undefined {
  if (callsOutsideTestsCollector() === undefined || currentTest() !== undefined) return undefined;
  const limit = Error.stackTraceLimit;
  // Deep enough for an API client class or two between the setup function and the call.
  Error.stackTraceLimit = 40;
  try {
    return new Error('call outside tests').stack;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

const recordingContexts = new WeakSet<object>();

/**
 * Wraps an API request context so that every call it makes is recorded as an
 * execution of the test that makes it: status, method, the path of the URL
 * that answered (no query) and the time Playwright measured. A call that gets
 * no response is recorded as a no-response execution (its error code and the
 * time until it failed) and throws as before. Wrapping twice records once.
 *
 * @param baseURL the context's base URL, for the path of a call that got no response.
 */
export function recordRequests(
  request: APIRequestContext,
  testInfo: TestInfoSource,
  baseURL?: string,
  contextHeaders?: Readonly<Record<string, string>>,
): APIRequestContext {
  if (recordingContexts.has(request)) return request;
  const currentTest = typeof testInfo === 'function' ? testInfo : () => testInfo;
  const recording = new Proxy(request, {
    get(target, property) {
      // The target as receiver: Playwright's objects keep state that a proxy receiver cannot reach.
      const value: unknown = Reflect.get(target, property);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (!RECORDED_METHODS.has(property)) return method;
      const settle: Settle<APIResponse> = ({ args, stack, trace }, startedMs, response, error) => {
        const test = currentTest();
        const call = { method: (property === 'fetch' ? fetchMethod(args[0], args[1]) : property).toUpperCase(), url: writtenUrl(args[0]) };
        const traced = traceFieldsOf(trace, startedMs);
        // Outside any test, where the reporter runs (global setup and teardown): the record goes to it, without body checks or excerpts.
        const outside = test === undefined && stack !== undefined ? callsOutsideTestsCollector() : undefined;
        if (response !== undefined) {
          if (test === undefined && outside === undefined) return response;
          const endpoint = `${call.method} ${pathOfUrl(response.url(), undefined) ?? '/'}`;
          const record = { statusCode: response.status(), endpoint, ...timingOf(response, startedMs), ...traced, call };
          if (test === undefined) {
            outside?.({ record, stack });
            return response;
          }
          // With a contract, the call's bodies are checked before the test goes on: the record carries the outcome, never a body.
          // With failureExcerptBytes, a call that answered 400 or above keeps the first bytes of its body, secrets replaced.
          return Promise.all([callCheckerFor(test.config), failureExcerptsFor(test.config)]).then(async ([checker, excerptOf]) => {
            const checks = checker?.wants(record.endpoint) === true;
            const excerpts = excerptOf !== undefined && record.statusCode >= 400;
            if (!checks && !excerpts) {
              attachRecord(record, test);
              return response;
            }
            const body = await response.body().catch(() => undefined);
            const checked = checks ? checkedCall(checker, record, response, body, args[1], contextHeaders) : {};
            // Decided as the record is attached: the order in which the report lists a test's calls.
            const excerpt = excerpts && body !== undefined ? excerptOf(body, test, record.endpoint, record.statusCode) : undefined;
            attachRecord({ ...record, ...checked, ...(excerpt === undefined ? {} : { excerpt }) }, test);
            return body === undefined ? response : servingBody(response, body);
          });
        }
        if (test !== undefined) attachRecord({ ...noResponseRecord(call, error, startedMs, baseURL), ...traced }, test);
        else outside?.({ record: { ...noResponseRecord(call, error, startedMs, baseURL), ...traced }, stack });
        throw error;
      };
      const begin = (args: unknown[]): Begun => {
        const test = currentTest();
        const stack = stackOutsideTests(currentTest);
        // A call is traced where it is recorded and the run's traceContext is on: in a test, or outside tests where the reporter takes them.
        const traces =
          test !== undefined ? settingsNow(test.config)?.traceContext !== false : stack !== undefined && traceContextOutsideTests();
        if (!traces) return { args, stack };
        return { ...traceCall(args, contextHeaders, () => (test === undefined ? undefined : traceOfTest(test))), stack };
      };
      return observeCall(method as Call<APIResponse>, settle, begin);
    },
  });
  recordingContexts.add(recording);
  return recording;
}

/**
 * The check of a call against the contract: its bodies' conformance and
 * the conditions it met; nothing when the check failed (it never fails the
 * test).
 */
function checkedCall(
  checker: CallChecker,
  record: { readonly endpoint: string; readonly statusCode: number },
  response: APIResponse,
  body: Buffer | undefined,
  options: unknown,
  contextHeaders: Readonly<Record<string, string>> | undefined,
): CallCheck {
  const sent = sentBody(options);
  try {
    return checker.check({
      endpoint: record.endpoint,
      statusCode: record.statusCode,
      responseContentType: response.headers()['content-type'],
      responseBody: body,
      requestContentType: sent.contentType,
      requestBody: sent.body,
      url: response.url(),
      requestHeaders: [...headerPairs(contextHeaders), ...headerPairs((options as { headers?: unknown } | undefined)?.headers)],
      formFields: sent.formFields,
    });
  } catch {
    return {};
  }
}

/** A headers object's pairs whose values are strings (as Playwright sends them). */
function headerPairs(headers: unknown): [string, string][] {
  if (typeof headers !== 'object' || headers === null) return [];
  return Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as [string, string]] : []));
}

/**
 * Playwright's `playwright.request`, with `newContext` returning contexts
 * that record every call for whichever test is running when it is made.
 */
export function recordingApiRequest(apiRequest: APIRequest, currentTest: () => TestInfo | undefined): APIRequest {
  const newContext = observeCall(
    (...args: unknown[]) => apiRequest.newContext(...(args as Parameters<APIRequest['newContext']>)),
    ({ args }, _startedMs, context: APIRequestContext | undefined, error) => {
      if (context === undefined) throw error;
      const options = args[0] as { readonly baseURL?: unknown; readonly extraHTTPHeaders?: unknown } | undefined;
      const headers = headerPairs(options?.extraHTTPHeaders);
      return recordRequests(
        context,
        currentTest,
        typeof options?.baseURL === 'string' ? options.baseURL : undefined,
        headers.length === 0 ? undefined : Object.fromEntries(headers),
      );
    },
  );
  return overriding(apiRequest, 'newContext', newContext);
}

/**
 * `target` with one property read differently. Everything else, writes
 * included, goes to `target` itself: Playwright's fixtures set options on
 * these objects (`_defaultContextOptions` up to 1.5x) that the original's own
 * methods must then see.
 */
export function overriding<Target extends object>(target: Target, property: PropertyKey, value: unknown): Target {
  return new Proxy(target, {
    get: (object, key) => (key === property ? value : Reflect.get(object, key)),
  });
}

/**
 * `target` with some methods replaced; every other method is the target's
 * own, bound to it (Playwright's objects keep state a proxy cannot reach),
 * and every other property and every write go to the target itself.
 */
export function withMethods<Target extends object>(target: Target, methods: Readonly<Record<string, unknown>>): Target {
  return new Proxy(target, {
    get(object, property) {
      if (typeof property === 'string' && Object.hasOwn(methods, property)) return methods[property];
      const value: unknown = Reflect.get(object, property);
      // Its class is no method: Playwright's matchers (toBeOK, before 1.52) check `constructor.name`, which a bound class renames.
      if (property === 'constructor' || typeof value !== 'function') return value;
      return (value as (...args: unknown[]) => unknown).bind(object);
    },
  });
}

/** A traced call's ids and start (milliseconds since the epoch, on the clock OpenTelemetry's SDK stamps spans with), for its record. */
function traceFieldsOf(trace: CallTrace | undefined, startedMs: number) {
  if (trace === undefined) return {};
  return { ...trace, startedAtMs: roundToMicroseconds(performance.timeOrigin + startedMs) };
}

function noResponseRecord(call: { method: string; url: string }, error: unknown, startedMs: number, baseURL: string | undefined) {
  const message = error instanceof Error ? error.message : String(error);
  const path = pathOfUrl(calledUrlOf(message) ?? call.url, baseURL) ?? '/';
  return {
    errorCode: errorCodeOf(message.split('\n')[0] ?? ''),
    endpoint: `${call.method} ${path}`,
    responseTimeMs: roundToMicroseconds(performance.now() - startedMs),
    call,
  };
}

/**
 * The response, its body served from the bytes read for the check: the
 * test's own `body()`, `text()` and `json()` then cost no second read from
 * Playwright, so checking a body costs the test one read, not two. Each
 * gives what Playwright's would (a fresh Buffer; UTF-8 text; JSON parsed
 * from it); once the test disposes of the response they go to Playwright's
 * own, which refuse as they always do.
 */
function servingBody(response: APIResponse, body: Buffer): APIResponse {
  let disposed = false;
  const served: Record<string, unknown> = {
    // Promises that settle as Playwright's do: a body that is no JSON rejects json(), never throws.
    body: () => (disposed ? response.body() : Promise.resolve(Buffer.from(body))),
    text: () => (disposed ? response.text() : Promise.resolve(body.toString('utf8'))),
    json: () => (disposed ? response.json() : Promise.resolve().then(() => JSON.parse(body.toString('utf8')) as unknown)),
    dispose: async () => {
      disposed = true;
      await response.dispose();
    },
  };
  return withMethods(response, served);
}

/**
 * The body a call sent, as its options give it: `data` (an object or array
 * Playwright sends as JSON; a string or bytes as they are, with the
 * content type the test set or Playwright's `application/octet-stream`),
 * `form` or `multipart` (never JSON). Nothing for a call without one.
 */
function sentBody(options: unknown): {
  readonly contentType: string | undefined;
  readonly body: CheckedBody;
  readonly formFields?: readonly (readonly [string, string])[];
} {
  if (typeof options !== 'object' || options === null) return { contentType: undefined, body: undefined };
  const { data, form, multipart, headers } = options as { data?: unknown; form?: unknown; multipart?: unknown; headers?: unknown };
  const contentType = headerOf(headers, 'content-type');
  if (form !== undefined)
    return { contentType: contentType ?? 'application/x-www-form-urlencoded', body: { value: form }, formFields: fieldsOf(form) };
  if (multipart !== undefined)
    return { contentType: contentType ?? 'multipart/form-data', body: { value: multipart }, formFields: fieldsOf(multipart) };
  if (typeof data === 'string' || data instanceof Uint8Array)
    return { contentType: contentType ?? 'application/octet-stream', body: { text: data } };
  return { contentType, body: data === undefined ? undefined : { value: data } };
}

/** A form's fields with a text value (a number or boolean as Playwright sends it): an object's, or a FormData's; files have none. */
function fieldsOf(form: unknown): [string, string][] {
  if (typeof form !== 'object' || form === null) return [];
  const entries: Iterable<[string, unknown]> =
    typeof (form as { entries?: unknown }).entries === 'function' && !Array.isArray(form)
      ? (form as { entries(): Iterable<[string, unknown]> }).entries()
      : Object.entries(form);
  const fields: [string, string][] = [];
  for (const [name, value] of entries)
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields.push([name, String(value)]);
  return fields;
}

function writtenUrl(urlOrRequest: unknown): string {
  if (typeof urlOrRequest === 'string') return urlOrRequest;
  if (typeof urlOrRequest === 'object' && urlOrRequest !== null && 'url' in urlOrRequest && typeof urlOrRequest.url === 'function') {
    return String((urlOrRequest.url as () => unknown).call(urlOrRequest));
  }
  return String(urlOrRequest);
}

function fetchMethod(urlOrRequest: unknown, options: unknown): string {
  if (typeof options === 'object' && options !== null && 'method' in options && typeof options.method === 'string') return options.method;
  if (typeof urlOrRequest === 'object' && urlOrRequest !== null && 'method' in urlOrRequest && typeof urlOrRequest.method === 'function') {
    return String((urlOrRequest.method as () => unknown).call(urlOrRequest));
  }
  return 'GET';
}

/**
 * The response time and phases of a call. Playwright 1.62 and later measure
 * the call themselves (`APIResponse.timing()`, resource-timing offsets from
 * the request's start, -1 for a phase that did not happen): the response
 * time is `responseEnd` (or `responseStart` when the body was not read), free
 * of the test's own event-loop delays. Older versions have no timing: the
 * time around the call is used, and no phases are recorded.
 */
function timingOf(response: APIResponse, startedMs: number): { responseTimeMs: number; timingMs?: TimingPhases } {
  const measuredMs = roundToMicroseconds(performance.now() - startedMs);
  const timing = typeof response.timing === 'function' ? response.timing() : undefined;
  return (timing === undefined ? undefined : responseTimeOf(timing)) ?? { responseTimeMs: measuredMs };
}
