import { createHash } from 'node:crypto';
import { isJsonMediaType, mediaEssence } from './bodyConformance.js';
import type { Contract, ContractOperation, MediaTypeSchema, OpenApiVersion } from './contract.js';
import { followRef, pointerBelow, pointerOf, pointerTokens, valueAtPointer } from './documentPointers.js';

/**
 * The conditions an OpenAPI document declares for each of its operations
 * (issue 36): the places a suite can reach or miss, read from the
 * contract's bundled documents alone, before any call. Which of them a run
 * met is counted elsewhere; a condition holds no value from traffic, only
 * what the document says (its pointer, a declared enum value, a bound).
 *
 * Each condition is `{ kind, where, ... }`, `where` a JSON pointer into its
 * operation's bundled document in the URI-fragment form the contract's
 * pointers take (`#/paths/~1users/get/parameters/0`): the document as the
 * loader keeps it (files its `$ref`s named brought in, 3.0 and 2.0 schemas
 * in JSON Schema 2020-12), so every `where` resolves there.
 */

/** Where a parameter goes: OpenAPI 3's four places, and Swagger 2.0's form fields. 2.0's `in: body` is the request body, not a parameter. */
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie' | 'formData';

/** A parameter by its name and place, as enum values and bounds of its schema name it. */
export interface ParameterName {
  readonly name: string;
  readonly in: ParameterLocation;
}

/** Which way a body or parameter goes: sent by the suite, or answered by the server. */
export type ConditionDirection = 'request' | 'response';

/** The bounds listed, in this order within a schema. 3.0's boolean `exclusiveMinimum` is read as the loader rewrote it: the bound itself. */
export const BOUND_KEYWORDS = [
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
] as const;

export type BoundKeyword = (typeof BOUND_KEYWORDS)[number];

/**
 * A declared parameter sent at least once (`case: 'sent'`), and, for one
 * not required, left out at least once (`case: 'omitted'`). `where` is the
 * parameter's place in its operation or path item (`#/paths/~1users/get/parameters/0`),
 * a `$ref` there not followed. A path parameter is required whatever the
 * document says, as OpenAPI has it.
 */
export interface ParameterCondition extends ParameterName {
  readonly kind: 'parameter';
  readonly where: string;
  readonly required: boolean;
  readonly case: 'sent' | 'omitted';
}

/**
 * One value of an `enum` (`where` is the value's place: `.../enum/2`), or a
 * `const` (`.../const`), seen at least once: in a parameter's schema
 * (`parameter` names it; `direction` is `request`), or anywhere in a
 * request or response body's schema (`status` names the response's status
 * key, `default` included). `value` is the document's own. In 3.0 and 2.0
 * documents a `null` in an enum is not listed: the loader adds it for
 * `nullable`, and a document of those versions cannot be told to have
 * written it; in 3.1 it is listed.
 */
export interface EnumValueCondition {
  readonly kind: 'enumValue';
  readonly where: string;
  readonly value: unknown;
  readonly direction: ConditionDirection;
  readonly status?: string;
  readonly parameter?: ParameterName;
}

/** A `oneOf` or `anyOf` branch of a request or response body's schema, nested ones too, that some body matched; `where` is the branch (`.../oneOf/1`). */
export interface BranchCondition {
  readonly kind: 'branch';
  readonly where: string;
  readonly keyword: 'oneOf' | 'anyOf';
  readonly direction: ConditionDirection;
  readonly status?: string;
}

/**
 * A property of an object schema of a request or response body that is not
 * required, present at least once; `where` is the property (`.../properties/nickname`).
 * A property is required when its schema, a schema it is applied with in
 * place (`allOf`, `$ref`, `oneOf`/`anyOf` branches under it) or an `allOf`
 * part of it lists it. A `readOnly` property is no request condition, a
 * `writeOnly` one no response condition (OpenAPI says they are not sent
 * that way); nothing under them is either. Nor is one whose schema is
 * `false`, which may never be present.
 */
export interface OptionalPropertyCondition {
  readonly kind: 'optionalProperty';
  readonly where: string;
  readonly name: string;
  readonly direction: ConditionDirection;
  readonly status?: string;
}

