import { BOUND_KEYWORDS, isHiddenFrom, isNullableWrapper, refTarget, type BoundKeyword } from '../contract/conditions.js';
import type { OpenApiVersion } from '../contract/contract.js';
import { codePointLength, oversteps, reaches } from '../contract/conditionsMet.js';
import { pointerBelow } from '../contract/documentPointers.js';
import { formattedString, seededRandom, seededWord, stringOfPattern, wholeNumber } from './seededValues.js';

/**
 * A value of a request's schema, built from the document: its `const`, an
 * `enum` value, an `example`, `examples` or `default`, and where it gives
 * none, one made up from the schema (type, format, bounds, a simple
 * pattern), seeded. Steered towards conditions to meet: the enum value, the
 * optional property, the branch, a value at a bound or just outside it.
 * It says which places of the document the value meets (as the conditions
 * spell them, `src/contract/conditions.ts`), so that a draft knows what
 * each test covers. Nothing here reads traffic: a report holds no value.
 */

type Json = Record<string, unknown>;

/** A string of one character many times over (a value at a length bound): written as `'a'.repeat(n)`, not spelt out. */
export class RepeatedText {
  constructor(
    readonly text: string,
    readonly count: number,
  ) {}
}

/** A bound to place a value at (`edge`: at it, or the nearest inside for an exclusive one) or just outside it. */
export interface BoundPlacement {
  /** The bound's place: `.../schema/maximum`. */
  readonly where: string;
  readonly keyword: BoundKeyword;
  readonly value: number;
  readonly half: 'edge' | 'outside';
}

/** What a value should meet. */
export interface ValueSteering {
  /** Places of conditions to meet: enum and const values (`.../enum/2`), optional properties, branches. */
  readonly targets?: ReadonlySet<string>;
  readonly bound?: BoundPlacement | undefined;
  /** Leave out the root object's first required property (a request the server should refuse). */
  readonly leaveOutRequired?: boolean;
  /** A value the document gives beside the schema (a parameter's `example`), taken before the schema's own. */
  readonly preferred?: { readonly value: unknown } | undefined;
}

/**
 * A value made, and the places it meets: each enum or const value, property
 * present and branch taken (`where`), and bounds (`reached:where`,
 * `outside:where`), each with the first place in the value that meets it
 * (a JSON pointer into the value: `/tags/0`, `''` for the value itself).
 */
export interface MadeValue {
  readonly value: unknown;
  readonly meets: ReadonlyMap<string, string>;
  /** The required property left out, when one was. */
  readonly leftOut?: string | undefined;
}

/** How deep a value is built: as deep as conditions are listed (CONDITION_SCHEMA_DEPTH_LIMIT). */
const DEPTH_LIMIT = 64;
/**
 * The most values (each object, array, property and item one) one request's
 * value is built of: a schema that requires itself twice over (a tree whose
 * two branches are required) would otherwise double at each level.
 */
const VALUE_PART_LIMIT = 10_000;
/** How many times a schema is built inside itself (a tree's node in a node): once more than the value itself. */
const SELF_NESTING_LIMIT = 2;
/** The most items a value at an items bound may have: more is not drafted. */
export const ITEMS_BOUND_LIMIT = 1000;
/** The most characters a value at a length bound may have: more is not drafted. */
export const LENGTH_BOUND_LIMIT = 1_000_000;

interface Place {
  readonly schema: Json;
  readonly pointer: string;
}

const NONE: ReadonlySet<string> = new Set();

/** Makes values of one document's schemas; it remembers which places lie under which, so make one per document. */
export class SchemaValues {
  private readonly below = new Map<string, ReadonlySet<string>>();

  constructor(
    private readonly document: unknown,
    private readonly version: OpenApiVersion,
    private readonly seed: number,
  ) {}

