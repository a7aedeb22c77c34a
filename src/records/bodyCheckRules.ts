import { isPlainObject } from './validateRecordList.js';

/**
 * What a valid `bodyCheck` of a record is, as plain comparisons: the
 * hot-path twin of its zod schema (bodyCheck.ts), with no zod loaded.
 */

/**
 * Why a body was not validated: no schema for its status and media type, not JSON, over the size limit, empty where a body
 * was declared, a schema the validator could not compile or apply, or nested deeper than the validator goes.
 */
export const BODY_NOT_VALIDATED_REASONS = ['noSchema', 'notJson', 'tooLarge', 'emptyBody', 'schemaUnusable', 'tooDeep'] as const;

export type BodyNotValidatedReason = (typeof BODY_NOT_VALIDATED_REASONS)[number];

/** How many violations of one body a record names (it counts them all). */
export const MAX_RECORDED_VIOLATIONS = 5;

export const MAX_POINTER_LENGTH = 1024;
export const MAX_KEYWORD_LENGTH = 64;
export const MAX_VIOLATION_COUNT = 1_000_000;

/** The fast check of a record's `bodyCheck`, agreeing with {@link bodyCheckSchema}. */
export function isBodyCheck(value: unknown): value is object {
  if (!isPlainObject(value)) return false;
  const { response, request } = value;
  return (response === undefined || isBodyOutcome(response)) && (request === undefined || isBodyOutcome(request));
}

function isBodyOutcome(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (value['validated'] === false)
    return typeof value['reason'] === 'string' && (BODY_NOT_VALIDATED_REASONS as readonly string[]).includes(value['reason']);
  if (value['validated'] !== true) return false;
  const { violationCount, violations } = value;
  if (typeof violationCount !== 'number' || !Number.isInteger(violationCount) || violationCount < 0 || violationCount > MAX_VIOLATION_COUNT)
    return false;
  if (violations === undefined) return true;
  return Array.isArray(violations) && violations.length <= MAX_RECORDED_VIOLATIONS && violations.every(isViolation);
}

function isViolation(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const { pointer, keyword } = value;
  return (
    typeof pointer === 'string' &&
    pointer.length <= MAX_POINTER_LENGTH &&
    (pointer === '' || pointer.startsWith('/')) &&
    typeof keyword === 'string' &&
    keyword.length >= 1 &&
    keyword.length <= MAX_KEYWORD_LENGTH
  );
}