/**
 * A declared response status (`200`, `2XX`) seen at least once; `where` is
 * the response (`.../responses/200`). `default` is none, as in response
 * coverage: it names no status a call could be said to have met.
 */
export interface StatusCondition {
  readonly kind: 'status';
  readonly where: string;
  readonly status: string;
}

/**
 * A numeric or length bound of a parameter's schema (`parameter` names it)
 * or of the request body's schema, reached exactly by some value and a value
 * outside it sent and answered 4xx. Request side only: the suite chooses
 * what it sends. `where` is the keyword (`.../maxLength`); `value` the bound.
 */
export interface BoundCondition {
  readonly kind: 'bound';
  readonly where: string;
  readonly keyword: BoundKeyword;
  readonly value: number;
  readonly parameter?: ParameterName;
}

export type Condition =
  ParameterCondition | EnumValueCondition | BranchCondition | OptionalPropertyCondition | StatusCondition | BoundCondition;

export type ConditionKind = Condition['kind'];

/** The conditions of one operation, in document order. */
export interface OperationConditions {
  /** The operation's label: `GET /users/{id}`. */
  readonly label: string;
  /** Its document (an index of {@link Contract.documents}). */
  readonly documentIndex: number;
  readonly conditions: readonly Condition[];
  readonly conditionCount: number;
}

/** The conditions of a contract: one entry per operation, in the contract's order (index for index with {@link Contract.operations}). */
export interface ContractConditions {
  readonly operations: readonly OperationConditions[];
  readonly conditionCount: number;
}

/**
 * How deep a walk goes into a body's schema, each property, item, `allOf`
 * part, branch or `$ref` one level: real bodies nest a few dozen, and the
 * walk recurses once a level. What lies deeper is not listed.
 */
export const CONDITION_SCHEMA_DEPTH_LIMIT = 64;

type Json = Record<string, unknown>;

/**
 * Lists, operation by operation, the conditions the contract's documents
 * declare. In document order: an operation's parameters (its path item's
 * first, less those the operation overrides by name and place, then its
 * own), each with the enum values and bounds of its schema; its request
 * body; then each response: its status, then its body. Within a schema: a
 * `$ref`'s target, its own enum values and bounds, its properties in order
 * (each property's condition, then what is under it), `additionalProperties`,
 * `items` and `prefixItems`, `allOf` parts, then `oneOf` and `anyOf`
 * branches (each branch's condition, then what is under it). Only JSON
 * bodies' schemas are walked (the bodies a run can examine), each schema
 * once however many media types name it; `not`, `if`/`then`/`else`,
 * `patternProperties` and `dependentSchemas` are not walked.
 *
 * A condition is listed once per operation: a schema reached twice within
 * one body (two properties referring to one component) declares its
 * conditions once for that body, as they have one place; a schema reached
 * again on the way to itself (a `$ref` cycle) is not walked again. The
 * result is a function of the contract alone.
 */
export function listDeclaredConditions(contract: Contract): ContractConditions {
  let conditionCount = 0;
  const operations = contract.operations.map((_operation, index) => {
    const listed = conditionsOfOperation(contract, index);
    conditionCount += listed.conditionCount;
    return listed;
  });
  return { operations, conditionCount };
}

/** The conditions of one operation, with what tells their list apart from another's. */
export interface ListedConditions extends OperationConditions {
  /**
   * 16 hexadecimal digits naming the list (a SHA-256 of each condition's
   * identity, in order): what a run met of it is kept as positions in the
   * list, which mean the same only for the same list.
   */
  readonly fingerprint: string;
}

const listedByContract = new WeakMap<Contract, Map<number, ListedConditions>>();

/**
 * The conditions of the contract's operation at `index`, listed the first
 * time they are asked for and kept with the contract: a run lists those of
 * the operations its calls reach, not every one of a large document's.
 */
