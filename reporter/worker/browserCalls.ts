import { pageTrace } from './traceContext.js';
import type { BrowserContext, Request, Response } from '@playwright/test';
import type { TimingPhases } from '../../src/records/executionRecord.js';
import { responseTimeOf, roundToMicroseconds, type ResourceTiming } from './resourceTiming.js';
import { pathOfUrl } from '../shared/apiCalls.js';

/**
 * The API calls a web application makes in a browser context, observed from
 * Playwright's network events: never a route handler (one disables the
 * browser's HTTP cache) and never an injected header (one adds CORS
 * preflights), so the application runs as it would without this package.
 *
 * Which requests are API calls: by resource type (`fetch` and `xhr` by
 * default) and by URL patterns (`include`, `exclude`: globs as Playwright
 * takes them, `**` any characters, `*` any but `/`). Documents, scripts,
 * styles, images, fonts, media, WebSockets, manifests and the like are never
 * executions, whatever the settings say.
 *
 * What cannot be measured is counted apart, never mixed into the
 * executions: a response fulfilled by a route of the test's own
 * (`page.route`, `context.route`: no server address, no request sent), one
 * served by a service worker (`fromServiceWorker()`), one served from the
 * browser's HTTP cache (Chromium reports it with nothing transferred). A
 * redirect is one execution per hop, each with its own status. A request
 * that fails (`requestfailed`: aborted, refused, blocked) is a no-response
 * execution, its error mapped to a code, its time measured here from the
 * `request` event to the failure (the browser gives no timing for it).
 *
 * Time: `request.timing()`, whose fields are milliseconds after its
 * `startTime`; the response time is `responseEnd`, when the last byte of the
 * body arrived (for a body streamed over seconds, that long), with the same
 * phases as an API call's (dns, connect, tls, wait, receive).
 */

/** The resource types that are API calls by default. */
export const DEFAULT_API_RESOURCE_TYPES: readonly string[] = ['fetch', 'xhr'];

/** Resource types that are never API calls: what a page is made of. */
const NEVER_API_TYPES = new Set([
  'document',
  'stylesheet',
  'image',
  'media',
  'font',
  'script',
  'texttrack',
  'websocket',
  'manifest',
  'eventsource',
]);

/**
 * The browsers' own resource types of a setting's type: `other` is beacons
 * and pings, which Chromium calls `ping` (both), Firefox `beacon` and
 * `other` (a ping), WebKit `beacon` and `ping`.
 */
const BROWSER_RESOURCE_TYPES: ReadonlyMap<string, readonly string[]> = new Map([['other', ['other', 'ping', 'beacon']]]);

/** Which requests are API calls (the `apiCalls` setting). */
export interface ApiCallRules {
  /** Resource types; default fetch and xhr. Page-making types are refused whatever this says. */
  readonly resourceTypes?: readonly string[] | undefined;
  /** URL globs a request must match (any of them), when given. */
  readonly include?: readonly string[] | undefined;
  /** URL globs that leave a request out. */
  readonly exclude?: readonly string[] | undefined;
}

/** An execution observed in the browser, as the fixture records it. */
export interface BrowserExecution {
  readonly statusCode?: number;
  readonly errorCode?: string;
  /** `GET /api/orders`: the method and the URL's path, no query. */
  readonly endpoint: string;
  readonly responseTimeMs: number;
  readonly timingMs?: TimingPhases;
  /** The ids of a `traceparent` the page itself sent (the fixture never adds one to a page's request). */
  readonly traceId?: string;
  readonly spanId?: string;
}

/** What an observation saw besides its executions. */
export interface BrowserCallCounts {
  /** API calls seen (every outcome below, and the executions). */
  seenCount: number;
  executionCount: number;
  mockedCallCount: number;
  cachedCallCount: number;
  serviceWorkerCallCount: number;
  /** API calls still in flight when the observation stopped: neither an execution nor a failure. */
  unfinishedCallCount: number;
}

/** Counts of no call at all. */
export function noBrowserCalls(): BrowserCallCounts {
  return { seenCount: 0, executionCount: 0, mockedCallCount: 0, cachedCallCount: 0, serviceWorkerCallCount: 0, unfinishedCallCount: 0 };
}

/** One kind of count of {@link BrowserCallCounts}. */
export type BrowserCallCount = keyof BrowserCallCounts;

