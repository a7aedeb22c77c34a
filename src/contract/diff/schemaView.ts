import { followRef, pointerBelow } from '../documentPointers.js';

type Json = Record<string, unknown>;

/** A schema of a document where it is: the value as written (maybe a `$ref`) and its pointer. */
export interface SchemaAt {
  readonly schema: unknown;
  readonly pointer: string;
}

/**
 * What a comparison reads of a schema: its `$ref`s followed, its `allOf`
 * merged (so that a property reached only through `allOf` is one of its
 * properties), and `null` taken apart from its types. Descriptions,
 * examples and titles are never read: changing them is no change.
 */
export interface SchemaView {
  /** Where the schema is, its `$ref`s followed. */
  readonly pointer: string;
  /** Its types but `null` (`number` covers `integer`); undefined when it allows any. */
  readonly types: ReadonlySet<string> | undefined;
  readonly nullable: boolean;
  /** Its `enum` (or `const`) values but `null`, by their JSON text; undefined when it has none. */
  readonly values: ReadonlyMap<string, unknown> | undefined;
  readonly format: string | undefined;
  /** The bounds it sets (`minimum`, `maxLength`, `pattern`, ...), by keyword. */
  readonly bounds: ReadonlyMap<string, unknown>;
  readonly properties: ReadonlyMap<string, SchemaAt>;
  readonly required: ReadonlySet<string>;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly items: SchemaAt | undefined;
  /** Its `oneOf` or `anyOf` branches (a nullable wrapper's aside). */
  readonly branches: readonly SchemaAt[] | undefined;
}

/** Keywords that narrow what a schema accepts, compared as bounds. */
export const BOUND_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'pattern',
  'multipleOf',
  'uniqueItems',
] as const;

const SCALARS = ['format', 'readOnly', 'writeOnly', 'enum', 'const', 'type', 'items', ...BOUND_KEYWORDS] as const;

/** How many `allOf` levels are merged: far past real documents, short of an endless one. */
const ALLOF_DEPTH_LIMIT = 32;

/** The view of a schema, its `$ref`s followed and its `allOf` merged. */
export function viewOf(document: unknown, at: SchemaAt): SchemaView {
  const resolved = followRef(document, at.schema, at.pointer);
  const merged = mergeAllOf(document, resolved.value, resolved.pointer, 0, new Set());
  const unwrapped = nullableBranch(document, merged.branches);
  if (unwrapped !== undefined && merged.types === undefined && Object.keys(merged.scalars).length === 0 && merged.properties.size === 0) {
    const inner = viewOf(document, unwrapped);
    return { ...inner, nullable: true };
  }
  const { scalars } = merged;
  const rawTypes = typeof scalars['type'] === 'string' ? [scalars['type']] : Array.isArray(scalars['type']) ? scalars['type'] : undefined;
  const types = rawTypes === undefined ? undefined : new Set(rawTypes.filter((type): type is string => typeof type === 'string'));
  const rawValues = Array.isArray(scalars['enum']) ? (scalars['enum'] as unknown[]) : 'const' in scalars ? [scalars['const']] : undefined;
  const values =
    rawValues === undefined ? undefined : new Map(rawValues.filter((value) => value !== null).map((value) => [canonical(value), value]));
  const nullable = types?.has('null') === true || rawValues?.includes(null) === true || unwrapped !== undefined;
  types?.delete('null');
  const bounds = new Map<string, unknown>();
  for (const keyword of BOUND_KEYWORDS) if (scalars[keyword] !== undefined) bounds.set(keyword, scalars[keyword]);
  const items = scalars['items'] as SchemaAt | undefined;
  return {
    pointer: resolved.pointer,
    types,
    nullable,
    values,
    format: typeof scalars['format'] === 'string' ? scalars['format'] : undefined,
    bounds,
    properties: merged.properties,
    required: merged.required,
    readOnly: scalars['readOnly'] === true,
    writeOnly: scalars['writeOnly'] === true,
    items,
    branches: unwrapped === undefined ? merged.branches : undefined,
  };
}

interface Merged {
  readonly scalars: Record<string, unknown>;
  readonly types: unknown;
  readonly properties: Map<string, SchemaAt>;
  readonly required: Set<string>;
  branches: SchemaAt[] | undefined;
}

/**
 * A schema with the schemas of its `allOf` merged in: properties and
 * required names together, each keyword the first the schema or a branch
 * sets. A branch met again on the way (a cycle through `allOf`) is skipped.
 */
function mergeAllOf(document: unknown, value: unknown, pointer: string, depth: number, within: Set<string>): Merged {
  const merged: Merged = { scalars: {}, types: undefined, properties: new Map(), required: new Set(), branches: undefined };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return merged;
  const schema = value as Json;
  for (const keyword of SCALARS) {
    if (schema[keyword] === undefined) continue;
    merged.scalars[keyword] = keyword === 'items' ? { schema: schema['items'], pointer: `${pointer}/items` } : schema[keyword];
  }
  const properties = schema['properties'];
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, property] of Object.entries(properties as Json))
      merged.properties.set(name, { schema: property, pointer: pointerBelow(pointer, 'properties', name) });
  }
  if (Array.isArray(schema['required'])) for (const name of schema['required']) if (typeof name === 'string') merged.required.add(name);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list) && merged.branches === undefined)
      merged.branches = (list as unknown[]).map((branch, index) => ({ schema: branch, pointer: `${pointer}/${keyword}/${index}` }));
  }
  const allOf = schema['allOf'];
  if (!Array.isArray(allOf) || depth >= ALLOF_DEPTH_LIMIT) return { ...merged, types: merged.scalars['type'] };
  allOf.forEach((branch, index) => {
    const resolved = followRef(document, branch, `${pointer}/allOf/${index}`);
    if (within.has(resolved.pointer)) return;
    within.add(resolved.pointer);
    const inner = mergeAllOf(document, resolved.value, resolved.pointer, depth + 1, within);
    for (const [keyword, item] of Object.entries(inner.scalars)) if (merged.scalars[keyword] === undefined) merged.scalars[keyword] = item;
    for (const [name, property] of inner.properties) if (!merged.properties.has(name)) merged.properties.set(name, property);
    for (const name of inner.required) merged.required.add(name);
    merged.branches ??= inner.branches;
  });
  return { ...merged, types: merged.scalars['type'] };
}

/** The other branch of an `anyOf`/`oneOf` of a schema and `{ type: 'null' }` (3.0's `nullable` on a `$ref`, converted). */
function nullableBranch(document: unknown, branches: readonly SchemaAt[] | undefined): SchemaAt | undefined {
  if (branches?.length !== 2) return undefined;
  const isNull = (at: SchemaAt): boolean => {
    const value = followRef(document, at.schema, at.pointer).value;
    if (typeof value !== 'object' || value === null) return false;
    const type = (value as Json)['type'];
    return type === 'null' || (Array.isArray(type) && type.length === 1 && type[0] === 'null');
  };
  const [first, second] = branches as [SchemaAt, SchemaAt];
  if (isNull(second) && !isNull(first)) return first;
  if (isNull(first) && !isNull(second)) return second;
  return undefined;
}

/** A value's JSON text with object keys sorted, so that two equal values compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Json)[key])}`)
      .join(',')}}`;
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
