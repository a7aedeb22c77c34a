import { ConfigurationError } from '../errors.js';
import { formatIssuePath } from '../issues/issuePath.js';
import { quotePath } from '../renderValue.js';

/**
 * How deeply an OpenAPI document may nest its values: ten times what real
 * descriptions need (GitHub's whole REST description nests 21 deep), and
 * shallow enough that every walk over a document (the `$ref` bundler's, the
 * validator's compiler) stays well within the stack.
 */
export const DOCUMENT_NESTING_LIMIT = 256;

/** How many keys of a place too deep a message shows: enough to find it, never a path hundreds of keys long. */
const SHOWN_KEYS = 4;

/**
 * Refuses a document that is not a finite tree of bounded depth: one that
 * nests values deeper than {@link DOCUMENT_NESTING_LIMIT}, or one that holds
 * itself (a YAML alias of a node that contains it, which JSON cannot write).
 * A node shared by several places (a YAML alias of a node elsewhere) is
 * fine, and walked once. The walk keeps its own stack, so no document can
 * overflow the call stack here, and a ConfigurationError (78) names the
 * file and the place.
 */
export function refuseEndlessDocument(document: unknown, path: string): void {
  if (typeof document !== 'object' || document === null) return;
  // Each node walked is a frame: its children by key (arrays by index), the next to visit, and the deepest height below it so far.
  interface Frame {
    readonly node: object;
    readonly key: PropertyKey | undefined;
    readonly keys: readonly string[] | undefined;
    readonly length: number;
    next: number;
    height: number;
  }
  const frameOf = (node: object, key: PropertyKey | undefined): Frame => {
    const keys = Array.isArray(node) ? undefined : Object.keys(node);
    return { node, key, keys, length: keys === undefined ? (node as unknown[]).length : keys.length, next: 0, height: 0 };
  };
  const placeOf = (frames: readonly Frame[], key: PropertyKey): PropertyKey[] => [...frames.slice(1).map((frame) => frame.key!), key];
  const tooDeep = (place: readonly PropertyKey[]): ConfigurationError => {
    const shown = formatIssuePath(place.slice(0, SHOWN_KEYS));
    return new ConfigurationError(
      [{ variable: `${place.length > SHOWN_KEYS ? `${shown}…` : shown} in ${quotePath(path)}`, message: `nests values deeper than ${DOCUMENT_NESTING_LIMIT} levels, past any real description` }],
      'OpenAPI document',
    );
  };
  // The height of each node walked to its end: a shared node is walked once.
  const heights = new Map<object, number>();
  const onPath = new Set<object>([document]);
  const frames: Frame[] = [frameOf(document, undefined)];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next === frame.length) {
      frames.pop();
      onPath.delete(frame.node);
      heights.set(frame.node, frame.height + 1);
      const parent = frames[frames.length - 1];
      if (parent !== undefined) parent.height = Math.max(parent.height, frame.height + 1);
      continue;
    }
    const key = frame.keys === undefined ? frame.next : frame.keys[frame.next]!;
    frame.next += 1;
    const child = (frame.node as Record<PropertyKey, unknown>)[key];
    if (typeof child !== 'object' || child === null) continue;
    if (onPath.has(child)) {
      throw new ConfigurationError(
        [{ variable: `${formatIssuePath(placeOf(frames, key))} in ${quotePath(path)}`, message: 'is a YAML alias of a node that holds it: the document would never end' }],
        'OpenAPI document',
      );
    }
    const height = heights.get(child);
    if (height !== undefined) {
      if (frames.length + height > DOCUMENT_NESTING_LIMIT) throw tooDeep(placeOf(frames, key));
      frame.height = Math.max(frame.height, height);
      continue;
    }
    if (frames.length >= DOCUMENT_NESTING_LIMIT) throw tooDeep(placeOf(frames, key));
    onPath.add(child);
    frames.push(frameOf(child, key));
  }
}
