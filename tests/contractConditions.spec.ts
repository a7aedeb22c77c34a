import { createHash } from 'node:crypto';
import { expect, test } from './support/test.js';
import { listDeclaredConditions, type Condition, type ContractConditions } from '../src/contract/conditions.js';
import type { Contract } from '../src/contract/contract.js';
import { loadContract } from '../src/contract/loadContract.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';

// The conditions a document declares, operation by operation (issue 36), on
// hand-made documents of each version: every condition below, and every
// count, is read off the document by hand.

async function contractOf(file: string, text: string): Promise<Contract> {
  return loadContract([`/api/${file}`], new MemoryFileSystem({ [`/api/${file}`]: text }));
}

function conditionsOf(conditions: ContractConditions, label: string): readonly Condition[] {
  const found = conditions.operations.find((operation) => operation.label === label);
  if (found === undefined) throw new Error(`no operation ${label}`);
  return found.conditions;
}

/** The value a pointer names, looked up key by key (not through the code under test). */
function lookUp(document: unknown, pointer: string): { readonly found: boolean } {
  expect(pointer.startsWith('#/')).toBe(true);
  let current: unknown = document;
  for (const token of pointer.slice(2).split('/')) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return { found: false };
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true };
}

const OPENAPI_30 = `openapi: 3.0.3
info: { title: users, version: '1' }
paths:
  /users/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer, minimum: 1 } }
      - { name: verbose, in: query, schema: { type: boolean } }
      - { name: X-Trace, in: header, schema: { type: string } }
    get:
      parameters:
        - { name: verbose, in: query, required: true, schema: { type: string, enum: [full, brief] } }
        - { name: x-trace, in: header, schema: { type: string, maxLength: 32 } }
        - $ref: '#/components/parameters/Fields'
        - { name: Accept, in: header, schema: { type: string, enum: [application/json] } }
      responses:
        '200':
          description: the user
          content:
            application/json:
              schema: { $ref: '#/components/schemas/User' }
            application/xml:
              schema: { $ref: '#/components/schemas/Other' }
        '404':
          $ref: '#/components/responses/NotFound'
        default:
          description: an error
  /users:
    post:
      requestBody:
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewUser' }
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/User' }
        4XX:
          description: refused
components:
  parameters:
    Fields:
      name: fields
      in: query
      schema: { type: array, maxItems: 3, items: { type: string, enum: [name, email] } }
  responses:
    NotFound:
      description: no such user
      content:
        application/problem+json:
          schema:
            type: object
            required: [title]
            properties:
              title: { type: string }
              detail: { type: string }
  schemas:
    User:
      type: object
      required: [id]
      properties:
        id: { type: integer }
        role: { type: string, enum: [admin, member], nullable: true }
        manager: { $ref: '#/components/schemas/User' }
        password: { type: string, writeOnly: true }
    Other:
      type: object
      properties:
        format: { type: string, enum: [xml] }
    NewUser:
      allOf:
        - $ref: '#/components/schemas/Base'
        - type: object
          required: [nickname]
          properties:
            age: { type: integer, minimum: 0, maximum: 150, exclusiveMaximum: true }
            contact:
              nullable: true
              oneOf:
                - $ref: '#/components/schemas/Email'
                - $ref: '#/components/schemas/Phone'
    Base:
      type: object
      properties:
        nickname: { type: string, minLength: 2 }
        id: { type: integer, readOnly: true, minimum: 1 }
        tags: { type: array, maxItems: 5, items: { type: string } }
    Email:
      type: object
      required: [email]
      properties:
        email: { type: string, maxLength: 254 }
    Phone:
      type: object
      required: [number]
      properties:
        number: { type: string }
        kind: { type: string, enum: [mobile, landline] }
`;

const USER = '#/paths/~1users~1%7Bid%7D';
const SCHEMAS = '#/components/schemas';

