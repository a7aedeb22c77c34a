import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from './support/test.js';
import { loadContract } from '../src/contract/loadContract.js';
import { toJsonSchema2020 } from '../src/contract/jsonSchemaDialect.js';
import { ConfigurationError, InputUnreadableError } from '../src/index.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// The contract as an input: real public documents (fixtures/openapi, their
// sources and licences in its README) and hand-made ones for each rule.

const FIXTURES = 'fixtures/openapi';

/** Every file under fixtures/openapi, in a memory file system, at the same relative paths. */
function fixtureFileSystem(): MemoryFileSystem {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[join('/api', relative(FIXTURES, path))] = readFileSync(path, 'utf8');
    }
  };
  walk(FIXTURES);
  return new MemoryFileSystem(files);
}

async function operationsOf(path: string, fileSystem = fixtureFileSystem()) {
  const contract = await loadContract([path], fileSystem);
  return contract.operations.map(({ label, operationId, basePaths, integerParameters, responses }) => ({ label, operationId, basePaths, integerParameters, statuses: responses.map((response) => response.status) }));
}

async function failureOf(paths: readonly string[], fileSystem: MemoryFileSystem): Promise<Error> {
  try {
    await loadContract(paths, fileSystem);
  } catch (error) {
    return error as Error;
  }
  throw new Error('loadContract did not fail');
}

test('Swagger 2.0 in YAML, with $refs across five files: the operations, their base path and integer parameters', async () => {
  expect(await operationsOf('/api/swagger-2.0-petstore-separate/spec/swagger.yaml')).toStrictEqual([
    { label: 'GET /pets', operationId: 'findPets', basePaths: ['/api'], integerParameters: [], statuses: ['200', 'default'] },
    { label: 'POST /pets', operationId: 'addPet', basePaths: ['/api'], integerParameters: [], statuses: ['200', 'default'] },
    { label: 'GET /pets/{id}', operationId: 'find pet by id', basePaths: ['/api'], integerParameters: ['id'], statuses: ['200', 'default'] },
    { label: 'DELETE /pets/{id}', operationId: 'deletePet', basePaths: ['/api'], integerParameters: ['id'], statuses: ['204', 'default'] },
  ]);
});

test('the contract names every file it read, each once: the document, then the files its $refs bring in, spelled from the document\'s path (issue 34)', async () => {
  const { files } = await loadContract(['/api/swagger-2.0-petstore-separate/spec/swagger.yaml'], fixtureFileSystem());
  expect([...(files ?? [])].sort()).toStrictEqual([
    '/api/swagger-2.0-petstore-separate/common/Error.yaml',
    '/api/swagger-2.0-petstore-separate/spec/NewPet.yaml',
    '/api/swagger-2.0-petstore-separate/spec/Pet.yaml',
    '/api/swagger-2.0-petstore-separate/spec/parameters.yaml',
    '/api/swagger-2.0-petstore-separate/spec/swagger.yaml',
  ]);
  expect(files?.[0]).toBe('/api/swagger-2.0-petstore-separate/spec/swagger.yaml');
});

test('the other files are brought into the document: no $ref leaves it', async () => {
  const { documents } = await loadContract(['/api/swagger-2.0-petstore-separate/spec/swagger.yaml'], fixtureFileSystem());
  const refs = JSON.stringify(documents[0]?.bundled).match(/"\$ref":"[^"]*"/g) ?? [];
  expect(refs.length).toBeGreaterThan(0);
  expect(refs.filter((ref) => !ref.startsWith('"$ref":"#'))).toStrictEqual([]);
});

test('Swagger 2.0 in JSON: a response schema under produces, a body parameter under consumes', async () => {
  const [, addPet] = (await loadContract(['/api/swagger-2.0-petstore-expanded.json'], fixtureFileSystem())).operations;
  expect(addPet?.responses[0]).toStrictEqual({ status: '200', content: [{ mediaType: 'application/json', schemaPointer: '#/paths/~1pets/post/responses/200/schema' }] });
  expect(addPet?.requestBody).toStrictEqual([{ mediaType: 'application/json', schemaPointer: '#/paths/~1pets/post/parameters/0/schema' }]);
});