/** Where what one call came to goes: the test running when it ended. */
export interface BrowserCallSink {
  record(execution: BrowserExecution): void;
  /** Counts a call seen (`seenCount`) and, once known, what it came to. */
  count(kind: BrowserCallCount): void;
}

/** An observation of one browser context. */
export interface BrowserCallObservation {
  /** Every call the observation saw, whichever sink it went to. */
  readonly counts: Readonly<BrowserCallCounts>;
  /** Waits (at most `waitMs`, by default a while) for the calls in flight to end, and for what they came to to reach their sinks. */
  settle(waitMs?: number): Promise<void>;
  /** Settles, counts the calls still in flight as unfinished, and ends the observation; `waitMs` 0 for a context that has closed already. */
  stop(waitMs?: number): Promise<void>;
}

/**
 * How long settling waits at most: Playwright reports a request finished a
 * little after the page has its response, and the test or the context is
 * about to end.
 */
const SETTLE_MS = 2_000;

/**
 * How long after its response a call's body is waited for. An API body
 * arrives within milliseconds of its head; one that has not within this
 * (a stream, or a response Chromium never finishes, as it does not a
 * redirect's last hop when the page then navigates) is recorded then, timed
 * to its first byte. A call with no response yet when its test ends (a long
 * poll, a request a route holds) is not waited for at all: it ends in a
 * later test that shares its page, or, when its context closes first, is
 * counted in `unfinishedCallCount`. No call is waited for twice.
 */
const BODY_GRACE_MS = 250;

/** How often settling looks again. */
const SETTLE_POLL_MS = 10;

/**
 * Observes a browser context's API calls: each execution goes to the sink
 * of the moment it ends (`sinkOf`, the running test; none outside a test),
 * and the calls that cannot be measured are counted there.
 */
export function observeBrowserCalls(
  context: BrowserContext,
  rules: ApiCallRules,
  sinkOf: () => BrowserCallSink | undefined,
): BrowserCallObservation {
  const isApiCall = apiCallTest(rules);
  const counts = noBrowserCalls();
  const started = new WeakMap<Request, number>();
  // Each response as its event hands it over: asking the request for it would be a round trip to the browser.
  const responses = new WeakMap<Request, Response>();
  const inFlight = new Set<Request>();
  // Calls a settling gave up on: never waited for again.
  const givenUp = new WeakSet<Request>();
  // Calls a settling concluded with their response so far: what Playwright says of them later is not counted again.
  const concluded = new WeakSet<Request>();
  // The address of each call's document when it was made: a call whose document has gone since is not waited for.
  const documents = new WeakMap<Request, string>();
  let stopped = false;
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const count = (sink: BrowserCallSink | undefined, kind: BrowserCallCount): void => {
    counts[kind]++;
    sink?.count(kind);
  };
  const onRequest = (request: Request): void => {
    started.set(request, performance.now());
    documents.set(request, documentOf(request));
    if (isApiCall(request)) inFlight.add(request);
  };
  const respondedAt = new WeakMap<Request, number>();
  const onResponse = (response: Response): void => {
    responses.set(response.request(), response);
    respondedAt.set(response.request(), performance.now());
  };
  const ended = (request: Request): void => {
    inFlight.delete(request);
  };
  // What a call came to, once it ended, or once a settling concluded it with its response so far (its body dropped, or still arriving).
  const conclude = (request: Request, finished: boolean): void => {
    const sink = sinkOf();
    count(sink, 'seenCount');
    track(
      (async () => {
        const response = responses.get(request) ?? (await request.response().catch(() => null));
        if (response === null) {
          count(sink, 'unfinishedCallCount');
          return;
        }
        const outcome = await outcomeOf(request, response, finished);
        if ('kind' in outcome) {
          count(sink, outcome.kind);
          return;
        }
        count(sink, 'executionCount');
        sink?.record({
          statusCode: outcome.statusCode,
          endpoint: endpointOf(request),
          ...timingOf(request.timing(), started.get(request)),
          ...pageTrace(request.headers()),
        });
      })(),
    );
  };
  const onFinished = (request: Request): void => {
    ended(request);
    if (isApiCall(request) && !concluded.has(request)) conclude(request, true);
  };
  const onFailed = (request: Request): void => {
    ended(request);
    if (!isApiCall(request) || concluded.has(request)) return;
    // Answered, then its body cut off (the page went elsewhere): the server's answer, timed to its first byte.
    if (responses.has(request)) {
      conclude(request, false);
      return;
    }
    const sink = sinkOf();
    count(sink, 'seenCount');
    count(sink, 'executionCount');
    const errorText = request.failure()?.errorText ?? '';
    sink?.record({
      errorCode: browserErrorCode(errorText),
      endpoint: endpointOf(request),
      responseTimeMs: roundToMicroseconds(failedAfterMs(request, started.get(request))),
      ...pageTrace(request.headers()),
    });
  };
  context.on('request', onRequest);
  context.on('response', onResponse);
  context.on('requestfinished', onFinished);
  context.on('requestfailed', onFailed);
  // Whether a call is worth waiting for: its body is arriving, lately, to the document that made it.
  const awaited = (request: Request, nowMs: number): boolean =>
    !givenUp.has(request) &&
    nowMs - (respondedAt.get(request) ?? Number.NEGATIVE_INFINITY) < BODY_GRACE_MS &&
    documents.get(request) === documentOf(request);
  const settle = async (waitMs = SETTLE_MS): Promise<void> => {
    const deadline = performance.now() + waitMs;
    for (
      let nowMs = performance.now();
      nowMs < deadline && [...inFlight].some((request) => awaited(request, nowMs));
      nowMs = performance.now()
    ) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_POLL_MS, deadline - nowMs)));
    }
    for (const request of [...inFlight]) {
      if (responses.has(request) && isApiCall(request)) {
        // Answered, its body dropped (the page went elsewhere, and Chromium says no more of it) or still arriving: an execution, timed to its first byte.
        inFlight.delete(request);
        concluded.add(request);
        conclude(request, false);
      } else givenUp.add(request);
    }
    while (pending.size > 0) await Promise.all([...pending]);
  };
  return {
    counts,
    settle,
    async stop(waitMs) {
      if (stopped) return;
      stopped = true;
      await settle(waitMs);
      const sink = sinkOf();
      for (let unfinished = inFlight.size; unfinished > 0; unfinished--) {
        count(sink, 'seenCount');
        count(sink, 'unfinishedCallCount');
      }
      inFlight.clear();
      context.off('request', onRequest);
      context.off('response', onResponse);
      context.off('requestfinished', onFinished);
      context.off('requestfailed', onFailed);
    },
  };
}