  /** A value of the schema at `pointer`; `salt` tells apart two values of one schema (a parameter's name, a body). */
  make(schema: unknown, pointer: string, salt: string, steering: ValueSteering = {}): MadeValue {
    const run = new ValueRun(this, steering, salt);
    const value = run.value(schema, pointer, '', 0, NONE, steering.preferred);
    return { value, meets: run.meets, leftOut: run.leftOut };
  }

  /** A document value the schema at a place holds for a parameter's value: its const, enum, example, examples or default; undefined if none. */
  documentValue(schema: unknown, pointer: string): { readonly value: unknown } | undefined {
    for (const { schema: part } of this.inPlace(schema, pointer)) {
      if (Object.hasOwn(part, 'const')) return { value: part['const'] };
      const values = part['enum'];
      if (Array.isArray(values) && values.length > 0) return { value: values.find((value) => value !== null) ?? values[0] };
      const example = exampleOf(part);
      if (example !== undefined) return example;
    }
    return undefined;
  }

  /** The schema and what applies with it in place (its `$ref`'s target, its `allOf` parts, theirs), each once. */
  inPlace(schema: unknown, pointer: string): Place[] {
    const places: Place[] = [];
    const seen = new Set<string>();
    const visit = (value: unknown, at: string, depth: number): void => {
      if (!isObject(value) || seen.has(at) || depth > DEPTH_LIMIT) return;
      seen.add(at);
      places.push({ schema: value, pointer: at });
      const target = refTarget(this.document, value);
      if (target !== undefined) visit(target.value, target.pointer, depth + 1);
      const { allOf } = value;
      if (Array.isArray(allOf))
        allOf.forEach((part: unknown, index) => {
          visit(part, pointerBelow(at, 'allOf', index), depth + 1);
        });
    };
    visit(schema, pointer, 0);
    return places;
  }

  /** Every condition's place under the schema at `pointer` (enum and const values, bounds, properties, branches), itself included. */
  placesBelow(schema: unknown, pointer: string, depth = 0): ReadonlySet<string> {
    const known = this.below.get(pointer);
    if (known !== undefined) return known;
    const places = new Set<string>();
    // A schema reached again on the way to itself adds nothing new: it is already being listed.
    this.below.set(pointer, places);
    if (depth > DEPTH_LIMIT) return places;
    for (const part of this.inPlace(schema, pointer)) {
      places.add(part.pointer);
      const { schema: value, pointer: at } = part;
      if (Array.isArray(value['enum']))
        value['enum'].forEach((_value: unknown, index) => {
          places.add(pointerBelow(at, 'enum', index));
        });
      if (Object.hasOwn(value, 'const')) places.add(pointerBelow(at, 'const'));
      for (const keyword of BOUND_KEYWORDS) if (typeof value[keyword] === 'number') places.add(pointerBelow(at, keyword));
      const add = (child: unknown, childPointer: string) => {
        places.add(childPointer);
        for (const place of this.placesBelow(child, childPointer, depth + 1)) places.add(place);
      };
      const { properties, items, prefixItems, additionalProperties } = value;
      if (isObject(properties))
        for (const [name, property] of Object.entries(properties)) add(property, pointerBelow(at, 'properties', name));
      if (isObject(additionalProperties)) add(additionalProperties, pointerBelow(at, 'additionalProperties'));
      if (isObject(items)) add(items, pointerBelow(at, 'items'));
      for (const keyword of ['items', 'prefixItems'] as const) {
        const list = keyword === 'items' ? items : prefixItems;
        if (Array.isArray(list))
          list.forEach((item: unknown, index) => {
            add(item, pointerBelow(at, keyword, index));
          });
      }
      for (const keyword of ['oneOf', 'anyOf'] as const) {
        const branches = value[keyword];
        if (Array.isArray(branches))
          branches.forEach((branch: unknown, index) => {
            add(branch, pointerBelow(at, keyword, index));
          });
      }
    }
    return places;
  }

  /** The seed, for the runs. */
  get seedValue(): number {
    return this.seed;
  }

