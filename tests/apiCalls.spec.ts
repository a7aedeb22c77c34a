import { expect, test } from './support/test.js';
import { accountForCalls } from '../reporter/runner/accountForCalls.js';
import { apiCallsOf, errorCodeOf, type StepLike } from '../reporter/shared/apiCalls.js';
import { overriding } from '../reporter/worker/recordRequests.js';
import { templateEndpoint } from '../src/index.js';

// Step shapes as Playwright reports them to reporters, captured from real
// runs of 1.45.3 / 1.50.1 (legacy titles), 1.53.2 to 1.62.1 (quoted titles)
// and 1.65.1 (title and params).
function step(title: string, fields: Partial<StepLike> = {}): StepLike {
  return { category: 'pw:api', title, duration: 12, steps: [], ...fields };
}
const refused = {
  message:
    'Error: apiRequestContext.get: connect ECONNREFUSED 127.0.0.1:9\nCall log:\n\u001b[2m  - → GET http://127.0.0.1:9/down\u001b[22m\n',
};

test.describe('reading API calls from steps', () => {
  test('1.63 and later: the method and the URL as written come from the step params', () => {
    expect(
      apiCallsOf([
        step('GET', { params: { url: '/orders/12?x=1', method: 'GET' } }),
        step('delete', { params: { url: 'http://h/a', method: 'delete' } }),
      ]),
    ).toEqual([
      { method: 'GET', url: '/orders/12?x=1', durationMs: 12, error: undefined, errorMessage: undefined },
      { method: 'DELETE', url: 'http://h/a', durationMs: 12, error: undefined, errorMessage: undefined },
    ]);
  });

  test('1.51 to 1.62: the method and the path come from a quoted title', () => {
    expect(apiCallsOf([step('POST "/auth"'), step('delete "/missing/abc"')]).map(({ method, url }) => [method, url])).toEqual([
      ['POST', '/auth'],
      ['DELETE', '/missing/abc'],
    ]);
  });

  test('up to 1.50: the method comes from the function name, and fetch leaves it open', () => {
    expect(
      apiCallsOf([step('apiRequestContext.get(/orders/12?x=1)'), step('apiRequestContext.fetch(/missing/abc)')]).map(({ method, url }) => [
        method,
        url,
      ]),
    ).toEqual([
      ['GET', '/orders/12?x=1'],
      [undefined, '/missing/abc'],
    ]);
  });

  test('other Playwright calls are not API calls', () => {
    const others = [
      step('Create request context'),
      step('apiRequest.newContext'),
      step('apiResponse.json'),
      step('Get response body'),
      step('Fill "secret"'),
      step('Navigate to "/login"', { params: { url: '/login' } }),
      step('GET "/orders"', { category: 'test.step' }),
    ];
    expect(apiCallsOf(others)).toEqual([]);
  });

  test('calls inside hooks, fixtures and test.step are found, in order', () => {
    const nested = {
      category: 'hook',
      title: 'Before Hooks',
      duration: 30,
      steps: [step('GET', { params: { url: '/a', method: 'GET' } })],
    };
    expect(apiCallsOf([nested, step('GET', { params: { url: '/b', method: 'GET' } })]).map((call) => call.url)).toEqual(['/a', '/b']);
  });

  test('a failed call keeps the first line of its error', () => {
    expect(apiCallsOf([step('GET', { params: { url: 'http://127.0.0.1:9/down', method: 'GET' }, error: refused })])[0]?.error).toBe(
      'apiRequestContext.get: connect ECONNREFUSED 127.0.0.1:9',
    );
  });
});

test.describe('error codes of calls with no response', () => {
  const cases = [
    ['apiRequestContext.get: connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'],
    ['apiRequestContext.get: getaddrinfo ENOTFOUND nonexistent.invalid', 'ENOTFOUND'],
    ['apiRequestContext.get: getaddrinfo EAI_AGAIN api.example', 'EAI_AGAIN'],
    ['apiRequestContext.get: Timeout 1000ms exceeded.', 'ETIMEDOUT'],
    ['apiRequestContext.get: Request timed out after 1000ms', 'ETIMEDOUT'],
    ['apiRequestContext.post: read ECONNRESET', 'ECONNRESET'],
    ['apiRequestContext.post: socket hang up', 'ECONNRESET'],
    ['apiRequestContext.get: Request context disposed.', 'UNKNOWN'],
  ] as const;
  for (const [message, code] of cases) {
    test(`"${message}" is ${code}`, () => {
      expect(errorCodeOf(message)).toBe(code);
    });
  }
});

