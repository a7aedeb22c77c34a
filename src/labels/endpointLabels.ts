import { createOperationMatcher, type OperationTemplate } from './operationIndex.js';
import { templatePath } from './templateEndpoint.js';

/**
 * Endpoint labels people can read: route templates the user declares
 * (`/orders/:orderId`), then the operations of the API's contract
 * (`/orders/{orderId}`), then automatic grouping of the rest. A canonical
 * label (`GET /orders/17`) goes in, the label the report uses comes out.
 */

/**
 * `auto`: ids become `:id` (by their shape, and at the end of a run by what
 * the run's labels show: learnedTemplates.ts), repeated slashes collapse, a
 * trailing slash goes; `none`: labels stay as they come.
 */
export type EndpointGrouping = 'auto' | 'none';

/** The endpoint grouping values, in the order messages list them. */
export const ENDPOINT_GROUPINGS = ['auto', 'none'] as const satisfies readonly EndpointGrouping[];

/** How labels are made readable. */
export interface LabelRules {
  /** Route templates (`/orders/:orderId`, or `GET /orders/:orderId` for one method); the first that matches wins. */
  readonly routes?: readonly string[] | undefined;
  /** Grouping for every label; by default `auto` for labels derived from URLs and `none` for labels people wrote. */
  readonly endpointGrouping?: EndpointGrouping | undefined;
  /** The operations of the API's contract: a label that matches one (after the routes) becomes its label, `GET /users/{id}`. */
  readonly operations?: readonly OperationTemplate[] | undefined;
}

/** A parsed route template. */
interface RouteTemplate {
  /** The method it is limited to, or undefined for every method. */
  readonly method: string | undefined;
  /** Its path segments after the leading slash; a `:name` segment matches any one segment. */
  readonly segments: readonly string[];
  readonly path: string;
}

const TEMPLATE_PATTERN = /^(?:([A-Za-z]+)\s+)?(\/\S*)$/;
const PARAMETER_PATTERN = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks one route template, or says what is wrong with it (never quoting it: it may come from a variable). */
export function checkRouteTemplate(text: unknown): { readonly problem: string } | undefined {
  const parsed = parseRouteTemplate(text);
  return 'problem' in parsed ? parsed : undefined;
}

function parseRouteTemplate(text: unknown): RouteTemplate | { readonly problem: string } {
  if (typeof text !== 'string') return { problem: 'must be a path template string such as /orders/:orderId' };
  const match = TEMPLATE_PATTERN.exec(text.trim());
  if (match === null)
    return { problem: 'must be a path that starts with / (optionally after a method, as in GET /orders/:orderId), with no spaces' };
  const path = collapseSlashes(match[2]!);
  const segments = path === '/' ? [] : path.slice(1).split('/');
  for (const segment of segments) {
    if (segment.startsWith(':') && !PARAMETER_PATTERN.test(segment)) {
      return { problem: 'has a parameter without a name: write :name, with letters, digits and _' };
    }
  }
  return { method: match[1]?.toUpperCase(), segments, path };
}

