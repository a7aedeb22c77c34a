import type { OpenApiVersion } from './contract.js';

/**
 * Rewrites a document's schemas, in place, into JSON Schema 2020-12, the
 * dialect one validator reads for every version. OpenAPI 3.1 schemas are
 * 2020-12 already. OpenAPI 3.0 and Swagger 2.0 schemas differ where their
 * older drafts do: `nullable: true` (2.0: `x-nullable: true`) lets null in
 * (a `type` gains `"null"`, an `enum` gains `null`, a schema with neither
 * becomes `anyOf` it or null), and a boolean `exclusiveMinimum` or
 * `exclusiveMaximum` makes `minimum` or `maximum` exclusive (2020-12 writes
 * the bound itself there). Every object of the document is visited, so
 * schemas under `components`, `definitions`, parameters and responses alike
 * are rewritten; only these keywords with boolean values are touched, so a
 * property named `nullable` (an object) stays as it is.
 */
export function toJsonSchema2020(document: unknown, version: OpenApiVersion): void {
  if (version === '3.1') return;
  const nullableKey = version === '2.0' ? 'x-nullable' : 'nullable';
  const seen = new Set<object>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    // Pushed one by one: a spread passes every item as an argument, and an enum of 130,000 values is more than a call takes.
    if (Array.isArray(value)) {
      for (const item of value as unknown[]) stack.push(item);
      continue;
    }
    const schema = value as Record<string, unknown>;
    rewriteBound(schema, 'exclusiveMinimum', 'minimum');
    rewriteBound(schema, 'exclusiveMaximum', 'maximum');
    const nullable = schema[nullableKey];
    if (typeof nullable === 'boolean') {
      Reflect.deleteProperty(schema, nullableKey);
      if (nullable) letNullIn(schema);
    }
    for (const item of Object.values(schema)) stack.push(item);
  }
}

function rewriteBound(
  schema: Record<string, unknown>,
  exclusive: 'exclusiveMinimum' | 'exclusiveMaximum',
  bound: 'minimum' | 'maximum',
): void {
  const isExclusive = schema[exclusive];
  if (typeof isExclusive !== 'boolean') return;
  if (isExclusive && typeof schema[bound] === 'number') {
    schema[exclusive] = schema[bound];
    Reflect.deleteProperty(schema, bound);
  } else Reflect.deleteProperty(schema, exclusive);
}

function letNullIn(schema: Record<string, unknown>): void {
  const { type } = schema;
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) schema['enum'] = [...(schema['enum'] as unknown[]), null];
  if (typeof type === 'string') schema['type'] = [type, 'null'];
  else if (Array.isArray(type)) {
    if (!type.includes('null')) schema['type'] = [...(type as unknown[]), 'null'];
  } else if (schema['enum'] === undefined) {
    // A $ref or a composition: null, or whatever the schema allows.
    const rest = { ...schema };
    for (const key of Object.keys(schema)) Reflect.deleteProperty(schema, key);
    schema['anyOf'] = [rest, { type: 'null' }];
  }
}
