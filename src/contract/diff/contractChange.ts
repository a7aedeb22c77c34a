import type { ChangeRule } from './changeRules.js';

/**
 * A change between two OpenAPI documents that matters to a client (issue
 * 38): its rule, how much it breaks, the operation it touches and where it
 * is in each document. Made by `diffContracts` (diffContracts.ts), joined
 * with a run's evidence (changeEvidence.ts), listed by `contract-diff` and
 * narrowed to the tests to run by `affected`.
 */

/** How much a change breaks a client: `breaking` (a client written for BASE fails), `warning` (it may), `info` (it cannot). */
export const CHANGE_LEVELS = ['breaking', 'warning', 'info'] as const;
export type ChangeLevel = (typeof CHANGE_LEVELS)[number];

/** How many changes of each level. */
export function countByLevel(changes: readonly Pick<ContractChange, 'level'>[]): Record<ChangeLevel, number> {
  const counts: Record<ChangeLevel, number> = { breaking: 0, warning: 0, info: 0 };
  for (const { level } of changes) counts[level]++;
  return counts;
}

/** The operation a change touches: as HEAD declares it, or as BASE did when HEAD has it no more. */
export interface ChangedOperation {
  readonly method: string;
  /** The path template as the document writes it (HEAD's spelling of its parameters): `/users/{id}`. */
  readonly path: string;
  /** The label a run gives its calls (ContractOperation.label): `GET /users/{id}`. */
  readonly label: string;
  readonly operationId?: string | undefined;
}

/** One change. */
export interface ContractChange {
  /** The rule that found it, a stable id: `response-property-removed` (docs/contract-diff.md lists them). */
  readonly rule: ChangeRule;
  readonly level: ChangeLevel;
  readonly operation: ChangedOperation;
  /** JSON pointers (RFC 6901, as `#/paths/~1users~1{id}/get/...`) to what changed in BASE and in HEAD; one is absent for a removal or an addition. */
  readonly base?: string | undefined;
  readonly head?: string | undefined;
  /** The shared component the change is inside, when it is reached through one (`#/components/schemas/User`): every operation using it changes. */
  readonly component?: string | undefined;
  /** What changed, for the evidence join and the message: which part of the operation, and the name or value. */
  readonly subject: ChangeSubject;
  /** The change in words: `response 200: property email removed`. */
  readonly message: string;
}

/** The part of an operation a change is in. */
export type ChangeSubject =
  | { readonly kind: 'operation' }
  | { readonly kind: 'parameter'; readonly in: string; readonly name: string }
  | { readonly kind: 'requestBody'; readonly mediaType?: string | undefined }
  /** A property of the request body, by its path of names from the body's root (`['address', 'city']`; `[]` is the body itself). */
  | { readonly kind: 'requestProperty'; readonly property: readonly string[] }
  | { readonly kind: 'response'; readonly status: string }
  /** A property of a response body, by its path of names from the body's root. */
  | { readonly kind: 'responseProperty'; readonly status: string; readonly property: readonly string[] };
