import type * as z from 'zod';
import { escapeControlCharacters, shorten } from '../renderValue.js';

/**
 * The one grammar every message uses for a place inside a value, as a
 * JavaScript reader writes it: a key that is a plain name as `.name`, any
 * other key as `["GET /orders"]`, an index as `[2]`, counted from 0 as in the
 * file. Settings (`budgets.endpoints["GET /a"].maxFailedExecutions in ./quality-evidence.config.json`),
 * records (`executions[1].timingMs.wait of a.json`), budgets files
 * (`endpoints["GET /a"].responseTimeMs.p95 in "b.json"`) and baselines
 * (`at endpoints[0].label`) all name their places so.
 */
export function formatIssuePath(path: readonly PropertyKey[], root = ''): string {
  let text = root;
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else if (typeof part === 'string' && part.length <= MAX_SHOWN_KEY_LENGTH && PLAIN_NAME.test(part))
      text += text === '' ? part : `.${part}`;
    // A key is the user's text: quoted, shortened and escaped so that it cannot forge a line or reorder one.
    else text += `[${escapeControlCharacters(JSON.stringify(shorten(String(part), MAX_SHOWN_KEY_LENGTH)))}]`;
  }
  return text;
}

/** One problem found by a schema: where inside the value, and the rule it breaks. */
export interface ValidationIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** How a reader words keys its schema does not know: `is not a budget` for a budgets file. */
export interface IssueWording {
  /** The message for one key the schema does not know, placed at that key. */
  readonly unknownKey?: string;
}

/**
 * Where the first issue of a document is, for a one-line message: ` (at endpoints[0].p95: …)`; empty for an issue at the
 * top (the message says what it is).
 */
export function firstIssueWhere(error: z.ZodError): string {
  const issue = validationIssuesOf(error)[0];
  return issue === undefined || issue.path.length === 0 ? '' : ` (at ${formatIssuePath(issue.path)}: ${issue.message})`;
}

/**
 * zod's issues in this package's words, as zod's own `flattenError` maps
 * them but keeping every path: a key a record refuses (`invalid_key`) is
 * reported at that key with its own rule, each key an object does not know
 * is one issue at that key, and a place is named once, by its first issue
 * (a refinement that runs after a failed check says less than the check).
 */
export function validationIssuesOf(error: z.ZodError, { unknownKey = 'is not known here' }: IssueWording = {}): ValidationIssue[] {
  const named = new Set<string>();
  const issues = error.issues.flatMap((issue): ValidationIssue[] => {
    switch (issue.code) {
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({ path: [...issue.path, key], message: unknownKey }));
      case 'invalid_key':
        return [{ path: issue.path, message: issue.issues[0]?.message ?? issue.message }];
      default:
        return [{ path: issue.path, message: issue.message }];
    }
  });
  return issues.filter(({ path }) => {
    const place = formatIssuePath(path);
    if (named.has(place)) return false;
    named.add(place);
    return true;
  });
}

/** The value at `path` inside `value`, or undefined where there is none (own keys only, so `__proto__` is a key like any other). */
export function valueAtPath(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || typeof key === 'symbol' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;
const MAX_SHOWN_KEY_LENGTH = 80;