/**
 * What a response came to: one with no measurable time (`kind`): one a
 * service worker gave; one a route of the test's own fulfilled (no request
 * was sent, and no server address is known); one the HTTP cache gave
 * (Chromium reports nothing transferred). Otherwise an execution, with the
 * status the server answered: a cached response the server revalidated
 * reaches the page with its cached status (200), though the server answered
 * 304 Not Modified, which shows as headers transferred and no body for a
 * response whose body is not empty (its body is asked for only then). Each
 * question beyond the first is asked only when the one before cannot tell:
 * they are round trips to the browser. Of a call that has not `finished`
 * (its body dropped, or its end not told yet on a loaded machine), only what
 * its response tells: the sizes of a request Chromium never finishes would
 * never come: they are waited for a while longer (a cached call's end can
 * reach a loaded worker late), then the call is the server's answer.
 */
export async function outcomeOf(
  request: Request,
  response: Response,
  finished: boolean,
): Promise<{ readonly kind: BrowserCallCount } | { readonly statusCode: number }> {
  if (response.fromServiceWorker()) return { kind: 'serviceWorkerCallCount' };
  // A context that closed meanwhile answers nothing: the call then counts as the server's.
  if (request.timing().requestStart < 0 && (await response.serverAddr().catch(() => undefined)) === null)
    return { kind: 'mockedCallCount' };
  // Not told finished yet: its sizes are asked once more, for a while, and come once it has (a loaded machine tells late).
  const sizes = finished ? await request.sizes().catch(() => undefined) : await within(request.sizes(), BODY_GRACE_MS);
  if (sizes === undefined) return { statusCode: response.status() };
  if (sizes.responseHeadersSize + sizes.responseBodySize <= 0) return { kind: 'cachedCallCount' };
  if (response.status() !== 200 || sizes.responseBodySize > 0) return { statusCode: response.status() };
  const body = await response.body().catch(() => undefined);
  return { statusCode: body !== undefined && body.length > 0 ? 304 : 200 };
}