  get documentValueOf(): unknown {
    return this.document;
  }

  get documentVersion(): OpenApiVersion {
    return this.version;
  }
}

/** One value being made: its steering, and what it met so far. */
class ValueRun {
  readonly meets = new Map<string, string>();
  leftOut: string | undefined;
  /**
   * The places of the schemas the value being built is inside, each with the
   * places in the value it applies at: a schema met again deeper in the value
   * contains itself (a tree's nodes), and is built {@link SELF_NESTING_LIMIT}
   * times deep at most; met again at the same place, it is already applied.
   */
  private readonly within = new Map<string, string[]>();
  private parts = 0;
  private readonly targets: ReadonlySet<string>;
  private readonly boundSchema: string | undefined;

  constructor(
    private readonly values: SchemaValues,
    private readonly steering: ValueSteering,
    private readonly salt: string,
  ) {
    const bound = steering.bound;
    this.boundSchema = bound === undefined ? undefined : bound.where.slice(0, bound.where.lastIndexOf('/'));
    this.targets = new Set([...(steering.targets ?? []), ...(bound === undefined ? [] : [bound.where])]);
  }

  private random(pointer: string, at: string): () => number {
    return seededRandom(this.values.seedValue, this.salt, pointer, at);
  }

  /** Whether the schema at a place, or something under it, is one of the targets. */
  private leadsToTarget(schema: unknown, pointer: string): boolean {
    if (this.targets.size === 0) return false;
    if (this.targets.has(pointer)) return true;
    for (const place of this.values.placesBelow(schema, pointer)) if (this.targets.has(place)) return true;
    return false;
  }

  value(
    schema: unknown,
    pointer: string,
    at: string,
    depth: number,
    inherited: ReadonlySet<string>,
    preferred?: { value: unknown },
  ): unknown {
    if (schema === false) return null;
    if (!isObject(schema) || depth > DEPTH_LIMIT) return seededWord(this.random(pointer, at), 8);
    const all = this.values.inPlace(schema, pointer);
    // A schema nested in itself too deep (a required property of its own type), or a value grown too large, ends with null.
    if (++this.parts > VALUE_PART_LIMIT || this.nestedTooDeep(all, at)) return null;
    const parts = all.filter((part) => this.within.get(part.pointer)?.includes(at) !== true);
    if (parts.length === 0) return undefined;
    for (const part of parts) this.within.set(part.pointer, [...(this.within.get(part.pointer) ?? []), at]);
    const bound = this.steering.bound;
    const value =
      bound !== undefined && parts.some((part) => part.pointer === this.boundSchema)
        ? this.valueAtBound(parts, bound, pointer, at, depth)
        : this.chosen(parts, pointer, at, depth, inherited, preferred);
    for (const part of parts) this.within.get(part.pointer)?.pop();
    this.recordMatches(parts, value, at);
    return value;
  }

  /** Whether building a schema at a place in the value would nest it in itself more than {@link SELF_NESTING_LIMIT} times. */
  private nestedTooDeep(parts: readonly Place[], at: string): boolean {
    return parts.some((part) => (this.within.get(part.pointer) ?? []).filter((applied) => applied !== at).length >= SELF_NESTING_LIMIT);
  }

  private meet(place: string, at: string): void {
    if (!this.meets.has(place)) this.meets.set(place, at);
  }

