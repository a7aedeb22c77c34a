import { test as base, type APIRequestContext, type APIResponse, type TestInfo } from '@playwright/test';
import { recordExecution } from './recordExecution.js';

export { expect } from '@playwright/test';

const recordedMethods = new Set(['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head']);

type RequestMethod = (urlOrRequest: unknown, options?: { method?: string }) => Promise<APIResponse>;

/**
 * Wraps an API request context so that every call it makes is recorded as an
 * execution: status, method, the path of the URL that answered (no query) and
 * the elapsed time. A call that gets no response (a network error) records
 * nothing and throws as before.
 */
export function recordRequests(request: APIRequestContext, testInfo: TestInfo): APIRequestContext {
  return new Proxy(request, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (!recordedMethods.has(property)) return method;
      const send = method as RequestMethod;
      return async (urlOrRequest: unknown, options?: { method?: string }) => {
        const started = performance.now();
        const response = await send(urlOrRequest, options);
        const responseTimeMs = performance.now() - started;
        const verb = property === 'fetch' ? fetchMethod(urlOrRequest, options) : property;
        await recordExecution({ statusCode: response.status(), endpoint: `${verb.toUpperCase()} ${new URL(response.url()).pathname}`, responseTimeMs }, testInfo);
        return response;
      };
    },
  });
}

function fetchMethod(urlOrRequest: unknown, options: { method?: string } | undefined): string {
  if (options?.method !== undefined) return options.method;
  if (typeof urlOrRequest === 'object' && urlOrRequest !== null && 'method' in urlOrRequest && typeof urlOrRequest.method === 'function') {
    return String((urlOrRequest.method as () => unknown).call(urlOrRequest));
  }
  return 'GET';
}

/**
 * Playwright's `test`, with a `request` fixture that records every call it
 * makes for the quality-evidence reporter. Use it in place of the test of
 * `@playwright/test`: `import { test, expect } from 'quality-evidence/test'`.
 */
export const test = base.extend({
  request: async ({ request }, use, testInfo) => {
    await use(recordRequests(request, testInfo));
  },
});
