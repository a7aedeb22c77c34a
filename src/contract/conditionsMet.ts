import {
  BOUND_KEYWORDS,
  CONDITION_SCHEMA_DEPTH_LIMIT,
  conditionsOfOperation,
  isHiddenFrom,
  isNullableWrapper,
  refTarget as targetOf,
  type BoundKeyword,
  type Condition,
  type ConditionDirection,
  type ConditionKind,
  type ParameterLocation,
  type ParameterName,
} from './conditions.js';
import type { Contract, ContractOperation, OpenApiVersion } from './contract.js';
import { pointerBelow } from './documentPointers.js';
import type { ConditionsRecord } from '../records/conditionsRecord.js';

/**
 * Which of an operation's declared conditions (see conditions.ts) one call
 * met, as positions in the operation's list: its parameters sent or left
 * out, the declared enum values its parameters and bodies held, the body
 * branches that matched, the optional properties present, its status, and
 * the request's bounds reached exactly or (answered 4xx) overstepped. The
 * recording fixture and the HAR reader ask, with what the call sent and
 * got; the positions are all the record keeps, never a value.
 */

/** What a call met of its operation's conditions: positions in the list the fingerprint names. */
export interface MetConditions {
  /** The list's fingerprint (see {@link conditionsOfOperation}). */
  readonly fingerprint: string;
  /** Positions of the conditions met; for a bound, reached exactly. Ascending. */
  readonly met: readonly number[];
  /** Positions of the bounds a value outside of was sent, the call answered 4xx. Ascending. */
  readonly outside: readonly number[];
}

/** What a record keeps of the conditions a call met: `outside` only when some bound was overstepped. */
export function conditionsRecordOf({ fingerprint, met, outside }: MetConditions): ConditionsRecord {
  return { fingerprint, met: [...met], ...(outside.length === 0 ? {} : { outside: [...outside] }) };
}

/** A body the call sent or got, parsed, and the schema it was validated against (its place in the operation's document). */
export interface ExaminedBody {
  readonly value: unknown;
  readonly schemaPointer: string;
}

/** What a call sent and got, as far as its conditions go: names and values read here, never kept. */
export interface ObservedCall {
  /** The path that answered, as it travelled (percent-encoded), without the query. */
  readonly path: string;
  /** The query's parameters, decoded, in order; a name repeated for each value. */
  readonly query: readonly (readonly [string, string])[];
  /** The request's headers as far as they are known, each name in any case. */
  readonly headers: readonly (readonly [string, string])[];
  /** The fields of a form body (`application/x-www-form-urlencoded`, `multipart/form-data`): 2.0's `formData` parameters. */
  readonly formFields?: readonly (readonly [string, string])[] | undefined;
  readonly statusCode: number;
  /** The request body, parsed, when it was JSON and examined. */
  readonly requestBody?: ExaminedBody | undefined;
  /** The response body, parsed, when it was JSON and examined, with the status key of the response that declared its schema. */
  readonly responseBody?: (ExaminedBody & { readonly statusKey: string }) | undefined;
}

/** Whether a value matches the schema at a place in a document; undefined when the schema cannot be used. */
export type SchemaTest = (documentIndex: number, pointer: string, value: unknown) => boolean | undefined;

/** An operation's conditions made ready to be looked up by what a call shows. */
interface PreparedOperation {
  readonly operation: ContractOperation;
  readonly fingerprint: string;
  readonly conditions: readonly Condition[];
  /** Positions of the body conditions by place, then by {@link sideKey}. */
  readonly byPlace: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Places below places, worked out once: pointers are spelled (escaped, encoded) once per operation, not once per value. */
  readonly places: Map<string, Map<string | number, string>>;
  readonly parameters: readonly PreparedParameter[];
  readonly statuses: readonly (readonly [number, string])[];
}

interface PreparedParameter extends ParameterName {
  readonly sent: number;
  readonly omitted: number | undefined;
  /** Its enum values: position, value, and whether the value is an item's (under `items`). */
  readonly values: readonly (readonly [number, unknown])[];
  readonly bounds: readonly (readonly [number, BoundKeyword, number])[];
}

const prepared = new WeakMap<Contract, Map<ContractOperation, PreparedOperation | undefined>>();

