import { ConfigurationError, type ConfigurationIssue } from '../errors.js';
import { formatIssuePath } from '../issues/issuePath.js';
import { quotePath, quoteText } from '../renderValue.js';
import { isLiteral } from './documentLiterals.js';

type Json = Record<string, unknown>;

/**
 * Refuses, when a document is loaded, the schemas that the body validator
 * could not use for any operation, or could not finish with, so that no
 * body check ever meets them:
 *
 * - an identifier (`$id`, `$anchor` or `$dynamicAnchor`, resolved against
 *   the `$id`s above it) that two schemas claim: JSON Schema 2020-12 asks a
 *   validator to raise an error then, and ajv refuses the whole document, so
 *   every operation's bodies would go unvalidated;
 * - an `$anchor` or `$dynamicAnchor` that is not a plain name;
 * - a `$dynamicRef` that names no `$dynamicAnchor` of the document: ajv
 *   resolves one to nothing else, and otherwise to the schema it stands in,
 *   validating the same value again without end;
 * - a schema that comes back to itself through `allOf`, `anyOf`, `oneOf`,
 *   `not`, `if`, `then`, `else`, `dependentSchemas`, `$ref` or `$dynamicRef`
 *   without a property or an item between: it applies to the same value
 *   again and again, so validating anything against it never ends (JSON
 *   Schema leaves such a schema undefined).
 *
 * Literals (examples, defaults, enums, consts) are data, not schemas, and
 * are skipped. A ConfigurationError (78) names each place in the file.
 */
export function refuseUnusableSchemas(document: Json, path: string): void {
  const found = findSchemaReferences(document);
  const issues: ConfigurationIssue[] = [];
  const places = placesOf(document, [
    ...found.duplicates.flatMap(({ first, second }) => [first, second]),
    ...found.badAnchors.map(({ schema }) => schema),
    ...found.dynamicRefs.keys(),
  ]);
  const at = (schema: Json, key: string) => `${formatIssuePath([...(places.get(schema) ?? []), key])} in ${quotePath(path)}`;
  for (const { first, second, key } of found.duplicates) {
    const written = second[key] as string;
    issues.push({
      variable: at(second, key),
      message: `${quoteText(written, 120)} names another schema already, at ${formatIssuePath([...(places.get(first) ?? [])])}: an identifier names one schema`,
    });
  }
  for (const { schema, key } of found.badAnchors) {
    issues.push({ variable: at(schema, key), message: 'must be a plain name: a letter or _, then letters, digits, -, . or _' });
  }
  for (const [schema, ref] of found.dynamicRefs) {
    const name = DYNAMIC_REF.exec(ref)?.[1];
    if (name === undefined || !found.dynamicAnchors.has(name)) {
      issues.push({
        variable: at(schema, '$dynamicRef'),
        message:
          `${quoteText(ref, 120)} names no $dynamicAnchor of this document: the validator resolves a $dynamicRef only to ` +
          'one ("#name" for a $dynamicAnchor "name")',
      });
    }
  }
  if (issues.length === 0) {
    const cycles = inPlaceCycles(found);
    const cyclePlaces = placesOf(document, cycles.flat());
    for (const cycle of cycles) {
      const names = [...cycle, cycle[0]!].map((schema) => formatIssuePath([...(cyclePlaces.get(schema) ?? [])]));
      issues.push({
        variable: `${names[0]!} in ${quotePath(path)}`,
        message: `comes back to itself with no property or item between (${names.join(' → ')}), so validating any value against it would never end`,
      });
    }
  }
  if (issues.length > 0) throw new ConfigurationError(issues, 'OpenAPI document');
}

/** What ajv accepts as an anchor's name. */
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;
const DYNAMIC_REF = /^#([A-Za-z_][-A-Za-z0-9._]*)$/;

/** The base URI of a document that gives itself none: only ever compared, never fetched. */
const DOCUMENT_BASE = 'https://document.invalid/openapi';

/** The keywords that apply a schema to the value in hand (not to a property or an item of it). */
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE_ONES = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_KEYS = new Set<string>([...IN_PLACE_LISTS, ...IN_PLACE_ONES, 'dependentSchemas']);

