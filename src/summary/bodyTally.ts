import { BODY_NOT_VALIDATED_REASONS, type BodyNotValidatedReason } from '../records/bodyCheckRules.js';
import type { BodyCheck, BodyOutcome } from '../records/bodyCheck.js';
import { compareCodeUnits } from '../compareCodeUnits.js';

/**
 * One endpoint's body conformance, counted from its records' body checks:
 * bodies validated, those that broke their schema, those not validated (by
 * reason), and how often each violation (body, place, keyword) was named.
 * Places are counted with array indices as `*` (`/items/*\/price`), so that
 * one fault in every element is one violation, not one per index.
 */

/** Which body a violation is in. */
export type BodyKind = 'response' | 'request';

/** One violation, counted over an endpoint's records. */
export interface CountedViolation {
  readonly body: BodyKind;
  readonly pointer: string;
  readonly keyword: string;
  readonly count: number;
}

/** An endpoint's body conformance, as the report gives it. */
export interface BodyConformance {
  /** Bodies validated against a schema. */
  readonly validatedCount: number;
  /** Validated bodies that broke their schema. */
  readonly schemaViolationCount: number;
  /** Bodies not validated: no schema for their status and media type, not JSON, over the size limit, empty, or a schema that could not be compiled. */
  readonly notValidatedCount: number;
  /** Only the reasons that occurred, in a fixed order. */
  readonly notValidatedReasons: Partial<Readonly<Record<BodyNotValidatedReason, number>>>;
  /** The most frequent violations named by the records, most frequent first (at most {@link TOP_VIOLATION_COUNT}). */
  readonly topViolations: readonly CountedViolation[];
}

/** The same as plain data, to cross a worker-thread boundary. */
export interface BodyTallyData {
  readonly validatedCount: number;
  readonly schemaViolationCount: number;
  readonly notValidatedCount: number;
  readonly reasons: readonly (readonly [string, number])[];
  readonly violations: readonly (readonly [string, number])[];
}

/** How many violations the report lists per endpoint. */
export const TOP_VIOLATION_COUNT = 10;
/** Distinct violations counted per endpoint; more are counted in no list (a hostile input must not grow memory without bound). */
const MAX_DISTINCT_VIOLATIONS = 1_000;

export class BodyTally {
  validatedCount = 0;
  schemaViolationCount = 0;
  notValidatedCount = 0;
  private readonly reasons = new Map<string, number>();
  private readonly violations = new Map<string, number>();

  add(check: BodyCheck): void {
    if (check.response !== undefined) this.addOutcome('response', check.response);
    if (check.request !== undefined) this.addOutcome('request', check.request);
  }

  merge(data: BodyTallyData): void {
    this.validatedCount += data.validatedCount;
    this.schemaViolationCount += data.schemaViolationCount;
    this.notValidatedCount += data.notValidatedCount;
    for (const [reason, count] of data.reasons) this.reasons.set(reason, (this.reasons.get(reason) ?? 0) + count);
    for (const [key, count] of data.violations) this.countViolation(key, count);
  }

  toData(): BodyTallyData {
    return {
      validatedCount: this.validatedCount,
      schemaViolationCount: this.schemaViolationCount,
      notValidatedCount: this.notValidatedCount,
      reasons: [...this.reasons],
      violations: [...this.violations],
    };
  }

  result(): BodyConformance {
    const notValidatedReasons: Partial<Record<BodyNotValidatedReason, number>> = {};
    for (const reason of BODY_NOT_VALIDATED_REASONS) {
      const count = this.reasons.get(reason);
      if (count !== undefined) notValidatedReasons[reason] = count;
    }
    const topViolations = [...this.violations]
      .map(([key, count]) => {
        const [body, pointer, keyword] = JSON.parse(key) as [BodyKind, string, string];
        return { body, pointer, keyword, count };
      })
      .sort(
        (a, b) =>
          b.count - a.count ||
          compareCodeUnits(a.body, b.body) ||
          compareCodeUnits(a.pointer, b.pointer) ||
          compareCodeUnits(a.keyword, b.keyword),
      )
      .slice(0, TOP_VIOLATION_COUNT);
    return {
      validatedCount: this.validatedCount,
      schemaViolationCount: this.schemaViolationCount,
      notValidatedCount: this.notValidatedCount,
      notValidatedReasons,
      topViolations,
    };
  }

  private addOutcome(body: BodyKind, outcome: BodyOutcome): void {
    if (!outcome.validated) {
      this.notValidatedCount++;
      this.reasons.set(outcome.reason, (this.reasons.get(outcome.reason) ?? 0) + 1);
      return;
    }
    this.validatedCount++;
    if (outcome.violationCount === 0 && (outcome.violations?.length ?? 0) === 0) return;
    this.schemaViolationCount++;
    for (const { pointer, keyword } of outcome.violations ?? [])
      this.countViolation(JSON.stringify([body, withoutIndices(pointer), keyword]), 1);
  }

  private countViolation(key: string, count: number): void {
    const known = this.violations.get(key);
    if (known !== undefined) this.violations.set(key, known + count);
    else if (this.violations.size < MAX_DISTINCT_VIOLATIONS) this.violations.set(key, count);
  }
}

/** A JSON pointer with its array indices (all-digit segments) as `*`. */
function withoutIndices(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}