/** Repeated slashes collapse to one, and a trailing slash goes (but `/` stays `/`). */
export function collapseSlashes(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/** A path grouped automatically: slashes collapsed, then ids made `:id`. */
function groupPath(path: string): string {
  return templatePath(collapseSlashes(path));
}

/** A label as the report uses it, and whether automatic grouping made it (so learning may template it further: see learnedTemplates.ts). */
export interface EndpointLabel {
  readonly label: string;
  readonly grouped: boolean;
}

/**
 * Makes the labeler of a run: a canonical label in, the report's label out
 * (before learning). Templates must have been checked ({@link checkRouteTemplate}).
 */
export function createEndpointLabeler(rules: LabelRules): (label: string, derivedFromUrl: boolean) => string {
  const labelling = createEndpointLabelling(rules);
  return (label, derivedFromUrl) => labelling(label, derivedFromUrl).label;
}

/** {@link createEndpointLabeler}, saying of each label whether grouping made it. */
export function createEndpointLabelling({
  routes = [],
  endpointGrouping,
  operations = [],
}: LabelRules): (label: string, derivedFromUrl: boolean) => EndpointLabel {
  const templates = routes.map((route) => {
    const parsed = parseRouteTemplate(route);
    if ('problem' in parsed) throw new TypeError(`invalid route template: ${parsed.problem}`);
    return parsed;
  });
  const index = indexTemplates(templates);
  const matchOperation = operations.length === 0 ? undefined : createOperationMatcher(operations);
  return (label, derivedFromUrl) => {
    const space = label.indexOf(' ');
    const method = label.slice(0, space);
    const path = label.slice(space + 1);
    // Routes the user wrote win; then the contract's operations; then grouping.
    const route = templates.length === 0 ? NO_MATCH : firstMatch(index, method, segmentsOf(path), 0);
    if (route !== NO_MATCH) return { label: `${method} ${templates[route]!.path}`, grouped: false };
    const operation = matchOperation?.(method, path);
    if (operation !== undefined) return { label: `${method} ${operations[operation]!.path}`, grouped: false };
    const grouped = (endpointGrouping ?? (derivedFromUrl ? 'auto' : 'none')) === 'auto';
    return { label: grouped ? `${method} ${groupPath(path)}` : label, grouped };
  };
}

function segmentsOf(path: string): string[] {
  const collapsed = collapseSlashes(path);
  return collapsed === '/' ? [] : collapsed.slice(1).split('/');
}

/**
 * The templates as a tree of their segments: a literal segment leads to the
 * child of that text, a `:name` segment to the one parameter child (any
 * non-empty segment), and the node a template ends at holds its position in
 * the list, the first per method and for every method. A label is matched by
 * following its segments, so a lookup visits only the templates that share a
 * prefix with it, not every template (1,000 long templates over 1,000 labels
 * took seconds); the first match in the list still wins, as the smallest
 * position among the nodes reached.
 */
interface TemplateNode {
  readonly literals: Map<string, TemplateNode>;
  parameter: TemplateNode | undefined;
  /** The first template (its position) that ends here and takes any method. */
  anyMethod: number;
  /** The first template (its position) that ends here, per method it is limited to. */
  readonly byMethod: Map<string, number>;
}

const NO_MATCH = Number.POSITIVE_INFINITY;

function templateNode(): TemplateNode {
  return { literals: new Map(), parameter: undefined, anyMethod: NO_MATCH, byMethod: new Map() };
}

function indexTemplates(templates: readonly RouteTemplate[]): TemplateNode {
  const root = templateNode();
  templates.forEach(({ method, segments }, position) => {
    let node = root;
    for (const segment of segments) {
      if (segment.startsWith(':')) node = node.parameter ??= templateNode();
      else {
        let next = node.literals.get(segment);
        if (next === undefined) node.literals.set(segment, (next = templateNode()));
        node = next;
      }
    }
    // Templates come in list order: the first to end here for a method keeps its place.
    if (method === undefined) node.anyMethod = Math.min(node.anyMethod, position);
    else if (!node.byMethod.has(method)) node.byMethod.set(method, position);
  });
  return root;
}

// The smallest position of a template under `node` that matches the label's segments from `depth` on, or NO_MATCH.
function firstMatch(node: TemplateNode, method: string, segments: readonly string[], depth: number): number {
  if (depth === segments.length) return Math.min(node.anyMethod, node.byMethod.get(method) ?? NO_MATCH);
  const segment = segments[depth]!;
  const literal = node.literals.get(segment);
  const viaLiteral = literal === undefined ? NO_MATCH : firstMatch(literal, method, segments, depth + 1);
  const viaParameter = node.parameter === undefined || segment === '' ? NO_MATCH : firstMatch(node.parameter, method, segments, depth + 1);
  return Math.min(viaLiteral, viaParameter);
}