test.describe('OpenAPI 3.0 in YAML', () => {
  let contract: Contract;
  let conditions: ContractConditions;
  test.beforeAll(async () => {
    contract = await contractOf('openapi.yaml', OPENAPI_30);
    conditions = listDeclaredConditions(contract);
  });

  test(`parameters: the path item's less those the operation declares again (a header's name in any case), then the \
operation's (Accept ignored), each sent, an optional one left out too, with its enum values and bounds; statuses but \
default; the JSON bodies' optional properties and enum values, the null nullable adds left out, writeOnly left out of a \
response, a cycle walked once`, () => {
    const fields = { name: 'fields', in: 'query' } as const;
    expect(conditionsOf(conditions, 'GET /users/{id}')).toStrictEqual([
      { kind: 'parameter', where: `${USER}/parameters/0`, name: 'id', in: 'path', required: true, case: 'sent' },
      { kind: 'bound', where: `${USER}/parameters/0/schema/minimum`, keyword: 'minimum', value: 1, parameter: { name: 'id', in: 'path' } },
      { kind: 'parameter', where: `${USER}/get/parameters/0`, name: 'verbose', in: 'query', required: true, case: 'sent' },
      {
        kind: 'enumValue',
        where: `${USER}/get/parameters/0/schema/enum/0`,
        value: 'full',
        direction: 'request',
        parameter: { name: 'verbose', in: 'query' },
      },
      {
        kind: 'enumValue',
        where: `${USER}/get/parameters/0/schema/enum/1`,
        value: 'brief',
        direction: 'request',
        parameter: { name: 'verbose', in: 'query' },
      },
      { kind: 'parameter', where: `${USER}/get/parameters/1`, name: 'x-trace', in: 'header', required: false, case: 'sent' },
      { kind: 'parameter', where: `${USER}/get/parameters/1`, name: 'x-trace', in: 'header', required: false, case: 'omitted' },
      {
        kind: 'bound',
        where: `${USER}/get/parameters/1/schema/maxLength`,
        keyword: 'maxLength',
        value: 32,
        parameter: { name: 'x-trace', in: 'header' },
      },
      { kind: 'parameter', where: `${USER}/get/parameters/2`, name: 'fields', in: 'query', required: false, case: 'sent' },
      { kind: 'parameter', where: `${USER}/get/parameters/2`, name: 'fields', in: 'query', required: false, case: 'omitted' },
      { kind: 'bound', where: '#/components/parameters/Fields/schema/maxItems', keyword: 'maxItems', value: 3, parameter: fields },
      {
        kind: 'enumValue',
        where: '#/components/parameters/Fields/schema/items/enum/0',
        value: 'name',
        direction: 'request',
        parameter: fields,
      },
      {
        kind: 'enumValue',
        where: '#/components/parameters/Fields/schema/items/enum/1',
        value: 'email',
        direction: 'request',
        parameter: fields,
      },
      { kind: 'status', where: `${USER}/get/responses/200`, status: '200' },
      { kind: 'optionalProperty', where: `${SCHEMAS}/User/properties/role`, name: 'role', direction: 'response', status: '200' },
      { kind: 'enumValue', where: `${SCHEMAS}/User/properties/role/enum/0`, value: 'admin', direction: 'response', status: '200' },
      { kind: 'enumValue', where: `${SCHEMAS}/User/properties/role/enum/1`, value: 'member', direction: 'response', status: '200' },
      { kind: 'optionalProperty', where: `${SCHEMAS}/User/properties/manager`, name: 'manager', direction: 'response', status: '200' },
      { kind: 'status', where: `${USER}/get/responses/404`, status: '404' },
      {
        kind: 'optionalProperty',
        where: '#/components/responses/NotFound/content/application~1problem+json/schema/properties/detail',
        name: 'detail',
        direction: 'response',
        status: '404',
      },
    ]);
  });

  test(`a request body behind $refs in components: a property required by another allOf part is no condition, a \
readOnly one and what it holds none either; bounds of the request (3.0's boolean exclusiveMaximum as its bound); oneOf \
branches under a nullable schema, never the anyOf the loader makes of nullable`, () => {
    const request = { direction: 'request' } as const;
    const contact = `${SCHEMAS}/NewUser/allOf/1/properties/contact`;
    expect(conditionsOf(conditions, 'POST /users')).toStrictEqual([
      { kind: 'bound', where: `${SCHEMAS}/Base/properties/nickname/minLength`, keyword: 'minLength', value: 2 },
      { kind: 'optionalProperty', where: `${SCHEMAS}/Base/properties/tags`, name: 'tags', ...request },
      { kind: 'bound', where: `${SCHEMAS}/Base/properties/tags/maxItems`, keyword: 'maxItems', value: 5 },
      { kind: 'optionalProperty', where: `${SCHEMAS}/NewUser/allOf/1/properties/age`, name: 'age', ...request },
      { kind: 'bound', where: `${SCHEMAS}/NewUser/allOf/1/properties/age/minimum`, keyword: 'minimum', value: 0 },
      { kind: 'bound', where: `${SCHEMAS}/NewUser/allOf/1/properties/age/exclusiveMaximum`, keyword: 'exclusiveMaximum', value: 150 },
      { kind: 'optionalProperty', where: contact, name: 'contact', ...request },
      { kind: 'branch', where: `${contact}/anyOf/0/oneOf/0`, keyword: 'oneOf', ...request },
      { kind: 'bound', where: `${SCHEMAS}/Email/properties/email/maxLength`, keyword: 'maxLength', value: 254 },
      { kind: 'branch', where: `${contact}/anyOf/0/oneOf/1`, keyword: 'oneOf', ...request },
      { kind: 'optionalProperty', where: `${SCHEMAS}/Phone/properties/kind`, name: 'kind', ...request },
      { kind: 'enumValue', where: `${SCHEMAS}/Phone/properties/kind/enum/0`, value: 'mobile', ...request },
      { kind: 'enumValue', where: `${SCHEMAS}/Phone/properties/kind/enum/1`, value: 'landline', ...request },
      { kind: 'status', where: '#/paths/~1users/post/responses/201', status: '201' },
      { kind: 'optionalProperty', where: `${SCHEMAS}/User/properties/role`, name: 'role', direction: 'response', status: '201' },
      { kind: 'enumValue', where: `${SCHEMAS}/User/properties/role/enum/0`, value: 'admin', direction: 'response', status: '201' },
      { kind: 'enumValue', where: `${SCHEMAS}/User/properties/role/enum/1`, value: 'member', direction: 'response', status: '201' },
      { kind: 'optionalProperty', where: `${SCHEMAS}/User/properties/manager`, name: 'manager', direction: 'response', status: '201' },
      { kind: 'status', where: '#/paths/~1users/post/responses/4XX', status: '4XX' },
    ]);
  });

  test('counted per operation and for the contract: 20 and 19, 39', () => {
    expect(
      conditions.operations.map(({ label, documentIndex, conditionCount }) => ({ label, documentIndex, conditionCount })),
    ).toStrictEqual([
      { label: 'GET /users/{id}', documentIndex: 0, conditionCount: 20 },
      { label: 'POST /users', documentIndex: 0, conditionCount: 19 },
    ]);
    expect(conditions.conditionCount).toBe(39);
  });

  test('listed twice, the conditions are the same, in the same order', () => {
    expect(listDeclaredConditions(contract)).toStrictEqual(conditions);
  });
});