test('OpenAPI 3.0: the path of the server URL is the base path, server variables at their defaults', async () => {
  expect((await operationsOf('/api/openapi-3.0-petstore-expanded.yaml')).map(({ label, basePaths }) => `${label} ${basePaths.join()}`)).toStrictEqual([
    'GET /pets /v2',
    'POST /pets /v2',
    'GET /pets/{id} /v2',
    'DELETE /pets/{id} /v2',
  ]);
  // uspto: servers: [{ url: "{scheme}://developer.uspto.gov/ds-api" }].
  expect((await operationsOf('/api/openapi-3.0-uspto.json')).map(({ label, basePaths }) => `${label} ${basePaths.join()}`)).toStrictEqual([
    'GET / /ds-api',
    'GET /{dataset}/{version}/fields /ds-api',
    'POST /{dataset}/{version}/records /ds-api',
  ]);
});

test('OpenAPI 3.1: integer path parameters; a document of webhooks only has no operations', async () => {
  expect((await operationsOf('/api/openapi-3.1-tictactoe.yaml')).map(({ label, integerParameters }) => `${label} ${integerParameters.join()}`)).toStrictEqual([
    'GET /board ',
    'GET /board/{row}/{column} row,column',
    'PUT /board/{row}/{column} row,column',
  ]);
  expect(await operationsOf('/api/openapi-3.1-webhook-example.yaml')).toStrictEqual([]);
});

test('several documents make one contract, document by document', async () => {
  const contract = await loadContract(['/api/openapi-3.1-tictactoe.yaml', '/api/swagger-2.0-petstore-expanded.json'], fixtureFileSystem());
  expect(contract.documents.map(({ path, version }) => `${path} ${version}`)).toStrictEqual(['/api/openapi-3.1-tictactoe.yaml 3.1', '/api/swagger-2.0-petstore-expanded.json 2.0']);
  expect(contract.operations.map((operation) => operation.documentIndex)).toStrictEqual([0, 0, 0, 1, 1, 1, 1]);
});

test('a $ref inside an example, a default or an enum is data, never followed (GitHub\'s description has three)', async () => {
  const document = [
    'openapi: 3.0.3',
    'paths:',
    '  /stats:',
    '    $ref: "./paths/stats.yaml"',
    'components:',
    '  examples:',
    '    stats:',
    '      value: [{ actions: { $ref: "server-statistics-actions.yaml" } }]',
    '  schemas:',
    '    Odd: { type: object, default: { $ref: "nowhere.yaml" }, example: { $ref: "https://example.com/x" } }',
    '',
  ].join('\n');
  const fileSystem = new MemoryFileSystem({ '/api/openapi.yaml': document, '/api/paths/stats.yaml': 'get:\n  responses:\n    "200": { description: ok }\n' });
  const contract = await loadContract(['/api/openapi.yaml'], fileSystem);
  expect(contract.operations.map((operation) => operation.label)).toStrictEqual(['GET /stats']);
  expect((contract.documents[0]?.bundled as { components: { examples: unknown } }).components.examples).toStrictEqual({ stats: { value: [{ actions: { $ref: 'server-statistics-actions.yaml' } }] } });
});

