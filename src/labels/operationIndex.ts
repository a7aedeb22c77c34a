import type { OperationTemplate } from '../contract/contract.js';

export type { OperationTemplate };

/**
 * Matching a call to an operation of the API's contract, by method and
 * path, in time that grows with the path's segments and not with the
 * contract's operations: the operations' paths, each after each of its base
 * paths, make a tree of segments that a call's path walks.
 */

/** The operation a call matched: its position in the list the index was made from. */
export type OperationMatcher = (method: string, path: string) => number | undefined;

interface Node {
  readonly literals: Map<string, Node>;
  /** `{name}` segments whose parameter is an integer, and those that take any segment. */
  integer: Node | undefined;
  any: Node | undefined;
  /** Segments that mix text and parameters (`{id}.json`), as patterns. */
  readonly patterns: { readonly pattern: RegExp; readonly node: Node }[];
  /** Operations that end here, per method: their positions, each with the number of templated segments on its way. */
  readonly ends: Map<string, { readonly position: number; readonly templated: number; readonly kinds: string }[]>;
}

const node = (): Node => ({ literals: new Map(), integer: undefined, any: undefined, patterns: [], ends: new Map() });

const WHOLE_PARAMETER = /^\{([^{}]+)\}$/;
const INTEGER = /^-?\d+$/;

/**
 * Makes the matcher of a list of operations. A call matches an operation
 * when its method is the operation's and its path is one of the operation's
 * base paths followed by the operation's path, segment by segment: a
 * literal segment matches itself (both percent-decoded, so `%7E` is `~`), a
 * `{name}` segment any one non-empty segment (digits only, with an optional
 * minus, when the parameter is an integer), a segment mixing text and
 * parameters (`{id}.json`) the text it describes. Repeated slashes count as
 * one and a trailing slash is ignored, as labels are normalised. Where
 * several operations match: the one with the fewest templated segments,
 * then the one whose first templated segment comes latest (`/users/me`
 * before `/users/{id}`, `/a/b/{c}` before `/a/{b}/c`), then the first in the
 * contract's order.
 */
export function createOperationMatcher(operations: readonly OperationTemplate[]): OperationMatcher {
  const root = node();
  operations.forEach((operation, position) => {
    const integers = new Set(operation.integerParameters);
    for (const basePath of operation.basePaths) {
      let current = root;
      const kinds: string[] = [];
      for (const segment of segmentsOf(`${basePath}${operation.path}`)) {
        const parameter = WHOLE_PARAMETER.exec(segment)?.[1];
        if (parameter !== undefined) {
          const integer = integers.has(parameter);
          current = integer ? (current.integer ??= node()) : (current.any ??= node());
          kinds.push('t');
        } else if (segment.includes('{')) {
          const pattern = patternOf(segment);
          let child = current.patterns.find((entry) => entry.pattern.source === pattern.source)?.node;
          if (child === undefined) current.patterns.push({ pattern, node: (child = node()) });
          current = child;
          kinds.push('t');
        } else {
          const literal = decoded(segment);
          let child = current.literals.get(literal);
          if (child === undefined) current.literals.set(literal, (child = node()));
          current = child;
          kinds.push('l');
        }
      }
      const ends = current.ends.get(operation.method) ?? [];
      ends.push({ position, templated: kinds.filter((kind) => kind === 't').length, kinds: kinds.join('') });
      current.ends.set(operation.method, ends);
    }
  });
  return (method, path) => {
    const segments = segmentsOf(path).map(decoded);
    let best: { position: number; templated: number; kinds: string } | undefined;
    const visit = (at: Node, depth: number): void => {
      if (depth === segments.length) {
        for (const end of at.ends.get(method) ?? []) if (best === undefined || better(end, best)) best = end;
        return;
      }
      const segment = segments[depth]!;
      const literal = at.literals.get(segment);
      if (literal !== undefined) visit(literal, depth + 1);
      if (segment === '') return;
      if (at.integer !== undefined && INTEGER.test(segment)) visit(at.integer, depth + 1);
      if (at.any !== undefined) visit(at.any, depth + 1);
      for (const { pattern, node: child } of at.patterns) if (pattern.test(segment)) visit(child, depth + 1);
    };
    visit(root, 0);
    return best?.position;
  };
}

// Fewest templated segments; then literal first, left to right ('l' < 't'); then the contract's order.
function better(
  a: { position: number; templated: number; kinds: string },
  b: { position: number; templated: number; kinds: string },
): boolean {
  if (a.templated !== b.templated) return a.templated < b.templated;
  if (a.kinds !== b.kinds) return a.kinds < b.kinds;
  return a.position < b.position;
}

/** A path's segments after its leading slash; repeated slashes are one, a trailing one is none; `/` has none. */
function segmentsOf(path: string): string[] {
  const trimmed = path.replace(/\/{2,}/g, '/').replace(/^\/|\/$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A segment mixing text and parameters (`{id}.json`) as the pattern of the segments it describes. */
function patternOf(segment: string): RegExp {
  const source = segment
    .split(/(\{[^{}]+\})/)
    .map((part) => (WHOLE_PARAMETER.test(part) ? '[^/]+' : decoded(part).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}