const OPENAPI_31 = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets': {
      get: {
        parameters: [
          { name: 'kind', in: 'query', schema: { type: ['string', 'null'], enum: ['cat', 'dog', null] } },
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', exclusiveMinimum: 0, maximum: 100 } },
          { name: 'session', in: 'cookie', schema: { const: 'v1' } },
        ],
        responses: {
          '200': {
            description: 'the pets',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Pet: { anyOf: [{ $ref: '#/components/schemas/Cat' }, { type: 'null' }] },
      Cat: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string' },
          lives: { type: 'integer', maximum: 9 },
          toy: { $ref: '#/components/schemas/Toy' },
        },
      },
      Toy: { type: 'object', properties: { owner: { $ref: '#/components/schemas/Cat' }, shape: { const: 'ball' } } },
    },
  },
});

test(`OpenAPI 3.1 in JSON: a null an enum lists and a const are values; the bounds of the numeric exclusiveMinimum; an \
anyOf written with null is two branches; a $ref cycle (Cat, Toy, Cat) is walked once; bounds of a response are none`, async () => {
  const conditions = listDeclaredConditions(await contractOf('openapi.json', OPENAPI_31));
  const kind = { name: 'kind', in: 'query' } as const;
  const response = { direction: 'response', status: '200' } as const;
  expect(conditionsOf(conditions, 'GET /pets')).toStrictEqual([
    { kind: 'parameter', where: '#/paths/~1pets/get/parameters/0', name: 'kind', in: 'query', required: false, case: 'sent' },
    { kind: 'parameter', where: '#/paths/~1pets/get/parameters/0', name: 'kind', in: 'query', required: false, case: 'omitted' },
    { kind: 'enumValue', where: '#/paths/~1pets/get/parameters/0/schema/enum/0', value: 'cat', direction: 'request', parameter: kind },
    { kind: 'enumValue', where: '#/paths/~1pets/get/parameters/0/schema/enum/1', value: 'dog', direction: 'request', parameter: kind },
    { kind: 'enumValue', where: '#/paths/~1pets/get/parameters/0/schema/enum/2', value: null, direction: 'request', parameter: kind },
    { kind: 'parameter', where: '#/paths/~1pets/get/parameters/1', name: 'limit', in: 'query', required: true, case: 'sent' },
    {
      kind: 'bound',
      where: '#/paths/~1pets/get/parameters/1/schema/exclusiveMinimum',
      keyword: 'exclusiveMinimum',
      value: 0,
      parameter: { name: 'limit', in: 'query' },
    },
    {
      kind: 'bound',
      where: '#/paths/~1pets/get/parameters/1/schema/maximum',
      keyword: 'maximum',
      value: 100,
      parameter: { name: 'limit', in: 'query' },
    },
    { kind: 'parameter', where: '#/paths/~1pets/get/parameters/2', name: 'session', in: 'cookie', required: false, case: 'sent' },
    { kind: 'parameter', where: '#/paths/~1pets/get/parameters/2', name: 'session', in: 'cookie', required: false, case: 'omitted' },
    {
      kind: 'enumValue',
      where: '#/paths/~1pets/get/parameters/2/schema/const',
      value: 'v1',
      direction: 'request',
      parameter: { name: 'session', in: 'cookie' },
    },
    { kind: 'status', where: '#/paths/~1pets/get/responses/200', status: '200' },
    { kind: 'branch', where: `${SCHEMAS}/Pet/anyOf/0`, keyword: 'anyOf', ...response },
    { kind: 'optionalProperty', where: `${SCHEMAS}/Cat/properties/lives`, name: 'lives', ...response },
    { kind: 'optionalProperty', where: `${SCHEMAS}/Cat/properties/toy`, name: 'toy', ...response },
    { kind: 'optionalProperty', where: `${SCHEMAS}/Toy/properties/owner`, name: 'owner', ...response },
    { kind: 'optionalProperty', where: `${SCHEMAS}/Toy/properties/shape`, name: 'shape', ...response },
    { kind: 'enumValue', where: `${SCHEMAS}/Toy/properties/shape/const`, value: 'ball', ...response },
    { kind: 'branch', where: `${SCHEMAS}/Pet/anyOf/1`, keyword: 'anyOf', ...response },
  ]);
  expect(conditions.conditionCount).toBe(19);
});