export function conditionsOfOperation(contract: Contract, index: number): ListedConditions {
  let listed = listedByContract.get(contract);
  if (listed === undefined) listedByContract.set(contract, (listed = new Map<number, ListedConditions>()));
  const known = listed.get(index);
  if (known !== undefined) return known;
  const operation = contract.operations[index]!;
  const document = contract.documents[operation.documentIndex];
  const conditions = operationConditions(operation, document?.bundled, document?.version ?? '3.1');
  const hash = createHash('sha256');
  for (const condition of conditions) hash.update(`${conditionIdentity(condition)}\n`);
  const made = {
    label: operation.label,
    documentIndex: operation.documentIndex,
    conditions,
    conditionCount: conditions.length,
    fingerprint: hash.digest('hex').slice(0, 16),
  };
  listed.set(index, made);
  return made;
}

function operationConditions(operation: ContractOperation, document: unknown, version: OpenApiVersion): Condition[] {
  const conditions: Condition[] = [];
  const listed = new Set<string>();
  const emit = (condition: Condition): void => {
    const identity = conditionIdentity(condition);
    if (listed.has(identity)) return;
    listed.add(identity);
    conditions.push(condition);
  };
  const method = operation.method.toLowerCase();
  const paths = isObject(document) ? document['paths'] : undefined;
  const { value: pathItem, pointer: itemPointer } = followRef(
    document,
    isObject(paths) ? paths[operation.path] : undefined,
    pointerOf('paths', operation.path),
  );
  const operationPointer = pointerBelow(itemPointer, method);
  const operationObject = isObject(pathItem) ? pathItem[method] : undefined;

  for (const parameter of parametersOf(document, version, pathItem, itemPointer, operationObject, operationPointer)) {
    const { name, in: place, required } = parameter;
    emit({ kind: 'parameter', where: parameter.where, name, in: place, required, case: 'sent' });
    if (!required) emit({ kind: 'parameter', where: parameter.where, name, in: place, required, case: 'omitted' });
    if (parameter.schemaPointer === undefined) continue;
    const walk = schemaWalk(document, version, emit, { direction: 'request', parameter: { name, in: place }, bounds: true, shape: false });
    walkSchema(walk, parameter.schema, parameter.schemaPointer, 0, NONE, false);
  }

  for (const schemaPointer of jsonSchemaPointers(operation.requestBody ?? [])) {
    const walk = schemaWalk(document, version, emit, { direction: 'request', bounds: true, shape: true });
    walkSchema(walk, valueAtPointer(document, schemaPointer), schemaPointer, 0, NONE, false);
  }

  for (const response of operation.responses) {
    if (response.status !== 'default') {
      emit({ kind: 'status', where: pointerBelow(operationPointer, 'responses', response.status), status: response.status });
    }
    for (const schemaPointer of jsonSchemaPointers(response.content)) {
      const walk = schemaWalk(document, version, emit, { direction: 'response', status: response.status, bounds: false, shape: true });
      walkSchema(walk, valueAtPointer(document, schemaPointer), schemaPointer, 0, NONE, false);
    }
  }
  return conditions;
}

/** What tells two conditions of one operation apart: a place, and the parameter, direction, status or case it is met by. */
export function conditionIdentity(condition: Condition): string {
  return identityKey(
    condition.kind,
    condition.where,
    condition.kind === 'parameter' ? condition.case : undefined,
    'direction' in condition ? condition.direction : undefined,
    'direction' in condition ? (condition.status ?? null) : undefined,
    'parameter' in condition ? condition.parameter : undefined,
  );
}

/** The identity of a condition from its parts (see {@link conditionIdentity}): what a call that meets it looks it up by. */
export function identityKey(
  kind: ConditionKind,
  where: string,
  parameterCase: 'sent' | 'omitted' | undefined,
  direction: ConditionDirection | undefined,
  status: string | null | undefined,
  parameter: ParameterName | undefined,
): string {
  const parts: unknown[] = [kind, where];
  if (parameterCase !== undefined) parts.push(parameterCase);
  if (direction !== undefined) parts.push(direction, status ?? null);
  if (parameter !== undefined) parts.push(parameter.in, parameter.name);
  return JSON.stringify(parts);
}