/** What `work` gives within `ms`, or undefined: when it fails, or has not settled by then. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The address of the document a call belongs to, as it is now; empty for a call of no frame (a service worker's). */
function documentOf(request: Request): string {
  try {
    return request.frame().url();
  } catch {
    return '';
  }
}

/** `GET /api/orders`: the method and the URL's path, no query. */
function endpointOf(request: Request): string {
  return `${request.method()} ${pathOfUrl(request.url(), undefined) ?? '/'}`;
}

/** Whether a request is an API call by the rules. */
function apiCallTest({ resourceTypes = DEFAULT_API_RESOURCE_TYPES, include, exclude }: ApiCallRules): (request: Request) => boolean {
  const types = new Set(
    resourceTypes.flatMap((type) => BROWSER_RESOURCE_TYPES.get(type) ?? [type]).filter((type) => !NEVER_API_TYPES.has(type)),
  );
  const included = include === undefined || include.length === 0 ? undefined : include.map(globToRegExp);
  const excluded = (exclude ?? []).map(globToRegExp);
  return (request) => {
    if (!types.has(request.resourceType())) return false;
    const url = request.url();
    if (!/^https?:/i.test(url)) return false;
    if (included !== undefined && !included.some((pattern) => pattern.test(url))) return false;
    return !excluded.some((pattern) => pattern.test(url));
  };
}

/** A URL glob as Playwright writes them: `**` any characters, `*` any but `/`, `?` one character; the rest literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index]!;
    if (character === '*' && glob[index + 1] === '*') {
      source += '.*';
      index++;
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '.';
    else source += character.replace(/[.+^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * Chromium's network errors (`net::ERR_CONNECTION_REFUSED`) as the codes
 * API calls that get no response carry (ECONNREFUSED); others as their own
 * name without the prefix (`ERR_ABORTED`), so that every failure has a code.
 */
const NETWORK_ERROR_CODES: Readonly<Record<string, string>> = {
  'net::ERR_CONNECTION_REFUSED': 'ECONNREFUSED',
  'net::ERR_CONNECTION_RESET': 'ECONNRESET',
  'net::ERR_CONNECTION_CLOSED': 'ECONNRESET',
  'net::ERR_EMPTY_RESPONSE': 'ECONNRESET',
  'net::ERR_NAME_NOT_RESOLVED': 'ENOTFOUND',
  'net::ERR_TIMED_OUT': 'ETIMEDOUT',
  'net::ERR_CONNECTION_TIMED_OUT': 'ETIMEDOUT',
};

/** The code of a failed request's error text (Chromium's `net::ERR_…`, Firefox's and WebKit's own words). */
export function browserErrorCode(errorText: string): string {
  const known = NETWORK_ERROR_CODES[errorText];
  if (known !== undefined) return known;
  const chromium = /^net::(ERR_[A-Z0-9_]+)$/.exec(errorText);
  if (chromium !== null) return chromium[1]!;
  if (/refused/i.test(errorText)) return 'ECONNREFUSED';
  if (/abort|cancel/i.test(errorText)) return 'ERR_ABORTED';
  if (/timed? ?out/i.test(errorText)) return 'ETIMEDOUT';
  return 'UNKNOWN';
}

/** The response time and phases from the request's timing; for a request with neither, the time since its `request` event. */
function timingOf(timing: ResourceTiming, startedMs: number | undefined): { responseTimeMs: number; timingMs?: TimingPhases } {
  return responseTimeOf(timing) ?? { responseTimeMs: startedMs === undefined ? 0 : roundToMicroseconds(performance.now() - startedMs) };
}

/**
 * How long a failed call took, to its failure: from the browser's own start
 * of the request (`timing().startTime`, milliseconds since the epoch), which
 * holds when this process hears of the request late (a busy machine delivers
 * its request and failure events together), or from its request event when
 * the browser gives no start; the longer of the two, as either can only be late.
 */
function failedAfterMs(request: Request, startedMs: number | undefined): number {
  const sinceEvent = startedMs === undefined ? 0 : performance.now() - startedMs;
  const { startTime } = request.timing();
  const sinceBrowserStart = startTime > 0 ? Date.now() - startTime : 0;
  return Math.max(0, sinceEvent, sinceBrowserStart);
}