test.describe('documents that cannot be a contract', () => {
  const one = (text: string) => new MemoryFileSystem({ '/api/openapi.yaml': text });

  test('YAML that does not parse names the file, the line and the column', async () => {
    const error = await failureOf(['/api/openapi.yaml'], one('openapi: 3.0.3\ninfo: {}\nopenapi: 3.1.0\n'));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe('invalid OpenAPI document:\n  - "/api/openapi.yaml": is not well-formed YAML at line 3, column 1');
  });

  test('JSON that does not parse names the file, the line and the column', async () => {
    const error = await failureOf(['/api/openapi.json'], new MemoryFileSystem({ '/api/openapi.json': '{\n  "openapi": "3.1.0",\n  "paths": {,}\n}' }));
    expect(error.message).toBe('invalid OpenAPI document:\n  - "/api/openapi.json": is not well-formed JSON at line 3, column 13');
  });

  test('a document that is not OpenAPI says what it needs', async () => {
    expect((await failureOf(['/api/openapi.yaml'], one('asyncapi: 2.6.0\n'))).message).toBe(
      'invalid OpenAPI document:\n  - "/api/openapi.yaml": is not an OpenAPI document this version reads: it needs "openapi": "3.0.x" or "3.1.x", or "swagger": "2.0"; it has neither',
    );
    expect((await failureOf(['/api/openapi.yaml'], one('openapi: 4.0.0\n'))).message).toContain('; it says openapi "4.0.0"');
  });

  test('a remote $ref is refused where it is, and nothing is fetched', async () => {
    const text = 'openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "https://example.com/responses.yaml#/Ok"\n';
    expect((await failureOf(['/api/openapi.yaml'], one(text))).message).toBe(
      'invalid OpenAPI document:\n  - paths["/a"].get.responses["200"].$ref in "/api/openapi.yaml": refers to a remote document, which is never fetched (no network is used): save it beside this one and refer to it by a relative path',
    );
  });

  test('a remote $ref in a file another one names is refused too, naming that file', async () => {
    const fileSystem = new MemoryFileSystem({
      '/api/openapi.yaml': 'openapi: 3.1.0\npaths:\n  /a:\n    $ref: "./paths/a.yaml"\n',
      '/api/paths/a.yaml': 'get:\n  responses:\n    "200":\n      $ref: "http://example.com/x.yaml"\n',
    });
    expect((await failureOf(['/api/openapi.yaml'], fileSystem)).message).toBe(
      'invalid OpenAPI document:\n  - get.responses["200"].$ref in "/api/paths/a.yaml": refers to a remote document, which is never fetched (no network is used): save it beside this one and refer to it by a relative path',
    );
  });

  test('a missing document is an InputUnreadableError naming it', async () => {
    const error = await failureOf(['/api/missing.yaml'], one(''));
    expect(error).toBeInstanceOf(InputUnreadableError);
    expect(error.message).toBe('cannot read the OpenAPI document "/api/missing.yaml": no such file or directory (ENOENT)');
  });
});

test.describe('schemas in one dialect, JSON Schema 2020-12', () => {
  test("3.0's nullable and boolean exclusive bounds", () => {
    const document = {
      a: { type: 'string', nullable: true },
      b: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
      c: { enum: ['x'], nullable: true },
      d: { $ref: '#/components/schemas/D', nullable: true },
      e: { properties: { nullable: { type: 'boolean' } } },
    };
    toJsonSchema2020(document, '3.0');
    expect(document).toStrictEqual({
      a: { type: ['string', 'null'] },
      b: { type: 'integer', exclusiveMinimum: 1, maximum: 9 },
      c: { enum: ['x', null] },
      d: { anyOf: [{ $ref: '#/components/schemas/D' }, { type: 'null' }] },
      e: { properties: { nullable: { type: 'boolean' } } },
    });
  });

  test("2.0's x-nullable; 3.1 is left as it is", () => {
    const swagger = { type: 'object', 'x-nullable': true };
    toJsonSchema2020(swagger, '2.0');
    expect(swagger).toStrictEqual({ type: ['object', 'null'] });
    const openapi31 = { type: 'string', nullable: true, exclusiveMinimum: true };
    toJsonSchema2020(openapi31, '3.1');
    expect(openapi31).toStrictEqual({ type: 'string', nullable: true, exclusiveMinimum: true });
  });
});
