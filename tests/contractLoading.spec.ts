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
  return contract.operations.map(({ label, operationId, basePaths, integerParameters, responses }) => ({
    label,
    operationId,
    basePaths,
    integerParameters,
    statuses: responses.map((response) => response.status),
  }));
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
    {
      label: 'GET /pets/{id}',
      operationId: 'find pet by id',
      basePaths: ['/api'],
      integerParameters: ['id'],
      statuses: ['200', 'default'],
    },
    { label: 'DELETE /pets/{id}', operationId: 'deletePet', basePaths: ['/api'], integerParameters: ['id'], statuses: ['204', 'default'] },
  ]);
});

test(`the contract names every file it read, each once: the document, then the files its $refs bring in, spelled from the \
document's path (issue 34)`, async () => {
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
  expect(addPet?.responses[0]).toStrictEqual({
    status: '200',
    content: [{ mediaType: 'application/json', schemaPointer: '#/paths/~1pets/post/responses/200/schema' }],
  });
  expect(addPet?.requestBody).toStrictEqual([{ mediaType: 'application/json', schemaPointer: '#/paths/~1pets/post/parameters/0/schema' }]);
});

test('OpenAPI 3.0: the path of the server URL is the base path, server variables at their defaults', async () => {
  expect(
    (await operationsOf('/api/openapi-3.0-petstore-expanded.yaml')).map(({ label, basePaths }) => `${label} ${basePaths.join()}`),
  ).toStrictEqual(['GET /pets /v2', 'POST /pets /v2', 'GET /pets/{id} /v2', 'DELETE /pets/{id} /v2']);
  // uspto: servers: [{ url: "{scheme}://developer.uspto.gov/ds-api" }].
  expect((await operationsOf('/api/openapi-3.0-uspto.json')).map(({ label, basePaths }) => `${label} ${basePaths.join()}`)).toStrictEqual([
    'GET / /ds-api',
    'GET /{dataset}/{version}/fields /ds-api',
    'POST /{dataset}/{version}/records /ds-api',
  ]);
});

test('OpenAPI 3.1: integer path parameters; a document of webhooks only has no operations', async () => {
  expect(
    (await operationsOf('/api/openapi-3.1-tictactoe.yaml')).map(({ label, integerParameters }) => `${label} ${integerParameters.join()}`),
  ).toStrictEqual(['GET /board ', 'GET /board/{row}/{column} row,column', 'PUT /board/{row}/{column} row,column']);
  expect(await operationsOf('/api/openapi-3.1-webhook-example.yaml')).toStrictEqual([]);
});

test('several documents make one contract, document by document', async () => {
  const contract = await loadContract(['/api/openapi-3.1-tictactoe.yaml', '/api/swagger-2.0-petstore-expanded.json'], fixtureFileSystem());
  expect(contract.documents.map(({ path, version }) => `${path} ${version}`)).toStrictEqual([
    '/api/openapi-3.1-tictactoe.yaml 3.1',
    '/api/swagger-2.0-petstore-expanded.json 2.0',
  ]);
  expect(contract.operations.map((operation) => operation.documentIndex)).toStrictEqual([0, 0, 0, 1, 1, 1, 1]);
});

test("a $ref inside an example, a default or an enum is data, never followed (GitHub's description has three)", async () => {
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
  const fileSystem = new MemoryFileSystem({
    '/api/openapi.yaml': document,
    '/api/paths/stats.yaml': 'get:\n  responses:\n    "200": { description: ok }\n',
  });
  const contract = await loadContract(['/api/openapi.yaml'], fileSystem);
  expect(contract.operations.map((operation) => operation.label)).toStrictEqual(['GET /stats']);
  expect((contract.documents[0]?.bundled as { components: { examples: unknown } }).components.examples).toStrictEqual({
    stats: { value: [{ actions: { $ref: 'server-statistics-actions.yaml' } }] },
  });
});

