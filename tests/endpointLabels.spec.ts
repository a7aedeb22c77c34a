import { expect, test } from './support/test.js';
import { checkRouteTemplate, createEndpointLabeler } from '../src/labels/endpointLabels.js';
import { RecordIntake } from '../src/run/recordIntake.js';

// Endpoint labels people can read: route templates first, then automatic grouping.

test.describe('automatic grouping', () => {
  const group = createEndpointLabeler({ endpointGrouping: 'auto' });

  for (const [label, grouped] of [
    ['GET /booking/17', 'GET /booking/:id'],
    ['GET /users/3f2504e0-4f89-41d3-9a0c-0305e82c3301/orders', 'GET /users/:id/orders'],
    ['GET /blobs/507f1f77bcf86cd799439011', 'GET /blobs/:id'],
    ['GET /words/deadbeefcafebabe', 'GET /words/deadbeefcafebabe'],
    ['GET /booking/', 'GET /booking'],
    ['GET //booking', 'GET /booking'],
    ['GET /a//b///17/', 'GET /a/b/:id'],
    ['GET /', 'GET /'],
    ['GET /v2/orders', 'GET /v2/orders'],
  ] as const) {
    test(`${label} becomes ${grouped}`, () => {
      expect(group(label, false)).toBe(grouped);
    });
  }
});

test.describe('the default grouping', () => {
  const byDefault = createEndpointLabeler({});

  test('labels derived from URLs are grouped', () => {
    expect(byDefault('GET /booking/17/', true)).toBe('GET /booking/:id');
  });

  test('labels people wrote are kept as they come', () => {
    expect(byDefault('GET /booking/17/', false)).toBe('GET /booking/17/');
  });

  test('none keeps labels derived from URLs as they come too', () => {
    expect(createEndpointLabeler({ endpointGrouping: 'none' })('GET /booking/17', true)).toBe('GET /booking/17');
  });
});

test.describe('route templates', () => {
  test('a label that matches segment by segment is reported as the template', () => {
    const label = createEndpointLabeler({ routes: ['/orders/:orderId', '/users/:userId/orders'] });
    expect([label('GET /orders/A-17', false), label('POST /users/ann/orders', false)]).toStrictEqual([
      'GET /orders/:orderId',
      'POST /users/:userId/orders',
    ]);
  });

  test('a parameter matches one segment only, never none or two', () => {
    const label = createEndpointLabeler({ routes: ['/orders/:orderId'] });
    expect([label('GET /orders', false), label('GET /orders/1/items', false), label('GET /orders/', false)]).toStrictEqual([
      'GET /orders',
      'GET /orders/1/items',
      'GET /orders/',
    ]);
  });

  test('the first matching template wins', () => {
    const label = createEndpointLabeler({ routes: ['/orders/latest', '/orders/:orderId'] });
    expect([label('GET /orders/latest', false), label('GET /orders/9', false)]).toStrictEqual([
      'GET /orders/latest',
      'GET /orders/:orderId',
    ]);
  });

  test('a template with a method applies to that method only', () => {
    const label = createEndpointLabeler({ routes: ['DELETE /orders/:orderId'], endpointGrouping: 'auto' });
    expect([label('DELETE /orders/9', false), label('GET /orders/9', false)]).toStrictEqual(['DELETE /orders/:orderId', 'GET /orders/:id']);
  });

  test('templates win over automatic grouping, for labels from URLs too', () => {
    const label = createEndpointLabeler({ routes: ['/booking/:bookingId'] });
    expect(label('GET /booking/17', true)).toBe('GET /booking/:bookingId');
  });

  test('templates match across repeated and trailing slashes', () => {
    expect(createEndpointLabeler({ routes: ['/orders/:orderId'] })('GET //orders/9/', false)).toBe('GET /orders/:orderId');
  });

  for (const [template, problem] of [
    ['orders/:id', 'must be a path that starts with / (optionally after a method, as in GET /orders/:orderId), with no spaces'],
    ['/orders/:', 'has a parameter without a name: write :name, with letters, digits and _'],
    ['/orders /x', 'must be a path that starts with / (optionally after a method, as in GET /orders/:orderId), with no spaces'],
  ] as const) {
    test(`"${template}" is refused: ${problem}`, () => {
      expect(checkRouteTemplate(template)).toStrictEqual({ problem });
    });
  }
});

test.describe('through the intake', () => {
  test('a HAR batch is grouped and a JSON record is not, under the same rules', () => {
    const intake = new RecordIntake({ slowResponseThresholdMs: 750 });
    intake.takeBatch({
      records: [{ statusCode: 200, endpoint: 'GET /booking/17', responseTimeMs: 1 }],
      location: () => ({ kind: 'harEntry', index: 0, file: 'a.har' }),
      derivedEndpoints: true,
    });
    intake.takeBatch({
      records: [{ statusCode: 200, endpoint: 'GET /booking/17', responseTimeMs: 1 }],
      location: (index) => ({ kind: 'list', listPath: 'executions', index }),
    });
    expect(intake.accumulator.result().endpoints.map((entry) => entry.endpoint)).toStrictEqual(['GET /booking/17', 'GET /booking/:id']);
  });
});
