import { createBodyChecker, type BodyChecker, type ExaminedCall } from '../src/contract/bodyConformance.js';
import { conditionsOfOperation, type Condition } from '../src/contract/conditions.js';
import type { Contract } from '../src/contract/contract.js';
import { loadContract } from '../src/contract/loadContract.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { expect, test } from './support/test.js';

// Which declared conditions one call meets (issue 36), on hand-made
// documents: every list below is read off the document and the call by hand.
// A condition is named `kind where` (and its case, for a parameter), so a
// list reads as the document does.

async function contractOf(file: string, text: string): Promise<Contract> {
  return loadContract([`/api/${file}`], new MemoryFileSystem({ [`/api/${file}`]: text }));
}

function named(condition: Condition): string {
  const place = condition.where.replace(/^#\/paths\/[^/]+\/[a-z]+\//, '');
  return condition.kind === 'parameter' ? `parameter ${condition.case} ${condition.in} ${condition.name}` : `${condition.kind} ${place}`;
}

/** The conditions one call met, and the bounds it overstepped, by name. */
function examine(
  contract: Contract,
  checker: BodyChecker,
  label: string,
  call: Partial<ExaminedCall> & { readonly statusCode: number },
): { readonly met: string[]; readonly outside: string[] } {
  const index = contract.operations.findIndex((operation) => operation.label === label);
  const operation = contract.operations[index]!;
  const { conditions } = conditionsOfOperation(contract, index);
  const { conditions: found } = checker.examine(operation, {
    path: call.path ?? operation.path,
    query: call.query ?? [],
    headers: call.headers ?? [],
    formFields: call.formFields,
    statusCode: call.statusCode,
    responseContentType: call.responseContentType ?? 'application/json',
    responseBody: call.responseBody,
    requestContentType: call.requestContentType,
    requestBody: call.requestBody,
  });
  return {
    met: (found?.met ?? []).map((position) => named(conditions[position]!)),
    outside: (found?.outside ?? []).map((position) => named(conditions[position]!)),
  };
}

const json = (value: unknown) => ({ text: JSON.stringify(value) });

const PETS_31 = `openapi: 3.1.0
info: { title: pets, version: '1' }
paths:
  /pets/{petId}:
    parameters:
      - { name: petId, in: path, required: true, schema: { type: integer } }
    get:
      parameters:
        - { name: status, in: query, schema: { type: string, enum: [available, sold] } }
        - { name: limit, in: query, required: true, schema: { type: integer, minimum: 1, exclusiveMaximum: 100 } }
        - { name: X-Mode, in: header, schema: { type: string, enum: [fast, slow] } }
        - { name: session, in: cookie, schema: { type: string, minLength: 4 } }
        - { name: tags, in: query, schema: { type: array, maxItems: 2, items: { type: string, enum: [a, b] } } }
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
        4XX: { description: refused }
    put:
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [shape]
              properties:
                note: { type: string, maxLength: 3 }
                shape:
                  oneOf:
                    - { type: object, required: [radius], properties: { radius: { type: number, minimum: 0 } } }
                    - { type: object, required: [side], properties: { side: { type: number } }, additionalProperties: false }
                labels: { type: array, minItems: 1, items: { const: red } }
      responses:
        '204': { description: stored }
        '400': { description: refused }
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string }
        nickname: { type: string }
        kind: { enum: [cat, dog] }
        owner:
          anyOf:
            - { type: string }
            - { type: object, properties: { id: { type: integer } } }
`;

test.describe('OpenAPI 3.1: parameters, statuses and bodies', () => {
  let contract: Contract;
  let checker: BodyChecker;
  test.beforeAll(async () => {
    contract = await contractOf('pets.yaml', PETS_31);
    checker = await createBodyChecker(contract);
  });

  test('a call sending only what is required meets its required parameters, the optional ones left out and its status', () => {
    expect(examine(contract, checker, 'GET /pets/{petId}', { path: '/pets/7', query: [['limit', '5']], statusCode: 200 })).toEqual({
      met: [
        'parameter sent path petId',
        'parameter omitted query status',
        'parameter sent query limit',
        'parameter omitted header X-Mode',
        'parameter omitted cookie session',
        'parameter omitted query tags',
        'status responses/200',
      ],
      outside: [],
    });
  });

  test("parameters' declared values are met by what each place sent: the query, a header in any case, a cookie, each item of a list", () => {
    const call = {
      path: '/pets/7',
      query: [
        ['limit', '1'],
        ['status', 'sold'],
        ['tags', 'b'],
        ['tags', 'a'],
      ] as const,
      headers: [
        ['x-mode', 'slow'],
        ['Cookie', 'theme=dark; session=abcd'],
      ] as const,
      statusCode: 200,
    };
    expect(examine(contract, checker, 'GET /pets/{petId}', call).met).toEqual([
      'parameter sent path petId',
      'parameter sent query status',
      'enumValue parameters/0/schema/enum/1',
      'parameter sent query limit',
      // limit=1 is the minimum, reached exactly.
      'bound parameters/1/schema/minimum',
      'parameter sent header X-Mode',
      'enumValue parameters/2/schema/enum/1',
      'parameter sent cookie session',
      // abcd: 4 characters, the minLength.
      'bound parameters/3/schema/minLength',
      'parameter sent query tags',
      // Two values of a list with maxItems 2: reached.
      'bound parameters/4/schema/maxItems',
      'enumValue parameters/4/schema/items/enum/0',
      'enumValue parameters/4/schema/items/enum/1',
      'status responses/200',
    ]);
  });

  test('a value outside a bound counts as its negative case only when the call was answered 4xx', () => {
    const outsideAnswered = { path: '/pets/7', query: [['limit', '100']] as const, statusCode: 422 };
    expect(examine(contract, checker, 'GET /pets/{petId}', outsideAnswered).outside).toEqual([
      'bound parameters/1/schema/exclusiveMaximum',
    ]);
    // 4XX covers 422, as response coverage counts it.
    expect(examine(contract, checker, 'GET /pets/{petId}', outsideAnswered).met).toContain('status responses/4XX');
    expect(examine(contract, checker, 'GET /pets/{petId}', { ...outsideAnswered, statusCode: 200 }).outside).toEqual([]);
    expect(examine(contract, checker, 'GET /pets/{petId}', { ...outsideAnswered, statusCode: 500 }).outside).toEqual([]);
  });

  test('an exclusive bound is reached by the nearest integer inside it, 99 below an exclusiveMaximum of 100', () => {
    expect(examine(contract, checker, 'GET /pets/{petId}', { path: '/pets/7', query: [['limit', '99']], statusCode: 200 }).met).toContain(
      'bound parameters/1/schema/exclusiveMaximum',
    );
    expect(
      examine(contract, checker, 'GET /pets/{petId}', { path: '/pets/7', query: [['limit', '98']], statusCode: 200 }).met,
    ).not.toContain('bound parameters/1/schema/exclusiveMaximum');
  });

  test('a response body meets the enum values it holds, its optional properties present and the anyOf branches it matches', () => {
    const body = json({ name: 'rex', kind: 'dog', owner: { id: 3 } });
    expect(
      examine(contract, checker, 'GET /pets/{petId}', {
        path: '/pets/7',
        query: [['limit', '5']],
        statusCode: 200,
        responseBody: body,
      }).met.filter((name) => !name.startsWith('parameter')),
    ).toEqual([
      'status responses/200',
      // kind and owner are optional, nickname absent; dog is the enum's second value; the owner object matches the second branch only.
      'optionalProperty #/components/schemas/Pet/properties/kind',
      'enumValue #/components/schemas/Pet/properties/kind/enum/1',
      'optionalProperty #/components/schemas/Pet/properties/owner',
      'branch #/components/schemas/Pet/properties/owner/anyOf/1',
      // id is optional in that branch, and present.
      'optionalProperty #/components/schemas/Pet/properties/owner/anyOf/1/properties/id',
    ]);
  });

  test('a request body meets the oneOf branch it matches alone, its bounds, and a const in each item', () => {
    const body = { value: { shape: { radius: 0 }, note: 'abc', labels: ['red'] } };
    expect(examine(contract, checker, 'PUT /pets/{petId}', { path: '/pets/7', statusCode: 204, requestBody: body })).toEqual({
      met: [
        'parameter sent path petId',
        'optionalProperty requestBody/content/application~1json/schema/properties/note',
        'bound requestBody/content/application~1json/schema/properties/note/maxLength',
        'branch requestBody/content/application~1json/schema/properties/shape/oneOf/0',
        'bound requestBody/content/application~1json/schema/properties/shape/oneOf/0/properties/radius/minimum',
        'optionalProperty requestBody/content/application~1json/schema/properties/labels',
        'bound requestBody/content/application~1json/schema/properties/labels/minItems',
        'enumValue requestBody/content/application~1json/schema/properties/labels/items/const',
        'status responses/204',
      ],
      outside: [],
    });
  });

  test('a body value outside its bound, answered 400, is the negative case, in a branch it therefore matches no more too', () => {
    const body = { value: { shape: { radius: -1 }, note: 'abcd' } };
    expect(examine(contract, checker, 'PUT /pets/{petId}', { path: '/pets/7', statusCode: 400, requestBody: body }).outside).toEqual([
      'bound requestBody/content/application~1json/schema/properties/note/maxLength',
      'bound requestBody/content/application~1json/schema/properties/shape/oneOf/0/properties/radius/minimum',
    ]);
    // A shape matching no branch meets no branch, and nothing under one.
    const neither = { value: { shape: { radius: 'wide' } } };
    expect(
      examine(contract, checker, 'PUT /pets/{petId}', { path: '/pets/7', statusCode: 400, requestBody: neither }).met.filter((name) =>
        name.includes('shape'),
      ),
    ).toEqual([]);
  });

  test('a body not examined (not JSON, too large, unparsable) meets no body condition, only its parameters and status', () => {
    for (const responseBody of [{ text: '{"name": "rex", "kind": "dog"' }, { text: 'x'.repeat(1024 * 1024 + 1) }]) {
      expect(
        examine(contract, checker, 'GET /pets/{petId}', {
          path: '/pets/7',
          query: [['limit', '5']],
          statusCode: 200,
          responseBody,
        }).met.filter((name) => !name.startsWith('parameter')),
      ).toEqual(['status responses/200']);
    }
    expect(
      examine(contract, checker, 'GET /pets/{petId}', {
        path: '/pets/7',
        query: [['limit', '5']],
        statusCode: 200,
        responseContentType: 'text/plain',
        responseBody: { text: '{"kind":"dog"}' },
      }).met.filter((name) => !name.startsWith('parameter')),
    ).toEqual(['status responses/200']);
  });
});

test('a 3.0 nullable $ref is no branch, but what is under it is met through it', async () => {
  const contract = await contractOf(
    'nullable.yaml',
    `openapi: 3.0.3
info: { title: t, version: '1' }
paths:
  /items:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  item: { nullable: true, allOf: [{ $ref: '#/components/schemas/Item' }] }
components:
  schemas:
    Item: { type: object, properties: { size: { type: string, enum: [S, M] } } }
`,
  );
  const checker = await createBodyChecker(contract);
  expect(examine(contract, checker, 'GET /items', { statusCode: 200, responseBody: json({ item: { size: 'M' } }) }).met).toEqual([
    'status responses/200',
    'optionalProperty responses/200/content/application~1json/schema/properties/item',
    'optionalProperty #/components/schemas/Item/properties/size',
    'enumValue #/components/schemas/Item/properties/size/enum/1',
  ]);
});

test('Swagger 2.0: form fields meet formData parameters and their declared values', async () => {
  const contract = await contractOf(
    'swagger.yaml',
    `swagger: '2.0'
info: { title: t, version: '1' }
paths:
  /login:
    post:
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - { name: user, in: formData, type: string, required: true }
        - { name: remember, in: formData, type: boolean }
        - { name: realm, in: formData, type: string, enum: [staff, guest] }
      responses:
        '200': { description: ok }
`,
  );
  const checker = await createBodyChecker(contract);
  const call = {
    statusCode: 200,
    formFields: [
      ['user', 'ann'],
      ['realm', 'guest'],
    ] as const,
  };
  expect(examine(contract, checker, 'POST /login', call).met).toEqual([
    'parameter sent formData user',
    'parameter omitted formData remember',
    'parameter sent formData realm',
    'enumValue parameters/2/enum/1',
    'status responses/200',
  ]);
});

test("a path's parameters are read after its base path, decoded, and a mixed segment gives each of its parameters", async () => {
  const contract = await contractOf(
    'files.yaml',
    `openapi: 3.1.0
info: { title: t, version: '1' }
servers: [{ url: 'https://example.test/v2' }]
paths:
  /files/{name}.{format}:
    get:
      parameters:
        - { name: name, in: path, required: true, schema: { type: string, minLength: 3 } }
        - { name: format, in: path, required: true, schema: { type: string, enum: [json, csv] } }
      responses:
        '200': { description: ok }
`,
  );
  const checker = await createBodyChecker(contract);
  expect(examine(contract, checker, 'GET /files/{name}.{format}', { path: '/v2/files/a%20b.csv', statusCode: 200 }).met).toEqual([
    'parameter sent path name',
    // "a b", decoded: three characters.
    'bound parameters/0/schema/minLength',
    'parameter sent path format',
    'enumValue parameters/1/schema/enum/1',
    'status responses/200',
  ]);
});