  private chosen(
    parts: readonly Place[],
    pointer: string,
    at: string,
    depth: number,
    inherited: ReadonlySet<string>,
    preferred: { value: unknown } | undefined,
  ): unknown {
    const constant = parts.find((part) => Object.hasOwn(part.schema, 'const'));
    if (constant !== undefined) return copy(constant.schema['const']);
    const enumerated = parts.filter((part) => Array.isArray(part.schema['enum']) && (part.schema['enum'] as unknown[]).length > 0);
    if (enumerated.length > 0) return this.enumValue(enumerated, parts, preferred);
    // Built from its parts, so that the draft knows what it meets: a value with parts, or one under which something is sought.
    const structured =
      parts.some(({ schema }) =>
        ['properties', 'items', 'prefixItems', 'oneOf', 'anyOf'].some((keyword) => schema[keyword] !== undefined),
      ) || parts.some(({ schema, pointer }) => this.leadsToTarget(schema, pointer));
    if (!structured) {
      const example = preferred ?? firstOf(parts, exampleOf);
      if (example !== undefined) return copy(example.value);
    }
    const type = typeOf(parts);
    let value: unknown;
    switch (type) {
      case 'object':
        value = this.objectValue(parts, at, depth, inherited);
        break;
      case 'array':
        value = this.arrayValue(parts, at, depth, undefined);
        break;
      case 'integer':
      case 'number':
        value = numberValue(this.random(pointer, at), parts, type);
        break;
      case 'boolean':
        value = this.random(pointer, at)() < 0.5;
        break;
      case 'null':
        value = null;
        break;
      case 'string':
        value = stringValue(this.random(pointer, at), parts);
        break;
      default:
        value = undefined;
    }
    const branched = this.branchValue(parts, at, depth, inherited, value);
    if (branched !== undefined) value = branched;
    return value === undefined ? stringValue(this.random(pointer, at), parts) : value;
  }

  private enumValue(enumerated: readonly Place[], parts: readonly Place[], preferred: { value: unknown } | undefined): unknown {
    for (const { schema, pointer } of enumerated) {
      const values = schema['enum'] as unknown[];
      const index = values.findIndex((_value, at) => this.targets.has(pointerBelow(pointer, 'enum', at)));
      if (index >= 0) return copy(values[index]);
    }
    const values = enumerated[0]!.schema['enum'] as unknown[];
    const given = preferred ?? firstOf(parts, exampleOf);
    if (given !== undefined && values.some((value) => sameJson(value, given.value))) return copy(given.value);
    // A null the loader added for 3.0's nullable is not the document's value: another is a better first choice.
    const first = values.find((value) => value !== null) ?? values[0];
    return copy(first);
  }