test.describe('documents that cannot be a contract', () => {
  const one = (text: string) => new MemoryFileSystem({ '/api/openapi.yaml': text });

  test('YAML that does not parse names the file, the line and the column', async () => {
    const error = await failureOf(['/api/openapi.yaml'], one('openapi: 3.0.3\ninfo: {}\nopenapi: 3.1.0\n'));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe('invalid OpenAPI document:\n  - "/api/openapi.yaml": is not well-formed YAML at line 3, column 1');
  });

  test('JSON that does not parse names the file, the line and the column', async () => {
    const error = await failureOf(
      ['/api/openapi.json'],
      new MemoryFileSystem({ '/api/openapi.json': '{\n  "openapi": "3.1.0",\n  "paths": {,}\n}' }),
    );
    expect(error.message).toBe('invalid OpenAPI document:\n  - "/api/openapi.json": is not well-formed JSON at line 3, column 13');
  });

  test('a document that is not OpenAPI says what it needs', async () => {
    expect((await failureOf(['/api/openapi.yaml'], one('asyncapi: 2.6.0\n'))).message).toBe(
      'invalid OpenAPI document:\n  - "/api/openapi.yaml": is not an OpenAPI document this version reads: ' +
        'it needs "openapi": "3.0.x" or "3.1.x", or "swagger": "2.0"; it has neither',
    );
    expect((await failureOf(['/api/openapi.yaml'], one('openapi: 4.0.0\n'))).message).toContain('; it says openapi "4.0.0"');
  });

  test('a remote $ref is refused where it is, and nothing is fetched', async () => {
    const text =
      'openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "https://example.com/responses.yaml#/Ok"\n';
    expect((await failureOf(['/api/openapi.yaml'], one(text))).message).toBe(
      'invalid OpenAPI document:\n  - paths["/a"].get.responses["200"].$ref in "/api/openapi.yaml": ' +
        'refers to a remote document, which is never fetched (no network is used): ' +
        'save it beside this one and refer to it by a relative path',
    );
  });

  test('a remote $ref in a file another one names is refused too, naming that file', async () => {
    const fileSystem = new MemoryFileSystem({
      '/api/openapi.yaml': 'openapi: 3.1.0\npaths:\n  /a:\n    $ref: "./paths/a.yaml"\n',
      '/api/paths/a.yaml': 'get:\n  responses:\n    "200":\n      $ref: "http://example.com/x.yaml"\n',
    });
    expect((await failureOf(['/api/openapi.yaml'], fileSystem)).message).toBe(
      'invalid OpenAPI document:\n  - get.responses["200"].$ref in "/api/paths/a.yaml": ' +
        'refers to a remote document, which is never fetched (no network is used): ' +
        'save it beside this one and refer to it by a relative path',
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

test.describe('hostile documents: refused with 78 at their place, or loaded, never a crash (issue 34)', () => {
  const openapi30 = (extra: object) => JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {}, ...extra });
  const one = (name: string, text: string) => new MemoryFileSystem({ [`/api/${name}`]: text });
  const refusal = async (name: string, text: string) => {
    const error = await failureOf([`/api/${name}`], one(name, text));
    expect(error).toBeInstanceOf(ConfigurationError);
    return error.message;
  };

  test('a 3.0 document with an enum of 130,000 values loads, as does a 2.0 one', async () => {
    const values = Array.from({ length: 130_000 }, (_, index) => index);
    const contract30 = await loadContract(
      ['/api/a.json'],
      one('a.json', openapi30({ components: { schemas: { E: { enum: values, nullable: true } } } })),
    );
    expect(
      (contract30.documents[0]?.bundled as { components: { schemas: { E: { enum: unknown[] } } } }).components.schemas.E.enum.length,
    ).toBe(130_001);
    const swagger = JSON.stringify({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {}, definitions: { E: { enum: values } } });
    expect((await loadContract(['/api/b.json'], one('b.json', swagger))).documents[0]?.version).toBe('2.0');
  });

  test('a 3.0 document with 130,000 schemas loads', async () => {
    const schemas = Object.fromEntries(Array.from({ length: 130_000 }, (_, index) => [`S${index}`, { type: 'string', nullable: true }]));
    const contract = await loadContract(['/api/a.json'], one('a.json', openapi30({ components: { schemas } })));
    expect(
      (contract.documents[0]?.bundled as { components: { schemas: Record<string, unknown> } }).components.schemas['S129999'],
    ).toStrictEqual({ type: ['string', 'null'] });
  });

  test('a $ref whose percent-encoding is malformed is refused at its place', async () => {
    const text =
      'openapi: 3.0.3\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/%E0%A4%A"\n';
    expect(await refusal('openapi.yaml', text)).toBe(
      'invalid OpenAPI document:\n  - paths["/a"].get.responses["200"].$ref in "/api/openapi.yaml": ' +
        'is "#/components/responses/%E0%A4%A", whose percent-encoding is malformed (each % starts two hexadecimal digits ' +
        'of UTF-8)',
    );
  });

  test('a YAML alias of a node that holds it is refused at the alias', async () => {
    expect(await refusal('openapi.yaml', 'openapi: 3.0.3\npaths: &paths\n  /a: *paths\n')).toBe(
      'invalid OpenAPI document:\n  - paths["/a"] in "/api/openapi.yaml": is a YAML alias of a node that holds it: the document would never end',
    );
  });

  test('YAML aliases that would expand the document a billionfold are refused before they expand', async () => {
    const lines = ['openapi: 3.0.3', 'x-a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    for (let level = 1; level < names.length; level++)
      lines.push(
        `x-${names[level]!}: &${names[level]!} [${Array(9)
          .fill(`*${names[level - 1]!}`)
          .join(', ')}]`,
      );
    expect(await refusal('openapi.yaml', `${lines.join('\n')}\npaths: {}\n`)).toBe(
      'invalid OpenAPI document:\n  - "/api/openapi.yaml": has YAML aliases that would expand it past what is read ' +
        "(yaml's maxAliasCount, 1000): an alias bomb",
    );
  });

  test('JSON nested 100,000 deep is refused, naming where it goes too deep', async () => {
    const text = `{"openapi":"3.0.3","paths":{},"x-deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(await refusal('openapi.json', text)).toBe(
      'invalid OpenAPI document:\n  - ["x-deep"][0][0][0]… in "/api/openapi.json": nests values deeper than 256 levels, past any real description',
    );
  });

  test('YAML nested 100,000 deep is refused as too deep to read, at its line and column', async () => {
    expect(await refusal('openapi.yaml', `openapi: 3.0.3\npaths: {}\nx-deep: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`)).toMatch(
      /^invalid OpenAPI document:\n {2}- "\/api\/openapi\.yaml": nests values too deeply to read as YAML at line 3, column \d+$/,
    );
  });

  test('256 levels load; 257 are refused', async () => {
    // The document itself is the first level, x-deep the second.
    const nested = (levels: number) => openapi30({ 'x-deep': JSON.parse(`${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}`) as unknown });
    expect((await loadContract(['/api/a.json'], one('a.json', nested(256)))).operations).toStrictEqual([]);
    expect(await refusal('a.json', nested(257))).toContain('nests values deeper than 256 levels');
  });

  const withSchemas = (schemas: object, schema: object = { $ref: '#/components/schemas/A' }) =>
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } } },
      components: { schemas },
    });

  test('a schema that comes back to itself through allOf, with no property or item between, is refused, naming the way round', async () => {
    const schemas = { A: { allOf: [{ $ref: '#/components/schemas/B' }] }, B: { allOf: [{ $ref: '#/components/schemas/A' }] } };
    expect(await refusal('openapi.json', withSchemas(schemas))).toBe(
      'invalid OpenAPI document:\n  - components.schemas.A in "/api/openapi.json": comes back to itself with no property or item between ' +
        '(components.schemas.A → components.schemas.A.allOf[0] → components.schemas.B → components.schemas.B.allOf[0] → ' +
        'components.schemas.A), so validating any value against it would never end',
    );
  });

  test('a schema that is its own $ref is refused', async () => {
    expect(await refusal('openapi.json', withSchemas({ A: { $ref: '#/components/schemas/A' } }))).toContain(
      'components.schemas.A in "/api/openapi.json": comes back to itself',
    );
  });

  test('a schema that recurses through a property or an item loads: a tree is a fine schema', async () => {
    const schemas = {
      A: {
        type: 'object',
        properties: {
          children: { type: 'array', items: { $ref: '#/components/schemas/A' } },
          parent: { anyOf: [{ $ref: '#/components/schemas/A' }, { type: 'null' }] },
        },
      },
      // Properties named like keywords are names, not keywords.
      B: {
        type: 'object',
        properties: {
          allOf: { $ref: '#/components/schemas/B' },
          not: { $ref: '#/components/schemas/B' },
          properties: { $ref: '#/components/schemas/B' },
        },
      },
    };
    expect((await loadContract(['/api/a.json'], one('a.json', withSchemas(schemas)))).operations.map(({ label }) => label)).toStrictEqual([
      'GET /a',
    ]);
  });

  test('a $dynamicRef that names no $dynamicAnchor of the document is refused at its place', async () => {
    expect(await refusal('openapi.json', withSchemas({}, { $dynamicRef: '#nowhere' }))).toBe(
      'invalid OpenAPI document:\n  - paths["/a"].get.responses["200"].content["application/json"].schema.$dynamicRef in "/api/openapi.json": ' +
        '"#nowhere" names no $dynamicAnchor of this document: the validator resolves a $dynamicRef only to one ("#name" for a $dynamicAnchor "name")',
    );
  });

  test('a $dynamicRef to a $dynamicAnchor loads', async () => {
    const schemas = { A: { $dynamicAnchor: 'node', type: 'object', properties: { next: { $dynamicRef: '#node' } } } };
    expect((await loadContract(['/api/a.json'], one('a.json', withSchemas(schemas)))).operations).toHaveLength(1);
  });

  test('two schemas with one $id are refused once, naming both', async () => {
    const schemas = {
      A: { $id: 'https://example.com/pet', type: 'object' },
      B: { $id: 'https://example.com/pet', type: 'string' },
      C: { $anchor: 'here' },
      D: { $anchor: 'here' },
    };
    expect(await refusal('openapi.json', withSchemas(schemas))).toBe(
      'invalid OpenAPI document:\n' +
        '  - components.schemas.B.$id in "/api/openapi.json": "https://example.com/pet" names another schema already, at ' +
        'components.schemas.A: an identifier names one schema\n' +
        '  - components.schemas.D.$anchor in "/api/openapi.json": "here" names another schema already, at components.schemas.C: an identifier names one schema',
    );
  });

  test('one $id under two different bases, or twice in examples, is no duplicate', async () => {
    const schemas = {
      A: { $id: 'https://example.com/a/', $defs: { item: { $id: 'item' } } },
      B: { $id: 'https://example.com/b/', $defs: { item: { $id: 'item' } } },
      C: { type: 'object', example: { $id: 'same' }, examples: [{ $id: 'same' }] },
      D: { type: 'object', properties: { $id: { type: 'string' } }, example: { $id: 'same' } },
    };
    expect((await loadContract(['/api/a.json'], one('a.json', withSchemas(schemas)))).operations).toHaveLength(1);
  });

  test('two operations with one operationId are refused, naming both, in one document or across two', async () => {
    const operation = (operationId: string) => ({ operationId, responses: { '200': { description: 'ok' } } });
    const document = (paths: object) => JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths });
    expect(await refusal('api.json', document({ '/a': { get: operation('listThings') }, '/b': { post: operation('listThings') } }))).toBe(
      'invalid OpenAPI document:\n  - paths["/b"].post.operationId in "/api/api.json": ' +
        '"listThings" is already the operationId of paths["/a"].get in "/api/api.json": ' +
        'an operationId names one operation (OpenAPI requires it unique), as budgets name operations by it',
    );
    const two = new MemoryFileSystem({
      '/api/a.json': document({ '/a': { get: operation('listThings') } }),
      '/api/b.json': document({ '/b': { get: operation('listThings') } }),
    });
    expect((await failureOf(['/api/a.json', '/api/b.json'], two)).message).toBe(
      'invalid OpenAPI document:\n  - paths["/b"].get.operationId in "/api/b.json": ' +
        '"listThings" is already the operationId of paths["/a"].get in "/api/a.json": ' +
        'an operationId names one operation (OpenAPI requires it unique), as budgets name operations by it',
    );
  });

  test('one file named twice, however spelled, is read once', async () => {
    const fileSystem = new MemoryFileSystem({
      '/api/openapi.yaml':
        'openapi: 3.1.0\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: { "200": { description: ok } }\n',
    }).link('/api/again.yaml', '/api/openapi.yaml');
    const contract = await loadContract(['/api/openapi.yaml', '/api/again.yaml', '/api/openapi.yaml'], fileSystem);
    expect(contract.documents.map(({ path }) => path)).toStrictEqual(['/api/openapi.yaml']);
    expect(contract.operations.map(({ label }) => label)).toStrictEqual(['GET /a']);
  });
});