/** What one call met of its operation's conditions (perhaps none); undefined when the operation declares none. */
export function conditionsMetBy(
  contract: Contract,
  operation: ContractOperation,
  call: ObservedCall,
  validates: SchemaTest,
): MetConditions | undefined {
  const ready = preparedOperation(contract, operation);
  if (ready === undefined) return undefined;
  const met = new Set<number>();
  const outside = new Set<number>();
  const answeredClientError = call.statusCode >= 400 && call.statusCode < 500;

  const values = parameterValues(ready.operation, call);
  for (const parameter of ready.parameters) {
    const sent = values.get(parameterKey(parameter.name, parameter.in));
    if (sent === undefined) {
      if (parameter.omitted !== undefined) met.add(parameter.omitted);
      continue;
    }
    met.add(parameter.sent);
    for (const [position, value] of parameter.values) if (sent.some((raw) => parameterValueIs(raw, value))) met.add(position);
    for (const [position, keyword, bound] of parameter.bounds) {
      const measures =
        keyword === 'minItems' || keyword === 'maxItems' ? [sent.length] : sent.flatMap((raw) => measureOfText(keyword, raw));
      for (const measure of measures) {
        if (reaches(keyword, measure, bound)) met.add(position);
        if (answeredClientError && oversteps(keyword, measure, bound)) outside.add(position);
      }
    }
  }

  const code = String(call.statusCode);
  for (const [position, status] of ready.statuses) if (statusCovers(status, code)) met.add(position);

  const document = contract.documents[operation.documentIndex]?.bundled;
  const version = contract.documents[operation.documentIndex]?.version ?? '3.1';
  const walkOf = (direction: ConditionDirection, status: string | undefined): BodyWalk => ({
    document,
    version,
    documentIndex: operation.documentIndex,
    direction,
    status,
    bounds: direction === 'request',
    byPlace: ready.byPlace,
    places: ready.places,
    validates,
    met,
    outside: answeredClientError ? outside : undefined,
  });
  if (call.requestBody !== undefined) {
    const { value, schemaPointer } = call.requestBody;
    walkBody(walkOf('request', undefined), valueAt(document, schemaPointer), schemaPointer, value, 0, false);
  }
  if (call.responseBody !== undefined) {
    const { value, schemaPointer, statusKey } = call.responseBody;
    walkBody(walkOf('response', statusKey), valueAt(document, schemaPointer), schemaPointer, value, 0, false);
  }
  return { fingerprint: ready.fingerprint, met: [...met].sort(ascending), outside: [...outside].sort(ascending) };
}

function preparedOperation(contract: Contract, operation: ContractOperation): PreparedOperation | undefined {
  let byOperation = prepared.get(contract);
  if (byOperation === undefined) prepared.set(contract, (byOperation = new Map<ContractOperation, PreparedOperation | undefined>()));
  if (byOperation.has(operation)) return byOperation.get(operation);
  const index = contract.operations.indexOf(operation);
  const listed = index < 0 ? undefined : conditionsOfOperation(contract, index);
  const ready = listed === undefined || listed.conditionCount === 0 ? undefined : prepare(operation, listed.conditions, listed.fingerprint);
  byOperation.set(operation, ready);
  return ready;
}

interface ParameterEntry {
  sent?: number;
  omitted?: number;
  readonly parameter: ParameterName;
  readonly values: [number, unknown][];
  readonly bounds: [number, BoundKeyword, number][];
}

function prepare(operation: ContractOperation, conditions: readonly Condition[], fingerprint: string): PreparedOperation {
  const byPlace = new Map<string, Map<string, number>>();
  const place = (where: string, side: string, position: number): void => {
    let sides = byPlace.get(where);
    if (sides === undefined) byPlace.set(where, (sides = new Map<string, number>()));
    sides.set(side, position);
  };
  const parameters = new Map<string, ParameterEntry>();
  const parameterOf = (parameter: ParameterName) => {
    const key = parameterKey(parameter.name, parameter.in);
    let entry = parameters.get(key);
    if (entry === undefined) parameters.set(key, (entry = { parameter, values: [], bounds: [] }));
    return entry;
  };
  const statuses: [number, string][] = [];
  conditions.forEach((condition, position) => {
    switch (condition.kind) {
      case 'parameter':
        parameterOf(condition)[condition.case] = position;
        return;
      case 'status':
        statuses.push([position, condition.status]);
        return;
      case 'enumValue':
        if (condition.parameter !== undefined) parameterOf(condition.parameter).values.push([position, condition.value]);
        else place(condition.where, sideKey('enumValue', condition.direction, condition.status), position);
        return;
      case 'bound':
        if (condition.parameter !== undefined) parameterOf(condition.parameter).bounds.push([position, condition.keyword, condition.value]);
        else place(condition.where, 'bound', position);
        return;
      default:
        place(condition.where, sideKey(condition.kind, condition.direction, condition.status), position);
    }
  });
  const prepared: PreparedParameter[] = [];
  for (const { sent, omitted, parameter, values, bounds } of parameters.values())
    if (sent !== undefined) prepared.push({ ...parameter, sent, omitted, values, bounds });
  return { operation, fingerprint, conditions, byPlace, places: new Map(), parameters: prepared, statuses };
}

