import fc from 'fast-check';
import { expect, test } from './support/test.js';
import { createOperationMatcher, type OperationTemplate } from '../src/labels/operationIndex.js';
import { createEndpointLabeler } from '../src/labels/endpointLabels.js';
import { propertyParameters } from './support/properties.js';

// Matching a call to an operation of the contract, rule by rule.

const op = (method: string, path: string, extra: Partial<OperationTemplate> = {}): OperationTemplate => ({
  method,
  path,
  basePaths: [''],
  integerParameters: [],
  ...extra,
});

function matched(operations: readonly OperationTemplate[], method: string, path: string): string | undefined {
  const position = createOperationMatcher(operations)(method, path);
  return position === undefined ? undefined : `${operations[position]!.method} ${operations[position]!.path}`;
}

test('a base path is stripped: each server path, the call matching under any of them', () => {
  const operations = [op('GET', '/pets/{id}', { basePaths: ['/api/v1', '/v2'] })];
  expect(matched(operations, 'GET', '/api/v1/pets/7')).toBe('GET /pets/{id}');
  expect(matched(operations, 'GET', '/v2/pets/7')).toBe('GET /pets/{id}');
  expect(matched(operations, 'GET', '/pets/7')).toBeUndefined();
  expect(matched(operations, 'GET', '/api/pets/7')).toBeUndefined();
});

test('a literal segment wins over a templated one, whatever the order in the document', () => {
  const operations = [op('GET', '/users/{id}'), op('GET', '/users/me')];
  expect(matched(operations, 'GET', '/users/me')).toBe('GET /users/me');
  expect(matched(operations, 'GET', '/users/42')).toBe('GET /users/{id}');
});

test('then the fewest templated segments, then the literal that comes first, then the document order', () => {
  expect(matched([op('GET', '/{a}/{b}/c'), op('GET', '/{a}/b/c')], 'GET', '/x/b/c')).toBe('GET /{a}/b/c');
  expect(matched([op('GET', '/a/{b}/c'), op('GET', '/a/b/{c}')], 'GET', '/a/b/c')).toBe('GET /a/b/{c}');
  expect(matched([op('GET', '/items/{id}'), op('GET', '/items/{slug}')], 'GET', '/items/x')).toBe('GET /items/{id}');
});

test('an integer parameter matches digits only, with an optional minus', () => {
  const operations = [op('GET', '/orders/{orderId}', { integerParameters: ['orderId'] })];
  expect(matched(operations, 'GET', '/orders/42')).toBe('GET /orders/{orderId}');
  expect(matched(operations, 'GET', '/orders/-3')).toBe('GET /orders/{orderId}');
  expect(matched(operations, 'GET', '/orders/4a')).toBeUndefined();
  expect(matched(operations, 'GET', '/orders/1.5')).toBeUndefined();
});

test('trailing and repeated slashes count as labels count them; an empty segment is no parameter', () => {
  const operations = [op('GET', '/a/{b}')];
  expect(matched(operations, 'GET', '/a/x/')).toBe('GET /a/{b}');
  expect(matched(operations, 'GET', '//a//x')).toBe('GET /a/{b}');
  expect(matched(operations, 'GET', '/a/')).toBeUndefined();
  expect(matched([op('GET', '/')], 'GET', '/')).toBe('GET /');
});

test('segments compare percent-decoded; one that cannot be decoded matches itself or a parameter', () => {
  expect(matched([op('GET', '/files/~me')], 'GET', '/files/%7Eme')).toBe('GET /files/~me');
  expect(matched([op('GET', '/files/a%20b')], 'GET', '/files/a b')).toBe('GET /files/a%20b');
  expect(matched([op('GET', '/files/{name}')], 'GET', '/files/%E0%A4%A')).toBe('GET /files/{name}');
});

test('a segment that mixes text and parameters matches the text it describes', () => {
  const operations = [op('GET', '/reports/{id}.json')];
  expect(matched(operations, 'GET', '/reports/7.json')).toBe('GET /reports/{id}.json');
  expect(matched(operations, 'GET', '/reports/7.xml')).toBeUndefined();
});

test('the method must be the operation’s', () => {
  expect(matched([op('GET', '/a')], 'POST', '/a')).toBeUndefined();
});

test('labels: routes the user wrote win, then the contract, then grouping', () => {
  const label = createEndpointLabeler({
    routes: ['/pets/:petName'],
    operations: [op('GET', '/pets/{id}'), op('GET', '/owners/{ownerId}')],
  });
  expect(label('GET /pets/rex', true)).toBe('GET /pets/:petName');
  expect(label('GET /owners/8P0BlkWfpjRO60K1', true)).toBe('GET /owners/{ownerId}');
  expect(label('GET /vets/42', true)).toBe('GET /vets/:id');
});

test('the index answers as a scan of every operation does', () => {
  const segment = fc.constantFrom('a', 'b', 'me', '{id}', '{n}', '7');
  const operations = fc.array(
    fc.record({
      method: fc.constantFrom('GET', 'POST'),
      path: fc.array(segment, { maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
      basePaths: fc.constant(['']),
      integerParameters: fc.constant(['n']),
    }),
    { maxLength: 12 },
  );
  const call = fc.tuple(
    fc.constantFrom('GET', 'POST'),
    fc.array(fc.constantFrom('a', 'b', 'me', '7', 'x'), { maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  );
  fc.assert(
    fc.property(operations, call, (list, [method, path]) => {
      expect(createOperationMatcher(list)(method, path)).toBe(scan(list, method, path));
    }),
    // A few hundred cases keep the unit lane fast; the stress lane's properties run thousands.
    propertyParameters(300),
  );
});

// The rules, by brute force: every operation that matches, then the best by the documented order.
function scan(operations: readonly OperationTemplate[], method: string, path: string): number | undefined {
  const segments = path.split('/').filter((part) => part !== '');
  let best: { position: number; templated: number; kinds: string } | undefined;
  operations.forEach((operation, position) => {
    if (operation.method !== method) return;
    const template = operation.path.split('/').filter((part) => part !== '');
    if (template.length !== segments.length) return;
    const kinds = template.map((part) => (part.startsWith('{') ? 't' : 'l')).join('');
    const fits = template.every((part, index) => {
      const given = segments[index]!;
      if (!part.startsWith('{')) return part === given;
      return operation.integerParameters.includes(part.slice(1, -1)) ? /^-?\d+$/.test(given) : given !== '';
    });
    if (!fits) return;
    const templated = kinds.replaceAll('l', '').length;
    if (best === undefined || templated < best.templated || (templated === best.templated && kinds < best.kinds))
      best = { position, templated, kinds };
  });
  return best?.position;
}