/** The distinct schema pointers of a body's JSON media types, in their order. */
function jsonSchemaPointers(media: readonly MediaTypeSchema[]): string[] {
  const pointers: string[] = [];
  for (const { mediaType, schemaPointer } of media)
    if (schemaPointer !== undefined && isJsonMediaType(mediaEssence(mediaType)) && !pointers.includes(schemaPointer))
      pointers.push(schemaPointer);
  return pointers;
}

/** A parameter an operation declares, as its conditions list it (and as `suggest` builds its requests from). */
export interface DeclaredParameter extends ParameterName {
  readonly where: string;
  readonly required: boolean;
  /** What holds its values' schema: 3.x's `schema` (or its `content`'s), 2.0's parameter itself. */
  readonly schema: unknown;
  readonly schemaPointer: string | undefined;
}

/** Where a parameter may go in each version: a parameter anywhere else (2.0's `in: body`, a misspelling) is no parameter condition. */
const LOCATIONS: Readonly<Record<OpenApiVersion, readonly string[]>> = {
  '2.0': ['path', 'query', 'header', 'formData'],
  '3.0': ['path', 'query', 'header', 'cookie'],
  '3.1': ['path', 'query', 'header', 'cookie'],
};

/** OpenAPI 3 ignores header parameters of these names: the media types and security schemes say them. */
const IGNORED_HEADERS: readonly string[] = ['accept', 'content-type', 'authorization'];

/**
 * An operation's parameters, as OpenAPI applies them: the path item's,
 * less those the operation declares again by name and place (a header's
 * name in any case), then the operation's. A second declaration of one
 * parameter in one list is not listed again.
 */
export function parametersOf(
  document: unknown,
  version: OpenApiVersion,
  pathItem: unknown,
  itemPointer: string,
  operation: unknown,
  operationPointer: string,
): DeclaredParameter[] {
  const declared = (owner: unknown, ownerPointer: string): DeclaredParameter[] => {
    const list = isObject(owner) ? owner['parameters'] : undefined;
    if (!Array.isArray(list)) return [];
    const parameters: DeclaredParameter[] = [];
    const keys = new Set<string>();
    list.forEach((raw: unknown, index) => {
      const where = pointerBelow(ownerPointer, 'parameters', index);
      const { value, pointer } = followLocalRef(document, raw, where);
      if (!isObject(value)) return;
      const { name, in: place } = value;
      if (typeof name !== 'string' || typeof place !== 'string' || !LOCATIONS[version].includes(place)) return;
      if (place === 'header' && version !== '2.0' && IGNORED_HEADERS.includes(name.toLowerCase())) return;
      const key = parameterKey(name, place);
      if (keys.has(key)) return;
      keys.add(key);
      const schema = parameterSchemaOf(value, pointer, version);
      parameters.push({
        name,
        in: place as ParameterLocation,
        where,
        required: place === 'path' || value['required'] === true,
        schema: schema?.value,
        schemaPointer: schema?.pointer,
      });
    });
    return parameters;
  };
  const own = declared(operation, operationPointer);
  const overridden = new Set(own.map((parameter) => parameterKey(parameter.name, parameter.in)));
  return [...declared(pathItem, itemPointer).filter((parameter) => !overridden.has(parameterKey(parameter.name, parameter.in))), ...own];
}

function parameterKey(name: string, place: string): string {
  return `${place}\u0000${place === 'header' ? name.toLowerCase() : name}`;
}

/**
 * A parameter's schema: 3.x's `schema`, or that of the one media type of
 * its `content`; in 2.0 the parameter itself, which holds `type`, `enum`,
 * bounds and `items`.
 */
function parameterSchemaOf(
  parameter: Json,
  pointer: string,
  version: OpenApiVersion,
): { readonly value: unknown; readonly pointer: string } | undefined {
  if (version === '2.0') return { value: parameter, pointer };
  if (parameter['schema'] !== undefined) return { value: parameter['schema'], pointer: pointerBelow(pointer, 'schema') };
  const { content } = parameter;
  if (!isObject(content)) return undefined;
  const [mediaType] = Object.keys(content);
  const media = mediaType === undefined ? undefined : content[mediaType];
  if (mediaType === undefined || !isObject(media) || media['schema'] === undefined) return undefined;
  return { value: media['schema'], pointer: pointerBelow(pointer, 'content', mediaType, 'schema') };
}