/** The keys whose object maps names to schemas: its keys are names, not keywords. */
const NAME_MAPS = new Set<PropertyKey>(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

interface SchemaNode {
  readonly schema: Json;
  /** The base URI `$ref`s in it resolve against: its own `$id`, or the nearest one above it. */
  readonly base: string;
}

interface FoundReferences {
  readonly document: Json;
  /** Each schema that claims an identifier already claimed, with the first claimant and the key. */
  readonly duplicates: readonly { readonly first: Json; readonly second: Json; readonly key: string }[];
  readonly badAnchors: readonly { readonly schema: Json; readonly key: string }[];
  /** Resolved `$id`s (no fragment) and anchors (`uri#name`) to the schema they name. */
  readonly identifiers: ReadonlyMap<string, Json>;
  /** Each `$dynamicAnchor` name to the schemas that carry it. */
  readonly dynamicAnchors: ReadonlyMap<string, readonly Json[]>;
  readonly dynamicRefs: ReadonlyMap<Json, string>;
  /** The schemas with a keyword that applies a schema in place, with their base URIs. */
  readonly inPlace: readonly SchemaNode[];
}

/**
 * One walk of the document, literals skipped. It recurses as deep as the
 * document nests, which the loader has bounded (documentShape.ts) before
 * it comes here; a node shared by two places (a YAML alias) is walked at
 * each, and counts once.
 */
function findSchemaReferences(document: Json): FoundReferences {
  const identifiers = new Map<string, Json>();
  const duplicates: { first: Json; second: Json; key: string }[] = [];
  const badAnchors: { schema: Json; key: string }[] = [];
  const dynamicAnchors = new Map<string, Json[]>();
  const dynamicRefs = new Map<Json, string>();
  const inPlace: SchemaNode[] = [];
  const claim = (identifier: string, schema: Json, key: string) => {
    const first = identifiers.get(identifier);
    if (first === undefined) identifiers.set(identifier, schema);
    else if (first !== schema) duplicates.push({ first, second: schema, key });
  };
  /** `named`: the value is held by a map of names, so it is a schema even where its key is `properties`. */
  const visit = (
    value: unknown,
    parent: PropertyKey | undefined,
    grandparent: PropertyKey | undefined,
    base: string,
    named: boolean,
  ): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      if (parent === 'examples') return;
      for (let index = 0; index < value.length; index++) visit(value[index], index, parent, base, false);
      return;
    }
    const schema = value as Json;
    let own = base;
    const isNameMap = !named && parent !== undefined && NAME_MAPS.has(parent);
    const keys = Object.keys(schema);
    // Most objects hold none of the keys looked for: their keys are read once, not each key looked up in them.
    let dollar = false;
    let inPlaceKey = false;
    for (const key of keys) {
      if (key.charCodeAt(0) === 36) dollar = true;
      else if (IN_PLACE_KEYS.has(key)) inPlaceKey = true;
    }
    if (!isNameMap && (dollar || inPlaceKey)) {
      const id = schema['$id'];
      if (typeof id === 'string') {
        const resolved = resolveUri(id, base);
        if (resolved !== undefined) {
          own = withoutFragment(resolved);
          claim(own, schema, '$id');
        }
      }
      for (const key of ['$anchor', '$dynamicAnchor'] as const) {
        const name = schema[key];
        if (typeof name !== 'string') continue;
        if (!ANCHOR.test(name)) badAnchors.push({ schema, key });
        else claim(`${own}#${name}`, schema, key);
        if (key === '$dynamicAnchor') {
          const carriers = dynamicAnchors.get(name);
          if (carriers === undefined) dynamicAnchors.set(name, [schema]);
          else if (!carriers.includes(schema)) carriers.push(schema);
        }
      }
      if (typeof schema['$dynamicRef'] === 'string') dynamicRefs.set(schema, schema['$dynamicRef']);
      if (appliesInPlace(schema)) inPlace.push({ schema, base: own });
    }
    for (const key of keys) if (!isLiteral(parent, key, grandparent)) visit(schema[key], key, parent, own, isNameMap);
  };
  visit(document, undefined, undefined, DOCUMENT_BASE, false);
  return { document, duplicates, badAnchors, identifiers, dynamicAnchors, dynamicRefs, inPlace };
}

function appliesInPlace(schema: Json): boolean {
  return (
    typeof schema['$ref'] === 'string' ||
    typeof schema['$dynamicRef'] === 'string' ||
    IN_PLACE_LISTS.some((key) => Array.isArray(schema[key])) ||
    IN_PLACE_ONES.some((key) => isObject(schema[key])) ||
    isObject(schema['dependentSchemas'])
  );
}

/**
 * The schemas that come back to themselves through keywords applied in
 * place, each cycle once, as the schemas on it in order (a depth-first walk
 * with its own stack).
 */
