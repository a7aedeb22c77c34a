import { withoutMatrixParameters } from '../../src/records/normaliseExecutionRecords.js';

/**
 * The API calls a test sent, as Playwright reports them to reporters: every
 * call of every APIRequestContext, whatever made the context, is a step of
 * category `pw:api`. Its title has changed over Playwright's versions; these
 * three forms were seen (in 1.45.3, 1.50.1, 1.53.2, 1.56.1, 1.59.1, 1.62.1
 * and 1.65.1):
 *
 * - up to 1.50: `apiRequestContext.get(/orders/7?page=2)`, the method in the
 *   function name (`fetch` for any method);
 * - 1.51 to 1.62: `GET "/orders/7?page=2"`, the method as the test wrote it;
 * - 1.63 and later: `GET`, with `params: { url, method }` on the step.
 */

/** One API call a step reports. */
export interface ApiCall {
  /** Upper-cased method, or undefined when the step does not say (`apiRequestContext.fetch` up to 1.50). */
  readonly method: string | undefined;
  /** The URL as the test wrote it (absolute, or relative to a base URL); up to 1.62, its path and query only. */
  readonly url: string;
  /** How long the call took, in milliseconds. */
  readonly durationMs: number;
  /** The first line of the error, when the call got no response. */
  readonly error: string | undefined;
  /** The whole error message, for the URL the call log names. */
  readonly errorMessage: string | undefined;
  /** Where the test made the call, as the step gives it (absolute file). */
  readonly location: StepLocation | undefined;
}

/** A step's place in a source file, as Playwright gives it: absolute file, 1-based line and column. */
export interface StepLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** What this module needs of a reporter's `TestStep`. */
export interface StepLike {
  readonly category: string;
  readonly title: string;
  readonly duration: number;
  readonly error?: { readonly message?: string } | undefined;
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  readonly location?: StepLocation | undefined;
  readonly steps: readonly StepLike[];
}

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT']);
const LEGACY_TITLE = /^apiRequestContext\.(get|post|put|patch|delete|head|fetch)\((.*)\)$/s;
const QUOTED_TITLE = /^([A-Za-z]+) "(.*)"$/s;

/** Every API call in a test result's steps, hooks and nested steps included, in the order they started. */
export function apiCallsOf(steps: readonly StepLike[]): ApiCall[] {
  const calls: ApiCall[] = [];
  const visit = (step: StepLike): void => {
    if (step.category === 'pw:api') {
      const call = apiCallOf(step);
      if (call !== undefined) calls.push(call);
    }
    step.steps.forEach(visit);
  };
  steps.forEach(visit);
  return calls;
}

/** The API call one `pw:api` step reports, or undefined for any other Playwright call. */
function apiCallOf(step: StepLike): ApiCall | undefined {
  const target = callTarget(step);
  if (target === undefined) return undefined;
  const message = step.error?.message;
  return {
    ...target,
    durationMs: Math.max(0, step.duration),
    error: message === undefined ? undefined : firstLine(message),
    errorMessage: message,
    location:
      step.location === undefined ? undefined : { file: step.location.file, line: step.location.line, column: step.location.column },
  };
}

function callTarget(step: StepLike): { method: string | undefined; url: string } | undefined {
  const { params } = step;
  if (params !== undefined && typeof params['url'] === 'string' && typeof params['method'] === 'string') {
    const method = params['method'].toUpperCase();
    return HTTP_METHODS.has(method) || method === step.title.toUpperCase() ? { method, url: params['url'] } : undefined;
  }
  const quoted = QUOTED_TITLE.exec(step.title);
  if (quoted !== null && HTTP_METHODS.has(quoted[1]!.toUpperCase()) && looksLikeUrl(quoted[2]!)) {
    return { method: quoted[1]!.toUpperCase(), url: quoted[2]! };
  }
  const legacy = LEGACY_TITLE.exec(step.title);
  if (legacy !== null) return { method: legacy[1] === 'fetch' ? undefined : legacy[1]!.toUpperCase(), url: legacy[2]! };
  return undefined;
}

function looksLikeUrl(text: string): boolean {
  return text.startsWith('/') || /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
}

function firstLine(message: string): string {
  // Playwright colours its call log; the first line is the error itself.
  return (message.split('\n')[0] ?? '').replace(/^\w*Error: /, '').trim();
}

/**
 * The error code of a call that got no response, from its message:
 * `connect ECONNREFUSED 127.0.0.1:9` is ECONNREFUSED, `getaddrinfo ENOTFOUND x`
 * ENOTFOUND, a Playwright timeout ETIMEDOUT, `socket hang up` ECONNRESET;
 * anything else is `UNKNOWN`.
 */
export function errorCodeOf(firstLineOfMessage: string): string {
  const withoutApi = firstLineOfMessage.replace(/^[\w.]+: /, '');
  const code = /\b(E[A-Z][A-Z0-9_]{2,})\b/.exec(withoutApi);
  if (code !== null) return code[1]!;
  if (/\bTimeout \d+ms exceeded\b|\btimed out\b/i.test(withoutApi)) return 'ETIMEDOUT';
  if (/socket hang up/i.test(withoutApi)) return 'ECONNRESET';
  return 'UNKNOWN';
}

/** The URL the call log of a failed call names (`→ GET http://127.0.0.1:9/down`), resolved as Playwright sent it. */
export function calledUrlOf(errorMessage: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- the call log is coloured with ANSI escapes
  const plain = errorMessage.replace(/\u001b\[[0-9;]*m/g, '');
  return /→ [A-Za-z]+ (\S+)/.exec(plain)?.[1];
}

/**
 * The path of a URL as a test wrote it: an absolute URL's path; a relative
 * one resolved against the base URL (or against `/` when there is none);
 * without its matrix parameters (`/cart;jsessionid=…/items` is `/cart/items`).
 * Undefined when it cannot be parsed.
 */
export function pathOfUrl(url: string, baseURL: string | undefined): string | undefined {
  try {
    return withoutMatrixParameters(new URL(url, baseURL ?? 'http://localhost/').pathname);
  } catch {
    try {
      return withoutMatrixParameters(new URL(url, 'http://localhost/').pathname);
    } catch {
      return undefined;
    }
  }
}