test.describe('accounting for calls', () => {
  const get = (url: string, error?: { message: string }) =>
    apiCallsOf([step('GET', { params: { url, method: 'GET' }, ...(error === undefined ? {} : { error }) })])[0]!;

  test('a record made by the fixture accounts for the call it names, even when the path differs (a redirect)', () => {
    const old = get('/old');
    const account = accountForCalls([old], [{ endpoint: 'GET /new', call: { method: 'GET', url: '/old' } }], 'http://h');
    expect(account).toEqual({ unrecorded: [], noResponse: [], callOfRecord: [old] });
  });

  test('a record made by hand accounts for a call of the same method and path, the query aside', () => {
    const call = get('/orders?page=2');
    expect(accountForCalls([call], [{ endpoint: 'get /orders' }], undefined)).toEqual({
      unrecorded: [],
      noResponse: [],
      callOfRecord: [call],
    });
  });

  test('a call no record accounts for is named by its path without matrix parameters, as a record made by hand with them accounts for one', () => {
    const calls = [get('/cart;jsessionid=SECRET/items'), get('/cart;jsessionid=SECRET/items')];
    const account = accountForCalls(calls, [{ endpoint: 'GET /cart;jsessionid=OTHER/items' }], 'http://h');
    expect(account.unrecorded).toEqual(['GET /cart/items']);
  });

  test('a relative URL resolves against the base URL, path prefix included', () => {
    const call = get('orders');
    expect(accountForCalls([call], [{ endpoint: 'GET /api/orders' }], 'http://h/api/')).toEqual({
      unrecorded: [],
      noResponse: [],
      callOfRecord: [call],
    });
  });

  test("each record is given the call that accounts for it, with the step's location; a record no call matches has none", () => {
    const located = apiCallsOf([
      step('GET', { params: { url: '/orders', method: 'GET' }, location: { file: '/p/tests/orders.spec.ts', line: 12, column: 31 } }),
    ])[0]!;
    const account = accountForCalls([located], [{ endpoint: 'GET /orders' }, { endpoint: 'GET /orders' }], undefined);
    expect(account.callOfRecord.map((call) => call?.location)).toEqual([
      { file: '/p/tests/orders.spec.ts', line: 12, column: 31 },
      undefined,
    ]);
  });

  test('each record accounts for one call: two calls and one record leave one unrecorded, as called (the run labels it)', () => {
    expect(accountForCalls([get('/booking/42'), get('/booking/42')], [{ endpoint: 'GET /booking/42' }], undefined).unrecorded).toEqual([
      'GET /booking/42',
    ]);
  });

  test('an unrecorded call with no response becomes a no-response execution on the URL its call log names', () => {
    expect(accountForCalls([get('/down', refused)], [], 'http://elsewhere')).toEqual({
      unrecorded: [],
      noResponse: [{ endpoint: 'GET /down', errorCode: 'ECONNREFUSED', responseTimeMs: 12, location: undefined }],
      callOfRecord: [],
    });
  });

  test('a record of a method the call does not have does not account for it', () => {
    expect(accountForCalls([get('/orders')], [{ endpoint: 'POST /orders' }], undefined).unrecorded).toEqual(['GET /orders']);
  });
});

test.describe('route templates', () => {
  const cases = [
    ['GET /booking/42', 'GET /booking/:id'],
    ['GET /users/0b1c5f9e-8a4d-4c3b-9e2f-1a2b3c4d5e6f/orders/7', 'GET /users/:id/orders/:id'],
    ['GET /objects/507f1f77bcf86cd799439011', 'GET /objects/:id'],
    ['GET /blobs/deadbeefdeadbeef0', 'GET /blobs/:id'],
    ['GET /v2/orders', 'GET /v2/orders'],
    ['GET /words/facadebeadedfacade', 'GET /words/facadebeadedfacade'],
    ['GET /short/abc123', 'GET /short/abc123'],
    ['GET /', 'GET /'],
  ] as const;
  for (const [label, template] of cases) {
    test(`${label} becomes ${template}`, () => {
      expect(templateEndpoint(label)).toBe(template);
    });
  }
});

test.describe("the recording fixture's stand-ins for Playwright objects", () => {
  test('read the one overridden property, and send every other read and every write to the original', () => {
    const original: Record<string, unknown> = { request: 'original request', timeout: 5 };
    const standIn = overriding(original, 'request', 'recording request');

    // Playwright up to 1.5x sets the context options on `playwright.request` in a fixture; the original must see them.
    standIn['_defaultContextOptions'] = { baseURL: 'http://127.0.0.1:3000' };

    expect([standIn['request'], standIn['timeout']]).toEqual(['recording request', 5]);
    expect(original).toEqual({ request: 'original request', timeout: 5, _defaultContextOptions: { baseURL: 'http://127.0.0.1:3000' } });
  });
});
