/**
 * Whether a place in an OpenAPI document holds a literal value, not a part
 * of the description: an example (`example`, an Example object's `value`, a
 * schema's `examples`), a `default`, `enum` or `const`. A `$ref`, a `$id` or
 * an `allOf` there is data (GitHub's description has three `$ref`s in an
 * example), never followed nor counted. `parent` and `grandparent` are the
 * keys of the object holding `key` and of the one holding that.
 */
export function isLiteral(parent: PropertyKey | undefined, key: PropertyKey, grandparent: PropertyKey | undefined): boolean {
  // A schema's property, or a response for any status (`responses.default`), is named, not a literal.
  if (parent === 'properties' || parent === 'patternProperties' || parent === 'responses') return false;
  if (key === 'example' || key === 'default' || key === 'enum' || key === 'const') return true;
  // An Example object's value, under a map of examples (`examples.<name>.value`), or a schema's array of examples.
  if (key === 'value' || key === 'externalValue') return grandparent === 'examples' || parent === 'examples';
  return false;
}
