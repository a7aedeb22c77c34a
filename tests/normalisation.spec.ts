import { expect, test } from './support/test.js';
import { normaliseEndpoint, normaliseExecutionRecords, validateExecutionRecords, type ExecutionRecord } from '../src/index.js';
import { createEndpointNormaliser } from '../src/records/normaliseExecutionRecords.js';

test.describe('normaliseEndpoint', () => {
  test('surrounding whitespace is removed, the method upper-cased and the gap collapsed to one space', () => {
    expect(normaliseEndpoint('  get   /orders ')).toBe('GET /orders');
  });

  test('a tab between method and path becomes one space', () => {
    expect(normaliseEndpoint('GET\t/orders')).toBe('GET /orders');
  });

  test('a mixed-case method is upper-cased', () => {
    expect(normaliseEndpoint('pAtCh /orders/1')).toBe('PATCH /orders/1');
  });

  test('the case of the path is preserved', () => {
    expect(normaliseEndpoint('GET /Orders/ABC')).toBe('GET /Orders/ABC');
  });

  test('the query is kept as given', () => {
    expect(normaliseEndpoint('get /orders?b=2&A=1&sort=DESC')).toBe('GET /orders?b=2&A=1&sort=DESC');
  });

  test('matrix parameters are removed from every segment of the path, and the query after it kept as given', () => {
    expect(normaliseEndpoint('GET /cart;jsessionid=SECRET/items;v=2/;x?a=1;b=2')).toBe('GET /cart/items/?a=1;b=2');
  });

  test('a canonical label is unchanged', () => {
    expect(normaliseEndpoint('DELETE /orders/7')).toBe('DELETE /orders/7');
  });

  test('a label that was not validated is refused with a TypeError', () => {
    expect(() => normaliseEndpoint('orders')).toThrow(TypeError);
    expect(() => normaliseEndpoint('orders')).toThrow(new TypeError('normaliseEndpoint expects a validated "<METHOD> <path>" label'));
  });
});

test.describe('createEndpointNormaliser', () => {
  test('a normaliser gives the same result as normaliseEndpoint, also for a repeated label', () => {
    const normalise = createEndpointNormaliser();
    expect(normalise(' post  /orders')).toBe('POST /orders');
    expect(normalise(' post  /orders')).toBe('POST /orders');
  });

  test('a normaliser whose cache is full still normalises new labels correctly', () => {
    const normalise = createEndpointNormaliser(2);
    expect(normalise('get /a')).toBe('GET /a');
    expect(normalise('get /b')).toBe('GET /b');
    expect(normalise('put\t/c')).toBe('PUT /c');
    expect(normalise(' head  /d ')).toBe('HEAD /d');
    expect(normalise('get /a')).toBe('GET /a');
    expect(normalise('put\t/c')).toBe('PUT /c');
  });

  test('a normaliser with no cache at all still normalises', () => {
    const normalise = createEndpointNormaliser(0);
    expect(normalise('get /a')).toBe('GET /a');
    expect(normalise('get /a')).toBe('GET /a');
  });
});

test.describe('normaliseExecutionRecords', () => {
  test('endpoints become canonical and the other fields are copied', () => {
    const records: ExecutionRecord[] = [
      { statusCode: 200, endpoint: '  get   /orders ', responseTimeMs: 120 },
      { statusCode: 503, endpoint: 'post\t/Orders', responseTimeMs: 980.5 },
    ];
    expect(Array.from(normaliseExecutionRecords(records))).toStrictEqual([
      { statusCode: 200, endpoint: 'GET /orders', responseTimeMs: 120 },
      { statusCode: 503, endpoint: 'POST /Orders', responseTimeMs: 980.5 },
    ]);
  });

  test('new objects are returned and the input is left untouched', () => {
    const records: ExecutionRecord[] = [
      { statusCode: 200, endpoint: 'get /orders', responseTimeMs: 1, id: 'a' },
      { statusCode: 404, endpoint: 'GET /missing', responseTimeMs: 2 },
    ];
    const before = structuredClone(records);
    for (const record of records) Object.freeze(record);
    Object.freeze(records);
    const canonical = Array.from(normaliseExecutionRecords(records));
    expect(records).toStrictEqual(before);
    expect(canonical[0]).not.toBe(records[0]);
    expect(canonical[1]).not.toBe(records[1]);
  });

  test('an id is kept when present', () => {
    const [record] = Array.from(normaliseExecutionRecords([{ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 1, id: 'exec-001' }]));
    expect(record).toStrictEqual({ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 1, id: 'exec-001' });
  });

  test('the id key is omitted when the record has no id', () => {
    const [record] = Array.from(normaliseExecutionRecords([{ statusCode: 200, endpoint: 'GET /a', responseTimeMs: 1 }]));
    expect(Object.keys(record!)).toEqual(['statusCode', 'endpoint', 'responseTimeMs']);
  });

  test('fields other than the record fields never reach the canonical records', () => {
    const validated = validateExecutionRecords({
      executions: [{ statusCode: 200, endpoint: 'get /a', responseTimeMs: 1, note: 'ignored', id: 'x' }],
    });
    expect(Array.from(normaliseExecutionRecords(validated))).toStrictEqual([
      { statusCode: 200, endpoint: 'GET /a', responseTimeMs: 1, id: 'x' },
    ]);
  });

  test('no records give no records', () => {
    expect(Array.from(normaliseExecutionRecords([]))).toStrictEqual([]);
  });
});