/** What tells apart conditions at one place: their kind, and the way and status of the body (a bound has neither). */
function sideKey(kind: ConditionKind, direction: ConditionDirection | undefined, status: string | undefined): string {
  return kind === 'bound' ? 'bound' : `${kind}\u0000${direction ?? ''}\u0000${status ?? ''}`;
}

/** The place below a place, spelled once (see {@link PreparedOperation.places}). */
function below(walk: BodyWalk, pointer: string, ...keys: readonly (string | number)[]): string {
  let at = pointer;
  for (const key of keys) {
    let children = walk.places.get(at);
    if (children === undefined) walk.places.set(at, (children = new Map<string | number, string>()));
    let child = children.get(key);
    if (child === undefined) children.set(key, (child = pointerBelow(at, key)));
    at = child;
  }
  return at;
}

function parameterKey(name: string, place: string): string {
  return `${place}\u0000${place === 'header' || place === 'cookie' ? name.toLowerCase() : name}`;
}

/** The values of each parameter the call sent, by place and name: path, query, header, cookie and form fields. */
function parameterValues(operation: ContractOperation, call: ObservedCall): Map<string, string[]> {
  const values = new Map<string, string[]>();
  const add = (place: ParameterLocation, name: string, value: string) => {
    const key = parameterKey(name, place);
    const list = values.get(key);
    if (list === undefined) values.set(key, [value]);
    else list.push(value);
  };
  for (const [name, value] of Object.entries(pathParameters(operation, call.path))) add('path', name, value);
  for (const [name, value] of call.query) add('query', name, value);
  for (const [name, value] of call.headers) {
    add('header', name, value);
    if (name.toLowerCase() === 'cookie') for (const [cookie, text] of cookiesOf(value)) add('cookie', cookie, text);
  }
  for (const [name, value] of call.formFields ?? []) add('formData', name, value);
  return values;
}

/** A `Cookie` header's pairs: `a=1; b=2`. */
function cookiesOf(header: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals <= 0) continue;
    pairs.push([part.slice(0, equals).trim(), part.slice(equals + 1).trim()]);
  }
  return pairs;
}

/**
 * The path parameters of a path the operation's template matched
 * (`/users/7` of `/users/{id}`), decoded, after whichever of its base paths
 * it starts with; none when it matches no way (the call took the
 * operation's label from a route).
 */