function inPlaceCycles(found: FoundReferences): Json[][] {
  const bases = new Map(found.inPlace.map(({ schema, base }) => [schema, base]));
  // A description names a few schemas thousands of times: each reference is resolved once.
  const resolved = new Map<string, unknown>();
  const resolvedRef = (ref: string, base: string): unknown => {
    const key = `${base}\u0000${ref}`;
    if (!resolved.has(key)) resolved.set(key, resolveRef(found, ref, base));
    return resolved.get(key);
  };
  const targetsOf = (schema: Json): Json[] => {
    const base = bases.get(schema);
    if (base === undefined) return [];
    const targets: unknown[] = [];
    // One by one, never spread: a list may hold more items than a call takes arguments.
    for (const key of IN_PLACE_LISTS) if (Array.isArray(schema[key])) for (const item of schema[key] as unknown[]) targets.push(item);
    for (const key of IN_PLACE_ONES) targets.push(schema[key]);
    if (isObject(schema['dependentSchemas'])) for (const item of Object.values(schema['dependentSchemas'])) targets.push(item);
    if (typeof schema['$ref'] === 'string') targets.push(resolvedRef(schema['$ref'], base));
    const dynamic = typeof schema['$dynamicRef'] === 'string' ? DYNAMIC_REF.exec(schema['$dynamicRef'])?.[1] : undefined;
    if (dynamic !== undefined) for (const item of found.dynamicAnchors.get(dynamic) ?? []) targets.push(item);
    return targets.filter(isObject);
  };
  const cycles: Json[][] = [];
  const state = new Map<Json, 'open' | 'done'>();
  for (const { schema: start } of found.inPlace) {
    if (state.has(start)) continue;
    const path: { schema: Json; targets: Json[]; next: number }[] = [{ schema: start, targets: targetsOf(start), next: 0 }];
    state.set(start, 'open');
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      if (top.next === top.targets.length) {
        state.set(top.schema, 'done');
        path.pop();
        continue;
      }
      const target = top.targets[top.next++]!;
      const seen = state.get(target);
      if (seen === 'open') cycles.push(path.slice(path.findIndex((step) => step.schema === target)).map((step) => step.schema));
      else if (seen === undefined) {
        state.set(target, 'open');
        path.push({ schema: target, targets: targetsOf(target), next: 0 });
      }
    }
  }
  return cycles;
}

/** The schema a `$ref` names, by JSON pointer or anchor, within the document or a resource of it with that `$id`; undefined when none. */
function resolveRef(found: FoundReferences, ref: string, base: string): unknown {
  // A fragment alone names a place in the base's own resource, as URI resolution would say.
  const resolved = ref.startsWith('#') ? `${base}${ref}` : resolveUri(ref, base);
  if (resolved === undefined) return undefined;
  const hash = resolved.indexOf('#');
  const uri = hash < 0 ? resolved : resolved.slice(0, hash);
  const fragment = hash < 0 ? '' : resolved.slice(hash + 1);
  const root = uri === DOCUMENT_BASE ? found.document : found.identifiers.get(uri);
  if (fragment === '' || root === undefined) return root;
  if (!fragment.startsWith('/')) return found.identifiers.get(`${uri}#${fragment}`);
  let current: unknown = root;
  for (const token of fragment.slice(1).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) return undefined;
    current = (current as Json)[part];
  }
  return current;
}

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : uri.slice(0, hash);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The place of each of some objects in the document (its first, walking in document order), found by one walk with its own stack. */
function placesOf(document: Json, wanted: readonly object[]): Map<object, PropertyKey[]> {
  const places = new Map<object, PropertyKey[]>();
  const remaining = new Set(wanted);
  if (remaining.size === 0) return places;
  interface Step {
    readonly value: unknown;
    readonly key: PropertyKey | undefined;
    readonly up: Step | undefined;
  }
  const seen = new Set<object>();
  const stack: Step[] = [{ value: document, key: undefined, up: undefined }];
  while (stack.length > 0 && remaining.size > 0) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (remaining.delete(value)) {
      const place: PropertyKey[] = [];
      for (let at = step; at.up !== undefined; at = at.up) place.unshift(at.key!);
      places.set(value, place);
    }
    const keys: PropertyKey[] = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
    for (let index = keys.length - 1; index >= 0; index--)
      stack.push({ value: (value as Record<PropertyKey, unknown>)[keys[index]!], key: keys[index], up: step });
  }
  return places;
}
