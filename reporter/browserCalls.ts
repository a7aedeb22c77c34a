import type { BrowserContext, Request } from '@playwright/test';
import type { TimingPhases } from '../src/index.js';
import { responseTimeOf, roundToMicroseconds, type ResourceTiming } from './resourceTiming.js';
import { pathOfUrl } from './apiCalls.js';

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
const NEVER_API_TYPES = new Set(['document', 'stylesheet', 'image', 'media', 'font', 'script', 'texttrack', 'websocket', 'manifest', 'eventsource', 'other']);

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

/** An observation of one browser context: `stop()` waits for the calls in flight (a while) and ends it. */
export interface BrowserCallObservation {
  readonly counts: Readonly<BrowserCallCounts>;
  stop(): Promise<void>;
}

/**
 * How long `stop()` waits for calls still in flight: Playwright reports a
 * request finished a little after the page has its response, and the
 * context is about to close. A call that has not ended by then (a long
 * poll) is counted in `unfinishedCallCount`, not recorded.
 */
const SETTLE_MS = 2_000;

/**
 * Observes a browser context's API calls: each execution goes to `record`
 * as it ends, and the calls that cannot be measured are counted.
 */
export function observeBrowserCalls(context: BrowserContext, rules: ApiCallRules, record: (execution: BrowserExecution) => void): BrowserCallObservation {
  const isApiCall = apiCallTest(rules);
  const counts: BrowserCallCounts = { seenCount: 0, executionCount: 0, mockedCallCount: 0, cachedCallCount: 0, serviceWorkerCallCount: 0, unfinishedCallCount: 0 };
  const started = new WeakMap<Request, number>();
  const inFlight = new Set<Request>();
  let settled: (() => void) | undefined;
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };
  const onRequest = (request: Request): void => {
    started.set(request, performance.now());
    if (isApiCall(request)) inFlight.add(request);
  };
  const ended = (request: Request): void => {
    inFlight.delete(request);
    if (inFlight.size === 0) settled?.();
  };
  const onFinished = (request: Request): void => {
    ended(request);
    if (!isApiCall(request)) return;
    track(
      (async () => {
        counts.seenCount++;
        const response = await request.response().catch(() => null);
        if (response === null) return;
        if (response.fromServiceWorker()) {
          counts.serviceWorkerCallCount++;
          return;
        }
        const timing = request.timing();
        // Asked only when no request was sent: each question is a round trip to the browser.
        if (timing.requestStart < 0 && (await response.serverAddr().catch(() => null)) === null) {
          counts.mockedCallCount++;
          return;
        }
        const sizes = await request.sizes().catch(() => undefined);
        if (sizes !== undefined && sizes.responseHeadersSize + sizes.responseBodySize <= 0) {
          counts.cachedCallCount++;
          return;
        }
        counts.executionCount++;
        record({ statusCode: response.status(), endpoint: `${request.method()} ${(pathOfUrl(request.url(), undefined) ?? '/')}`, ...timingOf(timing, started.get(request)) });
      })(),
    );
  };
  const onFailed = (request: Request): void => {
    ended(request);
    if (!isApiCall(request)) return;
    counts.seenCount++;
    counts.executionCount++;
    const since = started.get(request);
    const errorText = request.failure()?.errorText ?? '';
    record({ errorCode: browserErrorCode(errorText), endpoint: `${request.method()} ${(pathOfUrl(request.url(), undefined) ?? '/')}`, responseTimeMs: since === undefined ? 0 : roundToMicroseconds(performance.now() - since) });
  };
  context.on('request', onRequest);
  context.on('requestfinished', onFinished);
  context.on('requestfailed', onFailed);
  return {
    counts,
    async stop() {
      if (inFlight.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, SETTLE_MS);
          settled = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      counts.unfinishedCallCount = inFlight.size;
      while (pending.size > 0) await Promise.all([...pending]);
      context.off('request', onRequest);
      context.off('requestfinished', onFinished);
      context.off('requestfailed', onFailed);
    },
  };
}

/** Whether a request is an API call by the rules. */
function apiCallTest({ resourceTypes = DEFAULT_API_RESOURCE_TYPES, include, exclude }: ApiCallRules): (request: Request) => boolean {
  const types = new Set(resourceTypes.filter((type) => !NEVER_API_TYPES.has(type)));
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