  private objectValue(parts: readonly Place[], at: string, depth: number, inherited: ReadonlySet<string>): Record<string, unknown> {
    const required = new Set(inherited);
    for (const { schema } of parts) {
      const names = schema['required'];
      if (Array.isArray(names)) for (const name of names) if (typeof name === 'string') required.add(name);
    }
    const properties = new Map<string, Place[]>();
    for (const { schema, pointer } of parts) {
      const declared = schema['properties'];
      if (!isObject(declared)) continue;
      for (const [name, property] of Object.entries(declared)) {
        if (property === false || isHiddenFrom({ document: this.values.documentValueOf, direction: 'request' }, property, false)) continue;
        const place = { schema: isObject(property) ? property : {}, pointer: pointerBelow(pointer, 'properties', name) };
        properties.set(name, [...(properties.get(name) ?? []), place]);
      }
    }
    const leaveOut =
      this.steering.leaveOutRequired === true && at === '' && this.leftOut === undefined
        ? ([...required].find((name) => properties.has(name)) ?? [...required][0])
        : undefined;
    if (leaveOut !== undefined) this.leftOut = leaveOut;
    const entries: [string, unknown][] = [];
    for (const [name, places] of properties) {
      const inside = `${at}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      // An optional property nesting a schema in itself deeper than the limit would only repeat it: it is left out.
      const wanted = places.find(
        (place) =>
          this.leadsToTarget(place.schema, place.pointer) && !this.nestedTooDeep(this.values.inPlace(place.schema, place.pointer), inside),
      );
      if (name === leaveOut || (!required.has(name) && wanted === undefined)) continue;
      const place = wanted ?? places[0]!;
      entries.push([name, this.value(place.schema, place.pointer, inside, depth + 1, NONE)]);
      for (const { pointer } of places) this.meet(pointer, inside);
    }
    // A required property no schema describes still has to be there.
    for (const name of required) {
      if (name === leaveOut || properties.has(name)) continue;
      entries.push([name, seededWord(this.random(`${parts[0]?.pointer ?? ''}/required`, `${at}/${name}`), 8)]);
    }
    // What a target lies under in `additionalProperties` needs one such property, named by the seed.
    for (const { schema, pointer } of parts) {
      const additional = schema['additionalProperties'];
      const additionalPointer = pointerBelow(pointer, 'additionalProperties');
      if (!isObject(additional) || !this.leadsToTarget(additional, additionalPointer)) continue;
      const name = seededWord(this.random(additionalPointer, at), 8);
      const inside = `${at}/${name}`;
      if (!this.nestedTooDeep(this.values.inPlace(additional, additionalPointer), inside))
        entries.push([name, this.value(additional, additionalPointer, inside, depth + 1, NONE)]);
      break;
    }
    return Object.fromEntries(entries);
  }

  private arrayValue(parts: readonly Place[], at: string, depth: number, count: number | undefined): unknown[] {
    const itemsPart = parts.find((part) => isObject(part.schema['items']) || part.schema['items'] === true);
    const prefixPart = parts.find((part) => Array.isArray(part.schema['prefixItems']) || Array.isArray(part.schema['items']));
    const prefix = prefixPart === undefined ? [] : ((prefixPart.schema['prefixItems'] ?? prefixPart.schema['items']) as unknown[]);
    const prefixKeyword = prefixPart !== undefined && Array.isArray(prefixPart.schema['prefixItems']) ? 'prefixItems' : 'items';
    const least = Math.max(0, ...parts.map((part) => numeric(part.schema['minItems']) ?? 0));
    const most = Math.min(Infinity, ...parts.map((part) => numeric(part.schema['maxItems']) ?? Infinity));
    const length = count ?? Math.min(Math.max(least, 1, prefix.length), most);
    const items: unknown[] = [];
    for (let index = 0; index < length; index++) {
      if (index < prefix.length)
        items.push(this.value(prefix[index], pointerBelow(prefixPart!.pointer, prefixKeyword, index), `${at}/${index}`, depth + 1, NONE));
      else if (itemsPart !== undefined)
        items.push(this.value(itemsPart.schema['items'], pointerBelow(itemsPart.pointer, 'items'), `${at}/${index}`, depth + 1, NONE));
      else items.push(seededWord(this.random(parts[0]?.pointer ?? '', `${at}/${index}`), 8));
    }
    return items;
  }

  /**
   * The value of a `oneOf` or `anyOf` branch chosen (the one leading to a
   * target, else the first that is not only null), merged with the object made so far.
   */
  private branchValue(parts: readonly Place[], at: string, depth: number, inherited: ReadonlySet<string>, made: unknown): unknown {
    let value = made;
    const required = new Set(inherited);
    for (const { schema } of parts) {
      const names = schema['required'];
      if (Array.isArray(names)) for (const name of names) if (typeof name === 'string') required.add(name);
    }
    for (const { schema, pointer } of parts) {
      for (const keyword of ['oneOf', 'anyOf'] as const) {
        const branches = schema[keyword];
        if (!Array.isArray(branches) || branches.length === 0) continue;
        const wrapper = keyword === 'anyOf' && isNullableWrapper(this.values.documentVersion, schema);
        let index = wrapper
          ? -1
          : branches.findIndex((branch: unknown, at) => this.leadsToTarget(branch, pointerBelow(pointer, keyword, at)));
        if (index < 0) index = branches.findIndex((branch: unknown) => !isOnlyNull(branch));
        if (index < 0) index = 0;
        const branchPointer = pointerBelow(pointer, keyword, index);
        const branchValue = this.value(branches[index], branchPointer, at, depth + 1, required);
        this.meet(branchPointer, at);
        value = mergeValues(value, branchValue);
        value = withDiscriminator(schema, branches[index], value);
      }
    }
    return value;
  }

  private valueAtBound(parts: readonly Place[], bound: BoundPlacement, pointer: string, at: string, depth: number): unknown {
    const { keyword, value, half } = bound;
    const edge = half === 'edge';
    switch (keyword) {
      case 'minimum':
        return edge ? value : value - 1;
      case 'maximum':
        return edge ? value : value + 1;
      case 'exclusiveMinimum':
        return edge ? value + 1 : value;
      case 'exclusiveMaximum':
        return edge ? value - 1 : value;
      case 'minLength':
      case 'maxLength': {
        const count = edge ? value : keyword === 'minLength' ? value - 1 : value + 1;
        const text = seededWord(this.random(pointer, at), 1);
        return count > 32 ? new RepeatedText(text, count) : text.repeat(count);
      }
      default: {
        const count = edge ? value : keyword === 'minItems' ? value - 1 : value + 1;
        return this.arrayValue(parts, at, depth, count);
      }
    }
  }

  /** Records the enum and const values a value equals and the bounds it reaches or oversteps, at each place of its schema. */
  private recordMatches(parts: readonly Place[], value: unknown, at: string): void {
    for (const { schema, pointer } of parts) {
      const values = schema['enum'];
      if (Array.isArray(values))
        values.forEach((candidate: unknown, index) => {
          if (sameJson(candidate, value)) this.meet(pointerBelow(pointer, 'enum', index), at);
        });
      if (Object.hasOwn(schema, 'const') && sameJson(schema['const'], value)) this.meet(pointerBelow(pointer, 'const'), at);
      for (const keyword of BOUND_KEYWORDS) {
        const bound = schema[keyword];
        if (typeof bound !== 'number') continue;
        const measure = measureOf(keyword, value);
        if (measure === undefined) continue;
        const where = pointerBelow(pointer, keyword);
        if (reaches(keyword, measure, bound)) this.meet(`reached:${where}`, at);
        if (oversteps(keyword, measure, bound)) this.meet(`outside:${where}`, at);
      }
    }
  }
}

/** What a value measures for a bound, as conditions met measure it (characters as code points). */
export function measureOf(keyword: BoundKeyword, value: unknown): number | undefined {
  if (keyword === 'minLength' || keyword === 'maxLength') {
    if (value instanceof RepeatedText) return codePointLength(value.text) * value.count;
    return typeof value === 'string' ? codePointLength(value) : undefined;
  }
  if (keyword === 'minItems' || keyword === 'maxItems') return Array.isArray(value) ? value.length : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The example a schema gives: `example`, the first of `examples`, or `default`. */
function exampleOf(schema: Json): { readonly value: unknown } | undefined {
  if (Object.hasOwn(schema, 'example') && schema['example'] !== undefined) return { value: schema['example'] };
  const examples = schema['examples'];
  if (Array.isArray(examples) && examples.length > 0) return { value: examples[0] };
  if (Object.hasOwn(schema, 'default')) return { value: schema['default'] };
  return undefined;
}

function firstOf<T>(parts: readonly Place[], pick: (schema: Json) => T | undefined): T | undefined {
  for (const { schema } of parts) {
    const found = pick(schema);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The type a schema's value takes: its `type` (the first that is not null), or what its keywords imply. */
function typeOf(parts: readonly Place[]): string | undefined {
  for (const { schema } of parts) {
    const { type } = schema;
    if (typeof type === 'string') return type;
    if (Array.isArray(type)) return (type.find((item) => item !== 'null') ?? type[0]) as string | undefined;
  }
  const has = (...keywords: string[]) => parts.some(({ schema }) => keywords.some((keyword) => schema[keyword] !== undefined));
  if (has('properties', 'required', 'additionalProperties')) return 'object';
  if (has('items', 'prefixItems', 'minItems', 'maxItems')) return 'array';
  if (has('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf')) return 'number';
  if (has('oneOf', 'anyOf')) return undefined;
  return 'string';
}

function numberValue(random: () => number, parts: readonly Place[], type: 'integer' | 'number'): number {
  let low = -Infinity;
  let high = Infinity;
  let step: number | undefined;
  for (const { schema } of parts) {
    const minimum = numeric(schema['minimum']);
    const maximum = numeric(schema['maximum']);
    const above = numeric(schema['exclusiveMinimum']);
    const below = numeric(schema['exclusiveMaximum']);
    if (minimum !== undefined) low = Math.max(low, Math.ceil(minimum));
    if (above !== undefined) low = Math.max(low, Math.floor(above) + 1);
    if (maximum !== undefined) high = Math.min(high, Math.floor(maximum));
    if (below !== undefined) high = Math.min(high, Math.ceil(below) - 1);
    step ??= numeric(schema['multipleOf']);
  }
  if (low === -Infinity) low = high === Infinity ? 1 : Math.min(1, high);
  if (high === Infinity) high = low + 99;
  if (high < low) return low;
  let value = wholeNumber(random, low, Math.min(high, low + 999));
  if (step !== undefined && step > 0) {
    const multiple = Math.ceil(value / step) * step;
    value = multiple <= high ? multiple : Math.floor(high / step) * step;
    if (type === 'integer' && !Number.isInteger(value)) value = Math.round(value);
  }
  return value;
}

function stringValue(random: () => number, parts: readonly Place[]): string {
  const format = firstOf(parts, (schema) => (typeof schema['format'] === 'string' ? schema['format'] : undefined));
  const formatted = format === undefined ? undefined : formattedString(random, format);
  if (formatted !== undefined) return formatted;
  const pattern = firstOf(parts, (schema) => (typeof schema['pattern'] === 'string' ? schema['pattern'] : undefined));
  const patterned = pattern === undefined ? undefined : stringOfPattern(random, pattern);
  if (patterned !== undefined) return patterned;
  const least = Math.max(0, ...parts.map((part) => numeric(part.schema['minLength']) ?? 0));
  const most = Math.min(Infinity, ...parts.map((part) => numeric(part.schema['maxLength']) ?? Infinity));
  return seededWord(random, Math.max(Math.min(8, most), Math.min(least, 256)));
}

function numeric(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A branch's value merged into the object made so far: objects' properties joined, otherwise the branch's value. */
function mergeValues(made: unknown, branch: unknown): unknown {
  if (isObject(made) && isObject(branch)) return Object.fromEntries([...Object.entries(made), ...Object.entries(branch)]);
  return made === undefined || branch !== undefined ? branch : made;
}

/** An object of a branch named in a discriminator's mapping carries the name that maps to it. */
function withDiscriminator(schema: Json, branch: unknown, value: unknown): unknown {
  const discriminator = schema['discriminator'];
  if (!isObject(discriminator) || typeof discriminator['propertyName'] !== 'string' || !isObject(value) || !isObject(branch)) return value;
  const ref = branch['$ref'];
  if (typeof ref !== 'string') return value;
  const mapping = isObject(discriminator['mapping']) ? discriminator['mapping'] : {};
  const name = Object.keys(mapping).find((key) => mapping[key] === ref);
  if (name === undefined) return value;
  return Object.fromEntries([...Object.entries(value), [discriminator['propertyName'], name]]);
}

function isOnlyNull(schema: unknown): boolean {
  return isObject(schema) && schema['type'] === 'null' && Object.keys(schema).length === 1;
}

/** A copy of a document value, so that a draft never shares objects with the document. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
  return value;
}

/** Whether two JSON values are equal (objects whatever their keys' order). */
export function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) && Array.isArray(right))
    return left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  if (isObject(left) && isObject(right)) {
    const keys = Object.keys(left);
    return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
  }
  return false;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RepeatedText);
}