const SWAGGER_20 = `swagger: '2.0'
info: { title: orders, version: '1' }
basePath: /v1
paths:
  /orders:
    parameters:
      - { name: tenant, in: header, required: true, type: string }
    post:
      consumes: [application/json, application/xml]
      parameters:
        - { name: body, in: body, required: true, schema: { $ref: '#/definitions/Order' } }
        - { name: dryRun, in: query, type: boolean }
        - { name: status, in: query, type: array, items: { type: string, enum: [open, closed] } }
      responses:
        '201':
          description: created
          schema: { $ref: '#/definitions/Order' }
        default:
          description: an error
  /orders/{id}/notes:
    put:
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - { name: id, in: path, required: true, type: integer }
        - { name: note, in: formData, type: string, maxLength: 140 }
      responses:
        '204': { description: saved }
definitions:
  Order:
    type: object
    required: [item]
    properties:
      item: { type: string, enum: [tea, coffee], x-nullable: true }
      quantity: { type: integer, minimum: 1, maximum: 10 }
`;

test(`Swagger 2.0 in YAML: a parameter holds its own enum values (an array's under items) and bounds; a form field is a \
parameter; the body parameter is the request body, walked once for its two media types; the null x-nullable adds left out`, async () => {
  const conditions = listDeclaredConditions(await contractOf('swagger.yaml', SWAGGER_20));
  const status = { name: 'status', in: 'query' } as const;
  const order = '#/definitions/Order/properties';
  expect(conditionsOf(conditions, 'POST /orders')).toStrictEqual([
    { kind: 'parameter', where: '#/paths/~1orders/parameters/0', name: 'tenant', in: 'header', required: true, case: 'sent' },
    { kind: 'parameter', where: '#/paths/~1orders/post/parameters/1', name: 'dryRun', in: 'query', required: false, case: 'sent' },
    { kind: 'parameter', where: '#/paths/~1orders/post/parameters/1', name: 'dryRun', in: 'query', required: false, case: 'omitted' },
    { kind: 'parameter', where: '#/paths/~1orders/post/parameters/2', name: 'status', in: 'query', required: false, case: 'sent' },
    { kind: 'parameter', where: '#/paths/~1orders/post/parameters/2', name: 'status', in: 'query', required: false, case: 'omitted' },
    { kind: 'enumValue', where: '#/paths/~1orders/post/parameters/2/items/enum/0', value: 'open', direction: 'request', parameter: status },
    {
      kind: 'enumValue',
      where: '#/paths/~1orders/post/parameters/2/items/enum/1',
      value: 'closed',
      direction: 'request',
      parameter: status,
    },
    { kind: 'enumValue', where: `${order}/item/enum/0`, value: 'tea', direction: 'request' },
    { kind: 'enumValue', where: `${order}/item/enum/1`, value: 'coffee', direction: 'request' },
    { kind: 'optionalProperty', where: `${order}/quantity`, name: 'quantity', direction: 'request' },
    { kind: 'bound', where: `${order}/quantity/minimum`, keyword: 'minimum', value: 1 },
    { kind: 'bound', where: `${order}/quantity/maximum`, keyword: 'maximum', value: 10 },
    { kind: 'status', where: '#/paths/~1orders/post/responses/201', status: '201' },
    { kind: 'enumValue', where: `${order}/item/enum/0`, value: 'tea', direction: 'response', status: '201' },
    { kind: 'enumValue', where: `${order}/item/enum/1`, value: 'coffee', direction: 'response', status: '201' },
    { kind: 'optionalProperty', where: `${order}/quantity`, name: 'quantity', direction: 'response', status: '201' },
  ]);
  expect(conditionsOf(conditions, 'PUT /orders/{id}/notes')).toStrictEqual([
    {
      kind: 'parameter',
      where: '#/paths/~1orders~1%7Bid%7D~1notes/put/parameters/0',
      name: 'id',
      in: 'path',
      required: true,
      case: 'sent',
    },
    {
      kind: 'parameter',
      where: '#/paths/~1orders~1%7Bid%7D~1notes/put/parameters/1',
      name: 'note',
      in: 'formData',
      required: false,
      case: 'sent',
    },
    {
      kind: 'parameter',
      where: '#/paths/~1orders~1%7Bid%7D~1notes/put/parameters/1',
      name: 'note',
      in: 'formData',
      required: false,
      case: 'omitted',
    },
    {
      kind: 'bound',
      where: '#/paths/~1orders~1%7Bid%7D~1notes/put/parameters/1/maxLength',
      keyword: 'maxLength',
      value: 140,
      parameter: { name: 'note', in: 'formData' },
    },
    { kind: 'status', where: '#/paths/~1orders~1%7Bid%7D~1notes/put/responses/204', status: '204' },
  ]);
  expect(conditions.operations.map((operation) => operation.conditionCount)).toStrictEqual([16, 5]);
  expect(conditions.conditionCount).toBe(21);
});