interface SchemaWalkOptions {
  readonly direction: ConditionDirection;
  readonly status?: string;
  readonly parameter?: ParameterName;
  /** Whether bounds are conditions here (the request side). */
  readonly bounds: boolean;
  /** Whether branches and optional properties are (bodies, not parameters). */
  readonly shape: boolean;
}

interface SchemaWalk extends SchemaWalkOptions {
  readonly document: unknown;
  readonly version: OpenApiVersion;
  readonly emit: (condition: Condition) => void;
  /** Each place walked, with the required names it was walked with, and the shallowest depth it was walked at. */
  readonly walked: Map<string, number>;
}

function schemaWalk(
  document: unknown,
  version: OpenApiVersion,
  emit: (condition: Condition) => void,
  options: SchemaWalkOptions,
): SchemaWalk {
  return { ...options, document, version, emit, walked: new Map() };
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Walks one schema at its place, listing its conditions. `inherited` holds
 * the names required by the schemas it is applied with in place; `inResource`
 * says a schema above it has a `$id`, under which a `#/` reference means a
 * place in that resource, not in the document: such a `$ref` is not followed.
 */
function walkSchema(
  walk: SchemaWalk,
  value: unknown,
  pointer: string,
  depth: number,
  inherited: ReadonlySet<string>,
  inResource: boolean,
): void {
  if (!isObject(value) || depth > CONDITION_SCHEMA_DEPTH_LIMIT) return;
  const within = inResource || typeof value['$id'] === 'string';
  const required = requiredNames(walk.document, value, inherited, within);
  // One place walked with one set of required names lists the same conditions again: walked once, unless now from nearer the top.
  const visit = `${pointer}\u0000${String(within)}\u0000${[...required].sort().join('\u0000')}`;
  const earlier = walk.walked.get(visit);
  if (earlier !== undefined && earlier <= depth) return;
  walk.walked.set(visit, depth);
  const deeper = depth + 1;
  const { direction, status, parameter } = walk;
  const side = { direction, ...(status === undefined ? {} : { status }) };
  const owner = parameter === undefined ? {} : { parameter };

  const target = within ? undefined : refTarget(walk.document, value);
  if (target !== undefined) walkSchema(walk, target.value, target.pointer, deeper, required, within);

  const values = value['enum'];
  if (Array.isArray(values)) {
    values.forEach((item: unknown, index) => {
      if (item === null && walk.version !== '3.1') return;
      walk.emit({ kind: 'enumValue', where: pointerBelow(pointer, 'enum', index), value: item, ...side, ...owner });
    });
  }
  if (Object.hasOwn(value, 'const'))
    walk.emit({ kind: 'enumValue', where: pointerBelow(pointer, 'const'), value: value['const'], ...side, ...owner });
  if (walk.bounds) {
    for (const keyword of BOUND_KEYWORDS) {
      const bound = value[keyword];
      if (typeof bound === 'number') walk.emit({ kind: 'bound', where: pointerBelow(pointer, keyword), keyword, value: bound, ...owner });
    }
  }

  const { properties } = value;
  if (isObject(properties)) {
    for (const [name, property] of Object.entries(properties)) {
      // A property whose schema is `false` may never be present.
      if (property === false || isHiddenFrom(walk, property, within)) continue;
      const where = pointerBelow(pointer, 'properties', name);
      if (walk.shape && !required.has(name)) walk.emit({ kind: 'optionalProperty', where, name, ...side });
      walkSchema(walk, property, where, deeper, NONE, within);
    }
  }
  if (isObject(value['additionalProperties']))
    walkSchema(walk, value['additionalProperties'], pointerBelow(pointer, 'additionalProperties'), deeper, NONE, within);
  const { items } = value;
  if (isObject(items)) walkSchema(walk, items, pointerBelow(pointer, 'items'), deeper, NONE, within);
  for (const keyword of ['items', 'prefixItems'] as const) {
    const list = value[keyword];
    if (!Array.isArray(list)) continue;
    for (let index = 0; index < list.length; index++)
      walkSchema(walk, list[index], pointerBelow(pointer, keyword, index), deeper, NONE, within);
  }

  const { allOf } = value;
  if (Array.isArray(allOf))
    for (let index = 0; index < allOf.length; index++)
      walkSchema(walk, allOf[index], pointerBelow(pointer, 'allOf', index), deeper, required, within);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = value[keyword];
    if (!Array.isArray(branches)) continue;
    const nullable = keyword === 'anyOf' && isNullableWrapper(walk.version, value);
    branches.forEach((branch: unknown, index) => {
      const where = pointerBelow(pointer, keyword, index);
      if (walk.shape && !nullable) walk.emit({ kind: 'branch', where, keyword, ...side });
      walkSchema(walk, branch, where, deeper, required, within);
    });
  }
}

