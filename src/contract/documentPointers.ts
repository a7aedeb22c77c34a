/**
 * JSON pointers into an OpenAPI document, in the URI-fragment form every
 * pointer of the contract takes (`#/paths/~1users~1{id}/get`): how one is
 * written, read and followed through the document's local `$ref`s. The
 * loader and the conditions a document declares both go through here, so
 * a place is spelled one way.
 */

type Json = Record<string, unknown>;

/** A JSON pointer, as a URI fragment: `#/paths/~1users~1{id}/get`. */
export function pointerOf(...parts: readonly string[]): string {
  return `#/${parts.map(encodePointerToken).join('/')}`;
}

/** A pointer with more keys after it: `#/components/schemas/User` and `properties`, `a/b` give `#/components/schemas/User/properties/a~1b`. */
export function pointerBelow(pointer: string, ...parts: readonly (string | number)[]): string {
  return `${pointer}/${parts.map((part) => encodePointerToken(String(part))).join('/')}`;
}

function encodePointerToken(part: string): string {
  return encodeURI(part.replaceAll('~', '~0').replaceAll('/', '~1')).replaceAll('#', '%23');
}

/**
 * The keys of a local pointer (`#/components/schemas/User` gives
 * `components`, `schemas`, `User`; `#` none), or undefined for what is no
 * local pointer: another file, an anchor (`#node`), malformed
 * percent-encoding.
 */
export function pointerTokens(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    return undefined;
  }
}

/** The value a local pointer names in a document; undefined when it names none. */
export function valueAtPointer(document: unknown, ref: string): unknown {
  const tokens = pointerTokens(ref);
  if (tokens === undefined) return undefined;
  let current: unknown = document;
  for (const token of tokens) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, token)) return undefined;
    current = (current as Json)[token];
  }
  return current;
}

/** The object at a local `$ref` (`#/components/responses/NotFound`), with its pointer; the value itself when it is no `$ref`. */
export function followRef(document: unknown, value: unknown, pointer: string): { readonly value: unknown; readonly pointer: string } {
  let current = value;
  let at = pointer;
  for (
    let hops = 0;
    hops < 32 && typeof current === 'object' && current !== null && typeof (current as Json)['$ref'] === 'string';
    hops++
  ) {
    const ref = (current as Json)['$ref'] as string;
    if (!ref.startsWith('#')) break;
    at = ref;
    current = valueAtPointer(document, ref);
  }
  return { value: current, pointer: at };
}