test('every condition names a place that is in its bundled document', async () => {
  for (const [file, text] of [
    ['openapi.yaml', OPENAPI_30],
    ['openapi.json', OPENAPI_31],
    ['swagger.yaml', SWAGGER_20],
  ] as const) {
    const contract = await contractOf(file, text);
    const places = listDeclaredConditions(contract).operations.flatMap((operation) =>
      operation.conditions.map((condition) => ({
        where: condition.where,
        ...lookUp(contract.documents[operation.documentIndex]?.bundled, condition.where),
      })),
    );
    expect(places.length).toBeGreaterThan(0);
    expect(places.filter((place) => !place.found)).toStrictEqual([]);
  }
});

test(`a schema two properties of one body refer to lists its conditions once for that body; two parameters with one \
schema each list its values; each response lists its own`, async () => {
  const address = { $ref: '#/components/schemas/Address' };
  const level = { $ref: '#/components/schemas/Level' };
  const contract = await contractOf(
    'openapi.json',
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'places', version: '1' },
      paths: {
        '/people': {
          get: {
            parameters: [
              { name: 'from', in: 'query', required: true, schema: level },
              { name: 'to', in: 'query', required: true, schema: level },
            ],
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { type: 'object', properties: { home: address, work: address } } } },
              },
              '206': { description: 'partial', content: { 'application/json': { schema: address } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Level: { enum: ['low', 'high'] },
          Address: { type: 'object', required: ['city'], properties: { city: { type: 'string' }, street: { type: 'string' } } },
        },
      },
    }),
  );
  const root = '#/paths/~1people/get/responses/200/content/application~1json/schema/properties';
  const street = `${SCHEMAS}/Address/properties/street`;
  const parameter = (name: string, where: string, value: string) =>
    ({
      kind: 'enumValue',
      where: `${SCHEMAS}/Level/enum/${where}`,
      value,
      direction: 'request',
      parameter: { name, in: 'query' },
    }) as const;
  expect(listDeclaredConditions(contract).operations[0]?.conditions).toStrictEqual([
    { kind: 'parameter', where: '#/paths/~1people/get/parameters/0', name: 'from', in: 'query', required: true, case: 'sent' },
    parameter('from', '0', 'low'),
    parameter('from', '1', 'high'),
    { kind: 'parameter', where: '#/paths/~1people/get/parameters/1', name: 'to', in: 'query', required: true, case: 'sent' },
    parameter('to', '0', 'low'),
    parameter('to', '1', 'high'),
    { kind: 'status', where: '#/paths/~1people/get/responses/200', status: '200' },
    { kind: 'optionalProperty', where: `${root}/home`, name: 'home', direction: 'response', status: '200' },
    { kind: 'optionalProperty', where: street, name: 'street', direction: 'response', status: '200' },
    { kind: 'optionalProperty', where: `${root}/work`, name: 'work', direction: 'response', status: '200' },
    { kind: 'status', where: '#/paths/~1people/get/responses/206', status: '206' },
    { kind: 'optionalProperty', where: street, name: 'street', direction: 'response', status: '206' },
  ]);
});

test('a contract made by hand, with no document behind it, lists the statuses of its operations', () => {
  const contract: Contract = {
    documents: [{ path: 'openapi.yaml', version: '3.0', bundled: {} }],
    operations: [
      {
        method: 'GET',
        path: '/users',
        basePaths: [''],
        integerParameters: [],
        label: 'GET /users',
        tags: [],
        deprecated: false,
        responses: [
          { status: '200', content: [{ mediaType: 'application/json', schemaPointer: '#/components/schemas/Missing' }] },
          { status: 'default', content: [] },
        ],
        documentIndex: 0,
      },
    ],
  };
  expect(listDeclaredConditions(contract)).toStrictEqual({
    operations: [
      {
        label: 'GET /users',
        documentIndex: 0,
        conditions: [{ kind: 'status', where: '#/paths/~1users/get/responses/200', status: '200' }],
        conditionCount: 1,
        // SHA-256 of the one condition's identity and a line break, its first 16 digits.
        fingerprint: createHash('sha256').update('["status","#/paths/~1users/get/responses/200"]\n').digest('hex').slice(0, 16),
      },
    ],
    conditionCount: 1,
  });
});
