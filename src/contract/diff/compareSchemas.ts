import type { ChangeRule } from './changeRules.js';
import { BOUND_KEYWORDS, canonical, viewOf, type SchemaAt, type SchemaView } from './schemaView.js';

/** Which way a schema's values go: sent by the client (`request`) or by the server (`response`). */
export type SchemaSide = 'request' | 'response';

/** A change found inside a schema, before it is given its operation. */
export interface SchemaFinding {
  readonly rule: ChangeRule;
  readonly base?: string | undefined;
  readonly head?: string | undefined;
  /** The names of the properties from the compared schema's root to the one the change is in; array items add none. */
  readonly property: readonly string[];
  /** The change in words, without its place: `property email removed`. */
  readonly detail: string;
}

/**
 * How deep a comparison goes, property in property: past any real body,
 * short of the stack. A schema that refers to itself ends sooner: each pair
 * of places is compared once.
 */
const DEPTH_LIMIT = 64;

const LOWER_BOUNDS: ReadonlySet<string> = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS: ReadonlySet<string> = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

/**
 * The changes between BASE's and HEAD's schema of one body or parameter
 * that matter to a client: on the request side, what HEAD accepts no more
 * (what a client written for BASE sends and HEAD refuses); on the response
 * side, what HEAD may answer that BASE never did. `$ref`s are followed and
 * `allOf` merged on both sides, so a `$ref` moved to another component with
 * the same schema is no change, and a change reached only through `allOf`
 * is found. Each pair of places is compared once, so a schema that refers
 * to itself ends.
 */
export function compareSchemas(
  baseDocument: unknown,
  headDocument: unknown,
  side: SchemaSide,
  base: SchemaAt,
  head: SchemaAt,
): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  const compared = new Set<string>();
  const visit = (baseAt: SchemaAt, headAt: SchemaAt, property: readonly string[], depth: number): void => {
    if (depth > DEPTH_LIMIT) return;
    const was = viewOf(baseDocument, baseAt);
    const is = viewOf(headDocument, headAt);
    const pair = `${was.pointer}\u0000${is.pointer}`;
    if (compared.has(pair)) return;
    compared.add(pair);
    const found: Found = (rule, detail, pointers = { base: was.pointer, head: is.pointer }, at = property) =>
      findings.push({ rule, ...pointers, property: at, detail });

    const typeBreaks = side === 'request' ? !covers(is.types, was.types) : !covers(was.types, is.types);
    if (typeBreaks) {
      // What is under a schema of another type is another schema: its own changes would only repeat this one.
      found('type-changed', `type ${typeText(was.types)} changed to ${typeText(is.types)}`);
      return;
    }
    if (side === 'response' && !was.nullable && is.nullable) found('response-property-made-nullable', 'made nullable');
    if (side === 'request' && was.nullable && !is.nullable) found('type-changed', 'null no longer accepted');
    if (was.format !== is.format && (side === 'request' ? is.format !== undefined : was.format !== undefined))
      found('format-changed', `format ${was.format ?? 'none'} changed to ${is.format ?? 'none'}`);
    compareValues(was, is, side, found);
    if (side === 'request') compareBounds(was, is, found);
    const deeper = (baseAt: SchemaAt, headAt: SchemaAt, inner: readonly string[]) => {
      visit(baseAt, headAt, inner, depth + 1);
    };
    compareProperties({ base: baseDocument, head: headDocument }, was, is, side, property, found, deeper);
    if (was.items !== undefined && is.items !== undefined) visit(was.items, is.items, property, depth + 1);
    if (was.branches !== undefined && is.branches !== undefined) {
      if (side === 'response')
        for (const branch of is.branches.slice(was.branches.length))
          found('response-branch-added', `branch ${branchName(branch)} added`, { base: was.pointer, head: branch.pointer });
      if (side === 'request')
        for (const branch of was.branches.slice(is.branches.length))
          found('request-branch-removed', `branch ${branchName(branch)} removed`, { base: branch.pointer, head: is.pointer });
      const shared = Math.min(was.branches.length, is.branches.length);
      for (let index = 0; index < shared; index++) visit(was.branches[index]!, is.branches[index]!, property, depth + 1);
    }
  };
  visit(base, head, [], 0);
  return findings;
}

type Found = (rule: ChangeRule, detail: string, pointers?: { base?: string; head?: string }, property?: readonly string[]) => void;