export function pathParameters(operation: ContractOperation, path: string): Record<string, string> {
  const templateSegments = operation.path.split('/');
  for (const base of [...operation.basePaths].sort((a, b) => b.length - a.length)) {
    if (base !== '' && path !== base && !path.startsWith(`${base}/`)) continue;
    const segments = path.slice(base.length).split('/');
    if (segments.length !== templateSegments.length) continue;
    const found: Record<string, string> = {};
    let matched = true;
    for (let index = 0; index < segments.length && matched; index++) {
      const template = templateSegments[index]!;
      const segment = segments[index]!;
      if (!template.includes('{')) {
        matched = template === segment;
        continue;
      }
      const names: string[] = [];
      const pattern = template.replace(/\{([^}]*)\}|[^{]+/g, (part, name: string | undefined) => {
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '([^/]+)';
      });
      const match = new RegExp(`^${pattern}$`).exec(segment);
      if (match === null) matched = false;
      else names.forEach((name, position) => (found[name] = decoded(match[position + 1]!)));
    }
    if (matched) return found;
  }
  return {};
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Whether a parameter's text is a declared value: the same text for a
 * string, the number or boolean it spells for one of those, `null` for
 * null; each comma-separated item of a list counts too (`a,b` holds `b`).
 */
function parameterValueIs(raw: string, value: unknown): boolean {
  const texts = raw.includes(',') ? [raw, ...raw.split(',')] : [raw];
  return texts.some((text) => {
    if (typeof value === 'string') return text === value;
    if (typeof value === 'number') return text.trim() !== '' && Number(text) === value;
    if (typeof value === 'boolean' || value === null) return text === String(value);
    return false;
  });
}

/** What a parameter's text measures for a bound: the number it spells, or its length in characters (code points); none when neither. */
function measureOfText(keyword: BoundKeyword, raw: string): number[] {
  if (keyword === 'minLength' || keyword === 'maxLength') return [codePointLength(raw)];
  const number = raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isFinite(number) ? [number] : [];
}

/** What a body's value measures for a bound; undefined when the bound does not apply to it (a length bound on a number). */
function measureOfValue(keyword: BoundKeyword, value: unknown): number | undefined {
  if (keyword === 'minLength' || keyword === 'maxLength') return typeof value === 'string' ? codePointLength(value) : undefined;
  if (keyword === 'minItems' || keyword === 'maxItems') return Array.isArray(value) ? value.length : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Whether a measure reaches a bound exactly: equal to it, or for an
 * exclusive bound the nearest a value can be and stay inside, within one
 * (an integer just inside it).
 */
export function reaches(keyword: BoundKeyword, measure: number, bound: number): boolean {
  if (keyword === 'exclusiveMinimum') return measure > bound && measure <= bound + 1;
  if (keyword === 'exclusiveMaximum') return measure < bound && measure >= bound - 1;
  return measure === bound;
}

/** Whether a measure is outside a bound. */
export function oversteps(keyword: BoundKeyword, measure: number, bound: number): boolean {
  switch (keyword) {
    case 'minimum':
    case 'minLength':
    case 'minItems':
      return measure < bound;
    case 'exclusiveMinimum':
      return measure <= bound;
    case 'exclusiveMaximum':
      return measure >= bound;
    default:
      return measure > bound;
  }
}

/** Whether a declared status (`200`, `2XX`) covers a status code, as response coverage counts it. */
export function statusCovers(declared: string, code: string): boolean {
  if (/^[1-5]xx$/i.test(declared)) return declared[0] === code[0];
  return declared === code;
}

interface BodyWalk {
  readonly document: unknown;
  readonly version: OpenApiVersion;
  readonly documentIndex: number;
  readonly direction: ConditionDirection;
  readonly status: string | undefined;
  readonly bounds: boolean;
  readonly byPlace: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly places: Map<string, Map<string | number, string>>;
  readonly validates: SchemaTest;
  readonly met: Set<number>;
  /** Where bounds overstepped go; undefined when the call was not answered 4xx. */
  readonly outside: Set<number> | undefined;
  /** Inside a branch the value matched no way: only bounds overstepped are marked (a negative case fails its branch). */
  readonly outsideOnly?: boolean;
}

/**
 * Walks a body's value beside its schema, as conditions.ts walks the schema
 * alone, marking what the value meets: each enum value it equals, each
 * optional property it has, each branch it matches (a `oneOf` branch when it
 * matches that one alone, every `anyOf` branch it matches), each request
 * bound it reaches or oversteps. It goes into a property, item or branch
 * only when the value has it or matches it (a value that matches no branch
 * is walked into each for the bounds it oversteps alone, as a negative case
 * fails its branch); `hops` counts the schemas followed at one
 * place in the value (`$ref`, `allOf`, branches), so a `$ref` cycle ends.
 */
function walkBody(walk: BodyWalk, schema: unknown, pointer: string, value: unknown, hops: number, inResource: boolean): void {
  if (!isObject(schema) || hops > CONDITION_SCHEMA_DEPTH_LIMIT) return;
  const within = inResource || typeof schema['$id'] === 'string';
  const mark = (kind: ConditionKind, where: string): void => {
    const position = walk.byPlace.get(where)?.get(sideKey(kind, walk.direction, walk.status));
    if (position !== undefined && walk.outsideOnly !== true) walk.met.add(position);
  };

  const target = within ? undefined : refTarget(walk.document, schema);
  if (target !== undefined) walkBody(walk, target.value, target.pointer, value, hops + 1, within);

  const declared = schema['enum'];
  if (Array.isArray(declared))
    declared.forEach((item: unknown, index) => {
      if (sameJson(item, value)) mark('enumValue', below(walk, pointer, 'enum', index));
    });
  if (Object.hasOwn(schema, 'const') && sameJson(schema['const'], value)) mark('enumValue', below(walk, pointer, 'const'));
  if (walk.bounds) {
    for (const keyword of BOUND_KEYWORDS) {
      const bound = schema[keyword];
      if (typeof bound !== 'number') continue;
      const measure = measureOfValue(keyword, value);
      if (measure === undefined) continue;
      const where = below(walk, pointer, keyword);
      if (reaches(keyword, measure, bound)) mark('bound', where);
      if (walk.outside !== undefined && oversteps(keyword, measure, bound)) {
        const position = walk.byPlace.get(where)?.get('bound');
        if (position !== undefined) walk.outside.add(position);
      }
    }
  }

  if (isObject(value)) {
    const { properties } = schema;
    const declaredNames = isObject(properties) ? properties : {};
    for (const [name, property] of Object.entries(declaredNames)) {
      if (property === false || !Object.hasOwn(value, name) || isHiddenFrom(walk, property, within)) continue;
      const where = below(walk, pointer, 'properties', name);
      mark('optionalProperty', where);
      walkBody(walk, property, where, value[name], 0, within);
    }
    const additional = schema['additionalProperties'];
    if (isObject(additional))
      for (const [name, item] of Object.entries(value))
        if (!Object.hasOwn(declaredNames, name)) walkBody(walk, additional, below(walk, pointer, 'additionalProperties'), item, 0, within);
  }
  if (Array.isArray(value)) {
    const { items } = schema;
    const tuple = Array.isArray(schema['prefixItems']) ? schema['prefixItems'] : Array.isArray(items) ? items : undefined;
    const tupleKeyword = Array.isArray(schema['prefixItems']) ? 'prefixItems' : 'items';
    value.forEach((item: unknown, index) => {
      if (tuple !== undefined && index < tuple.length)
        walkBody(walk, tuple[index], below(walk, pointer, tupleKeyword, index), item, 0, within);
      else if (isObject(items)) walkBody(walk, items, below(walk, pointer, 'items'), item, 0, within);
    });
  }

  const { allOf } = schema;
  if (Array.isArray(allOf))
    allOf.forEach((part: unknown, index) => {
      walkBody(walk, part, below(walk, pointer, 'allOf', index), value, hops + 1, within);
    });
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const matching: number[] = [];
    branches.forEach((_branch: unknown, index) => {
      if (walk.validates(walk.documentIndex, below(walk, pointer, keyword, index), value) === true) matching.push(index);
    });
    if (matching.length === 0 && walk.outside !== undefined) {
      // A value outside a bound inside a branch fails that branch: the negative case is still the branch's bound's.
      const outsideOnly = { ...walk, outsideOnly: true };
      branches.forEach((branch: unknown, index) => {
        walkBody(outsideOnly, branch, below(walk, pointer, keyword, index), value, hops + 1, within);
      });
      continue;
    }
    if (keyword === 'oneOf' && matching.length !== 1) continue;
    const nullable = keyword === 'anyOf' && isNullableWrapper(walk.version, schema);
    for (const index of matching) {
      const where = below(walk, pointer, keyword, index);
      if (!nullable) mark('branch', where);
      walkBody(walk, branches[index], where, value, hops + 1, within);
    }
  }
}

/** Whether two JSON values are the same: equal primitives, arrays item for item, objects key for key in any order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item: unknown, index) => sameJson(item, b[index]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function valueAt(document: unknown, pointer: string): unknown {
  return refTarget(document, { $ref: pointer })?.value;
}

const targets = new WeakMap<object, Map<string, { readonly value: unknown; readonly pointer: string } | null>>();

/** A schema's local `$ref` target (see conditions.ts), looked up once per document and reference. */
function refTarget(document: unknown, schema: Record<string, unknown>): { readonly value: unknown; readonly pointer: string } | undefined {
  const ref = schema['$ref'];
  if (typeof ref !== 'string' || typeof document !== 'object' || document === null) return undefined;
  let known = targets.get(document);
  if (known === undefined) targets.set(document, (known = new Map<string, { readonly value: unknown; readonly pointer: string } | null>()));
  let target = known.get(ref);
  if (target === undefined) known.set(ref, (target = targetOf(document, schema) ?? null));
  return target ?? undefined;
}

/** A string's length as JSON Schema counts it: in code points, a pair of surrogates one. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    length++;
  }
  return length;
}

function ascending(a: number, b: number): number {
  return a - b;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