/**
 * Whether a schema is the `anyOf` the loader made of a 3.0 or 2.0 schema
 * marked nullable that had no `type` to add `null` to (a `$ref`, a
 * composition): `{ anyOf: [schema, { type: 'null' }] }`, alone. Its two
 * branches are the document's `nullable`, not branches it declares.
 */
export function isNullableWrapper(version: OpenApiVersion, schema: Json): boolean {
  if (version === '3.1' || Object.keys(schema).length !== 1) return false;
  const branches = schema['anyOf'];
  if (!Array.isArray(branches) || branches.length !== 2) return false;
  const last: unknown = branches[1];
  return isObject(last) && Object.keys(last).length === 1 && last['type'] === 'null';
}

/**
 * The names a schema requires: its own `required`, those it was applied
 * with, and those of what applies with it always (its `$ref`'s target, its
 * `allOf` parts, theirs in turn).
 */
function requiredNames(document: unknown, schema: Json, inherited: ReadonlySet<string>, inResource: boolean): ReadonlySet<string> {
  const names = new Set(inherited);
  const seen = new Set<object>();
  const collect = (value: unknown, depth: number, within: boolean): void => {
    if (!isObject(value) || seen.has(value) || depth > CONDITION_SCHEMA_DEPTH_LIMIT) return;
    seen.add(value);
    const inside = within || typeof value['$id'] === 'string';
    const { required, allOf } = value;
    if (Array.isArray(required)) for (const name of required) if (typeof name === 'string') names.add(name);
    if (!inside) collect(refTarget(document, value)?.value, depth + 1, inside);
    if (Array.isArray(allOf)) for (const part of allOf) collect(part, depth + 1, inside);
  };
  collect(schema, 0, inResource);
  return names;
}

/** Whether a property is not sent this way: `readOnly` in a request, `writeOnly` in a response (on it or on its `$ref`'s target). */
export function isHiddenFrom(
  walk: { readonly document: unknown; readonly direction: ConditionDirection },
  property: unknown,
  inResource: boolean,
): boolean {
  if (!isObject(property)) return false;
  const flag = walk.direction === 'request' ? 'readOnly' : 'writeOnly';
  if (property[flag] === true) return true;
  const target = inResource ? undefined : refTarget(walk.document, property)?.value;
  return isObject(target) && target[flag] === true;
}

/** The schema a schema's local `$ref` names (`#/components/schemas/User`), with its pointer spelled as the contract spells pointers. */
export function refTarget(document: unknown, schema: Json): { readonly value: unknown; readonly pointer: string } | undefined {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return undefined;
  const tokens = pointerTokens(ref);
  if (tokens === undefined || tokens.length === 0) return undefined;
  const pointer = pointerOf(...tokens);
  const value = valueAtPointer(document, pointer);
  return value === undefined ? undefined : { value, pointer };
}

/** A value, or what its local `$ref`s lead to (a few hops at most), with the pointer of what was reached. */
function followLocalRef(document: unknown, value: unknown, pointer: string): { readonly value: unknown; readonly pointer: string } {
  let current = value;
  let at = pointer;
  for (let hops = 0; hops < 32 && isObject(current); hops++) {
    const target = refTarget(document, current);
    if (target === undefined) break;
    current = target.value;
    at = target.pointer;
  }
  return { value: current, pointer: at };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
