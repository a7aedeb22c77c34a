/**
 * A type whose arrays and objects are read-only all the way down: what a
 * caller may pass where the package only reads (options written `as const`,
 * records built from frozen data). Types only; it imports nothing.
 */
export type DeepReadonly<Value> = Value extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : Value extends object
    ? { readonly [Key in keyof Value]: DeepReadonly<Value[Key]> }
    : Value;

/** A type's own keys writable: an object being made key by key (so that objects given the same keys share a hidden class). */
export type Mutable<Value> = { -readonly [Key in keyof Value]: Value[Key] };