/** Enum values: one a request may send no more, one a response may now answer. `null` is nullability's, not a value's. */
function compareValues(was: SchemaView, is: SchemaView, side: SchemaSide, found: Found): void {
  if (side === 'request' && is.values !== undefined) {
    if (was.values === undefined) found('bound-tightened', `values limited to ${valueList(is.values)}`);
    else
      for (const [key, value] of was.values) if (!is.values.has(key)) found('request-enum-value-removed', `value ${show(value)} removed`);
  }
  if (side === 'response' && was.values !== undefined) {
    if (is.values === undefined) found('response-enum-value-added', 'values no longer limited');
    else for (const [key, value] of is.values) if (!was.values.has(key)) found('response-enum-value-added', `value ${show(value)} added`);
  }
}

/** A bound of a request that refuses what BASE accepted: a minimum raised, a maximum lowered, a pattern added or changed. */
function compareBounds(was: SchemaView, is: SchemaView, found: Found): void {
  for (const keyword of BOUND_KEYWORDS) {
    const before = was.bounds.get(keyword);
    const after = is.bounds.get(keyword);
    if (after === undefined || canonical(before) === canonical(after)) continue;
    const tightened =
      before === undefined ||
      (LOWER_BOUNDS.has(keyword) && typeof after === 'number' && typeof before === 'number' && after > before) ||
      (UPPER_BOUNDS.has(keyword) && typeof after === 'number' && typeof before === 'number' && after < before) ||
      keyword === 'pattern' ||
      (keyword === 'multipleOf' && typeof after === 'number' && typeof before === 'number' && after % before !== 0) ||
      (keyword === 'uniqueItems' && after === true);
    if (tightened) found('bound-tightened', `${keyword} ${before === undefined ? 'none' : show(before)} changed to ${show(after)}`);
  }
}

function compareProperties(
  documents: { readonly base: unknown; readonly head: unknown },
  was: SchemaView,
  is: SchemaView,
  side: SchemaSide,
  property: readonly string[],
  found: Found,
  visit: (base: SchemaAt, head: SchemaAt, property: readonly string[]) => void,
): void {
  // A readOnly property is never sent, a writeOnly one never answered: neither is the client's on that side.
  const hidden = (document: unknown, at: SchemaAt): boolean => {
    const view = viewOf(document, at);
    return side === 'request' ? view.readOnly : view.writeOnly;
  };
  for (const [name, before] of was.properties) {
    if (hidden(documents.base, before)) continue;
    const after = is.properties.get(name);
    const inner = [...property, name];
    const what = `property ${inner.join('.')}`;
    if (after === undefined || hidden(documents.head, after)) {
      const rule = side === 'response' ? 'response-property-removed' : 'request-property-removed';
      found(rule, `${what} removed`, { base: before.pointer }, inner);
      continue;
    }
    const pointers = { base: before.pointer, head: after.pointer };
    if (side === 'response' && was.required.has(name) && !is.required.has(name))
      found('response-property-made-optional', `${what} made optional`, pointers, inner);
    if (side === 'request' && !was.required.has(name) && is.required.has(name))
      found('request-property-made-required', `${what} made required`, pointers, inner);
    visit(before, after, inner);
  }
  if (side !== 'request') return;
  for (const [name, after] of is.properties) {
    if (was.properties.has(name) || hidden(documents.head, after)) continue;
    const inner = [...property, name];
    const required = is.required.has(name);
    const rule = required ? 'request-property-added-required' : 'request-property-added-optional';
    found(rule, `property ${inner.join('.')} added as ${required ? 'required' : 'optional'}`, { head: after.pointer }, inner);
  }
}

function covers(wider: ReadonlySet<string> | undefined, narrower: ReadonlySet<string> | undefined): boolean {
  if (wider === undefined) return true;
  if (narrower === undefined) return false;
  return [...narrower].every((type) => wider.has(type) || (type === 'integer' && wider.has('number')));
}

function typeText(types: ReadonlySet<string> | undefined): string {
  return types === undefined ? 'any' : types.size === 0 ? 'null' : [...types].sort().join(' or ');
}

function branchName(branch: SchemaAt): string {
  const ref = typeof branch.schema === 'object' && branch.schema !== null ? (branch.schema as { $ref?: unknown }).$ref : undefined;
  return typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : branch.pointer.slice(branch.pointer.lastIndexOf('/') + 1);
}

function valueList(values: ReadonlyMap<string, unknown>): string {
  const shown = [...values.values()].slice(0, 5).map(show);
  return `${shown.join(', ')}${values.size > 5 ? ', …' : ''}`;
}

/** A value of the document, shortened: an enum value or a bound, never a body's. */
function show(value: unknown): string {
  const text = canonical(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
