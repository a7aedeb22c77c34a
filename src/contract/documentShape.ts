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
 * itself (a YAML alias of a node that contains it, which JSON cannot write;
 * it is found where it makes the document too deep). A ConfigurationError
 * (78) names the file and the place. The walk recurses at most the limit
 * deep, so no document can overflow the stack here; a node shared by
 * several places (a YAML alias of a node elsewhere) is walked at each.
 */
export function refuseEndlessDocument(document: unknown, path: string): void {
  // The nodes and keys on the way down, for the message: pushed and popped, never copied per node.
  const nodes: object[] = [];
  const keys: PropertyKey[] = [];
  const visit = (node: object): void => {
    if (nodes.length === DOCUMENT_NESTING_LIMIT) throw tooDeepOrEndless(node);
    nodes.push(node);
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        const child: unknown = node[index];
        if (typeof child !== 'object' || child === null) continue;
        keys.push(index);
        visit(child);
        keys.pop();
      }
    } else {
      for (const key of Object.keys(node)) {
        const child = (node as Record<string, unknown>)[key];
        if (typeof child !== 'object' || child === null) continue;
        keys.push(key);
        visit(child);
        keys.pop();
      }
    }
    nodes.pop();
  };
  const tooDeepOrEndless = (node: object): ConfigurationError => {
    // A way down that passes one node twice goes round for ever: the node first entered again is the alias.
    const way = [...nodes, node];
    const again = way.findIndex((candidate, index) => way.indexOf(candidate) < index);
    if (again >= 0) {
      const place = formatIssuePath(keys.slice(0, again));
      return new ConfigurationError(
        [{ variable: `${place} in ${quotePath(path)}`, message: 'is a YAML alias of a node that holds it: the document would never end' }],
        'OpenAPI document',
      );
    }
    const shown = formatIssuePath(keys.slice(0, SHOWN_KEYS));
    return new ConfigurationError(
      [
        {
          variable: `${keys.length > SHOWN_KEYS ? `${shown}…` : shown} in ${quotePath(path)}`,
          message: `nests values deeper than ${DOCUMENT_NESTING_LIMIT} levels, past any real description`,
        },
      ],
      'OpenAPI document',
    );
  };
  if (typeof document === 'object' && document !== null) visit(document);
}
