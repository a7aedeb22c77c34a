import type { BoundKeyword, Condition } from '../contract/conditions.js';
import type { Contract } from '../contract/contract.js';
import { valueAtPointer } from '../contract/documentPointers.js';
import type { OperationConditionCoverage } from '../evaluation/conditionCoverage.js';
import { OperationRequests, parameterKey, type BuiltRequest } from './operationRequests.js';
import { ITEMS_BOUND_LIMIT, LENGTH_BOUND_LIMIT, RepeatedText, SchemaValues, isObject, type BoundPlacement } from './schemaValues.js';
import { renderSpecFile, type Expected, type DraftedTest } from './specSource.js';

/**
 * Drafts Playwright tests for the conditions a run never met (issue 36):
 * from the contract and which of each operation's conditions the run met,
 * one spec file per tag, one test per unmet condition group, in document
 * order. Pure: the same contract, coverage and seed give the same files,
 * byte for byte; no value comes from anywhere but the document and the
 * seed (a report holds none). docs/suggest.md says what is drafted and why.
 */

/** What drafts are made with. */
export interface DraftOptions {
  /** The seed of the values the document does not give; the same seed gives the same files. */
  readonly seed: number;
  /** The report the coverage came from, as the header of each file names it. */
  readonly report: string;
  /** The OpenAPI documents, as the header names them. */
  readonly documents: readonly string[];
}

/** One drafted spec file: its name (`pets.suggested.spec.ts`) and its text. */
export interface DraftedFile {
  readonly path: string;
  readonly text: string;
  readonly testCount: number;
  /** Of those, the tests written as `test.fixme`: a value to supply or something to arrange first. */
  readonly fixmeCount: number;
}

/** The drafts, and what was not drafted in full, in words. */
export interface Drafts {
  readonly files: readonly DraftedFile[];
  readonly testCount: number;
  readonly fixmeCount: number;
  /** Operations whose conditions were drafted for in part only, each with why: `GET /pets: ...`. */
  readonly notes: readonly string[];
}

/**
 * The most tests drafted for one operation: GitHub's description needs 120
 * at most (a ruleset's every option); a document listing a million enum
 * values would otherwise draft a million tests. What is left is said.
 */
export const TESTS_PER_OPERATION_LIMIT = 250;

/** Every drafted file's name ends so: what suggest replaces, with its header (see DRAFT_MARKER in specSource.ts). */
export const DRAFT_FILE_SUFFIX = '.suggested.spec.ts';

/**
 * Drafts the tests for what `coverage` says the run never met, one entry
 * per operation of `contract`, index for index (conditionCoverageOf gives it).
 */
export function draftTests(contract: Contract, coverage: readonly OperationConditionCoverage[], options: DraftOptions): Drafts {
  const valuesByDocument = contract.documents.map((document) => new SchemaValues(document.bundled, document.version, options.seed));
  const byFile = new Map<string, { tag: string; tests: DraftedTest[] }>();
  const fileOfTag = new Map<string, string>();
  const notes: string[] = [];
  const labels = new Set<string>();
  for (const entry of coverage) {
    const { operation } = entry;
    // Operations sharing a label (one method and path in two documents) share its calls: the first one's conditions are drafted for.
    if (labels.has(operation.label)) continue;
    labels.add(operation.label);
    const document = contract.documents[operation.documentIndex];
    const values = valuesByDocument[operation.documentIndex];
    if (document === undefined || values === undefined) continue;
    let statusesOnly = false;
    if (entry.otherList) {
      notes.push(`${operation.label}: its calls were recorded with another version of the document: only its statuses are drafted for`);
      statusesOnly = true;
    } else if (entry.executionCount > 0 && entry.examinedCallCount === 0 && entry.conditions.some(isExaminedKind)) {
      notes.push(`${operation.label}: none of its calls said which conditions they met: only its statuses are drafted for`);
      statusesOnly = true;
    }
    const draft = new OperationDraft(entry, new OperationRequests(values, operation, document.bundled, document.version), statusesOnly);
    const tests = draft.tests();
    if (draft.unreachable.length > 0)
      notes.push(
        `${operation.label}: ${draft.unreachable.length} of its gaps ${draft.unreachable.length === 1 ? 'is' : 'are'} not drafted for, ` +
          'as no request built from the document ' +
          `reaches them: ${draft.unreachable.map(describeGap).join(', ')}`,
      );
    if (draft.undrafted > 0)
      notes.push(
        `${operation.label}: ${TESTS_PER_OPERATION_LIMIT} tests drafted, the most for one operation; ` +
          `${draft.undrafted} of its gaps ${draft.undrafted === 1 ? 'is' : 'are'} not drafted for`,
      );
    if (tests.length === 0) continue;
    const tag = operation.tags[0] ?? 'untagged';
    let file = fileOfTag.get(tag);
    if (file === undefined) {
      file = uniqueFileName(tag, new Set(fileOfTag.values()));
      fileOfTag.set(tag, file);
    }
    const group = byFile.get(file) ?? { tag, tests: [] };
    group.tests.push(...tests);
    byFile.set(file, group);
  }
  const files = [...byFile].map(([path, { tests }]) => {
    const titled = uniqueTitles(tests);
    return {
      path,
      text: renderSpecFile(titled, options),
      testCount: titled.length,
      fixmeCount: titled.filter(isFixme).length,
    };
  });
  return {
    files,
    testCount: files.reduce((sum, file) => sum + file.testCount, 0),
    fixmeCount: files.reduce((sum, file) => sum + file.fixmeCount, 0),
    notes,
  };
}

/** Whether a test is written as `test.fixme`: something to supply or arrange before it can run. */
export function isFixme(test: DraftedTest): boolean {
  return test.arrange.length > 0 || test.built.supplied.length > 0 || test.built.unsupported !== undefined;
}

/** Conditions only a call's record says it met: all but statuses and path parameters, which every call shows. */
function isExaminedKind(condition: Condition): boolean {
  return condition.kind !== 'status' && !(condition.kind === 'parameter' && condition.in === 'path');
}

/** A file name for a tag: lower case letters, digits and dashes, `untagged` without a tag, another made unique by a number. */
function uniqueFileName(tag: string, taken: ReadonlySet<string>): string {
  const base =
    tag
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
      .replace(/-+$/, '') || 'tag';
  for (let number = 1; ; number++) {
    const name = `${number === 1 ? base : `${base}-${number}`}${DRAFT_FILE_SUFFIX}`;
    if (!taken.has(name)) return name;
  }
}

/** Titles made unique within a file (Playwright refuses two tests of one title): a second one gets ` (2)`. */
function uniqueTitles(tests: readonly DraftedTest[]): DraftedTest[] {
  const seen = new Set<string>();
  return tests.map((test) => {
    let title = test.title;
    for (let number = 2; seen.has(title); number++) title = `${test.title} (${number})`;
    seen.add(title);
    return title === test.title ? test : { ...test, title };
  });
}

/** One unmet condition, or one half of an unmet bound: what a test is drafted for. */
interface Gap {
  readonly index: number;
  readonly condition: Condition;
  /** What a request that meets it meets (see BuiltRequest.meets); for a response condition, its place by status. */
  readonly key: string;
  readonly half?: 'edge' | 'outside';
}

/** Drafts the tests of one operation. */
class OperationDraft {
  private readonly planned = new Set<string>();
  private readonly drafted: DraftedTest[] = [];
  private readonly gaps: readonly Gap[];
  private readonly success: { readonly status: string; readonly expected: Expected };
  /** What a request the server should refuse expects: the first of 400 and 422 the operation declares, else 4XX. */
  private readonly refusal: Expected;
  private readonly label: string;

  constructor(
    private readonly entry: OperationConditionCoverage,
    private readonly requests: OperationRequests,
    private readonly statusesOnly: boolean,
  ) {
    this.label = entry.operation.label;
    this.gaps = gapsOf(entry).filter((gap) => !statusesOnly || gap.condition.kind === 'status');
    const { responses } = entry.operation;
    const success =
      responses.find((response) => response.status.startsWith('2')) ?? responses.find((response) => response.status !== 'default');
    this.success =
      success === undefined ? { status: '2XX', expected: { range: 2 } } : { status: success.status, expected: expectedOf(success.status) };
    const refusal = responses.find((response) => ['400', '422', '4XX'].includes(response.status.toUpperCase()));
    this.refusal = refusal === undefined ? { range: 4 } : expectedOf(refusal.status);
  }

  tests(): DraftedTest[] {
    if (this.entry.executionCount === 0 && !this.statusesOnly)
      this.add(`${this.label} — operation never called`, this.requests.build(), this.success.expected);
    for (const gap of this.gaps) {
      if (this.planned.has(gap.key)) continue;
      if (this.drafted.length >= TESTS_PER_OPERATION_LIMIT) {
        this.undrafted++;
        continue;
      }
      this.draftFor(gap);
    }
    return this.drafted;
  }

  /** Gaps left undrafted once the operation had {@link TESTS_PER_OPERATION_LIMIT} tests. */
  undrafted = 0;
  /** Gaps no request built from the document reaches (a schema nested in itself too deep, a part the draft does not build). */
  readonly unreachable: Gap[] = [];

  /** Whether a request meets the gap it was built for; when not, the gap is one no draft reaches, and no test is added. */
  private reaches(gap: Gap, built: BuiltRequest): boolean {
    if (built.meets.has(gap.key)) return true;
    this.unreachable.push(gap);
    this.planned.add(gap.key);
    return false;
  }

  private draftFor(gap: Gap): void {
    const { condition } = gap;
    switch (condition.kind) {
      case 'parameter': {
        const key = parameterKey(condition);
        if (condition.case === 'omitted') {
          const names = this.gaps
            .filter((other) => other.condition.kind === 'parameter' && other.condition.case === 'omitted' && !this.planned.has(other.key))
            .map((other) => (other.condition as { name: string }).name);
          const what = names.length === 1 ? 'optional parameter never left out' : 'optional parameters never left out';
          this.add(`${this.label} without ${listed(names)} — ${what}`, this.requests.build(), this.success.expected);
          return;
        }
        // Sent with an enum value never sent, when it has one, else at a bound never reached.
        const ofParameter = (other: Gap) =>
          'parameter' in other.condition && parameterKey(other.condition.parameter) === key && !this.planned.has(other.key);
        const value = this.gaps.find((other) => other.condition.kind === 'enumValue' && ofParameter(other));
        const edge = this.gaps.find((other) => other.condition.kind === 'bound' && other.half === 'edge' && ofParameter(other));
        const built = this.requests.build({
          send: new Set([key]),
          ...(value !== undefined
            ? { targets: new Map([[key, new Set([value.condition.where])]]) }
            : edge?.condition.kind === 'bound'
              ? { bound: { scope: key, placement: { ...placementOf(edge.condition), half: 'edge' as const } } }
              : {}),
        });
        const what = condition.required ? 'parameter never sent' : 'optional parameter never sent';
        this.add(`${this.label}${this.showParameter(condition, built)} — ${what}`, built, this.success.expected);
        return;
      }
      case 'enumValue': {
        if (condition.direction === 'response') {
          this.draftResponse(condition.status ?? 'default');
          return;
        }
        const scope = condition.parameter === undefined ? 'body' : parameterKey(condition.parameter);
        const built = this.requests.build({ targets: new Map([[scope, new Set([condition.where])]]) });
        if (!this.reaches(gap, built)) return;
        const shown =
          condition.parameter === undefined
            ? ` with ${bodyPlace(built.meets.get(gap.key))} = ${showJson(condition.value)}`
            : this.showParameter(condition.parameter, built);
        this.add(`${this.label}${shown} — enum value never sent`, built, this.success.expected);
        return;
      }
      case 'optionalProperty': {
        if (condition.direction === 'response') {
          this.draftResponse(condition.status ?? 'default');
          return;
        }
        const wanted = this.gaps.filter(
          (other) => other.condition.kind === 'optionalProperty' && other.condition.direction === 'request' && !this.planned.has(other.key),
        );
        const built = this.requests.build({ targets: new Map([['body', new Set(wanted.map((other) => other.condition.where))]]) });
        const present = wanted.filter((other) => built.meets.has(other.key)).map((other) => bodyPlace(built.meets.get(other.key)));
        if (present.length === 0 && !this.reaches(gap, built)) return;
        const shown = present.length === 0 ? ` with body.${condition.name}` : ` with ${listed(present)}`;
        const what = present.length > 1 ? 'optional properties never sent' : 'optional property never sent';
        this.add(`${this.label}${shown} — ${what}`, built, this.success.expected);
        return;
      }
      case 'branch': {
        if (condition.direction === 'response') {
          this.draftResponse(condition.status ?? 'default');
          return;
        }
        const built = this.requests.build({ targets: new Map([['body', new Set([condition.where])]]) });
        if (!this.reaches(gap, built)) return;
        const at = built.meets.get(gap.key);
        const index = condition.where.slice(condition.where.lastIndexOf('/') + 1);
        const name = this.branchName(condition.where);
        const shown = ` with ${at === undefined || at === '' ? 'a body' : bodyPlace(at)} of ${condition.keyword} branch ${index}${name}`;
        this.add(`${this.label}${shown} — branch never exercised`, built, this.success.expected);
        return;
      }
      case 'bound':
        this.draftBound(gap, condition);
        return;
      case 'status':
        this.draftStatus(condition.status);
        return;
    }
  }

  private draftBound(gap: Gap, condition: Extract<Condition, { kind: 'bound' }>): void {
    const { keyword, value } = condition;
    const half = gap.half ?? 'edge';
    const scope = condition.parameter === undefined ? 'body' : parameterKey(condition.parameter);
    // No length or count is below 0; one far too long to write in a test is left to the reviewer.
    if (half === 'outside' && (keyword === 'minLength' || keyword === 'minItems') && value <= 0) return;
    const limit =
      keyword === 'minItems' || keyword === 'maxItems' ? ITEMS_BOUND_LIMIT : keyword.endsWith('Length') ? LENGTH_BOUND_LIMIT : Infinity;
    if (value >= limit) return;
    const placement: BoundPlacement = { where: condition.where, keyword, value, half };
    const built = this.requests.build({ bound: { scope, placement } });
    if (!this.reaches(gap, built)) return;
    const shown =
      condition.parameter === undefined
        ? ` with ${bodyPlace(built.meets.get(`body|${half === 'edge' ? 'reached' : 'outside'}:${condition.where}`))} ${describeBoundValue(keyword, placement)}`
        : this.showParameter(condition.parameter, built);
    if (half === 'outside') this.add(`${this.label}${shown} — ${keyword} ${value}: a value outside never sent`, built, this.refusal);
    else this.add(`${this.label}${shown} — ${keyword} ${value} never reached`, built, this.success.expected);
  }

  /** A declared status never seen: a request built to get it where one can be (the success, a refused request), else a fixme saying what to arrange. */
  private draftStatus(status: string): void {
    const expected = expectedOf(status);
    const title = `${this.label} — status ${status} never seen`;
    if (status === this.success.status) {
      this.add(title, this.requests.build(), expected);
      return;
    }
    const code = status.toUpperCase();
    if (code === '401' && this.requests.secured) {
      this.add(`${this.label} without credentials — status ${status} never seen`, this.requests.build({ credentials: false }), expected);
      return;
    }
    if (code === '400' || code === '422' || code === '4XX') {
      const refused = this.refusedRequest();
      if (refused !== undefined) {
        this.add(`${this.label}${refused.how} — status ${status} never seen`, refused.built, expected);
        return;
      }
    }
    const description = this.requests.responseDescription(status);
    const said = description === undefined || description.trim() === '' ? '' : ` (the document says: ${showValue(description.trim())})`;
    this.add(title, this.requests.build(), expected, {
      arrange: [`Arrange what makes the server answer ${status} to this request${said}, then remove .fixme.`],
    });
  }

  /**
   * A request the server should refuse as invalid: without a required
   * parameter (not in the path, not a credential), without a required
   * property of its body, without its required body, or with a value just
   * outside a bound; undefined when the document gives no such request.
   */
  private refusedRequest(): { readonly how: string; readonly built: BuiltRequest } | undefined {
    const parameter = this.requests.parameters.find((candidate) => candidate.required && candidate.in !== 'path');
    if (parameter !== undefined) {
      const built = this.requests.build({ leaveOut: parameterKey(parameter) });
      return { how: ` without ${built.leftOut ?? parameter.name}`, built };
    }
    if (this.requests.jsonBodies.length > 0) {
      const built = this.requests.build({ body: 'leaveOutRequired' });
      if (built.leftOut !== undefined) return { how: ` without ${built.leftOut}`, built };
      if (this.requests.bodyRequired) return { how: ' without its body', built: this.requests.build({ body: 'omit' }) };
    }
    const bound = this.entry.conditions.find(
      (condition): condition is Extract<Condition, { kind: 'bound' }> =>
        condition.kind === 'bound' && !((condition.keyword === 'minLength' || condition.keyword === 'minItems') && condition.value <= 0),
    );
    if (bound === undefined) return undefined;
    const scope = bound.parameter === undefined ? 'body' : parameterKey(bound.parameter);
    const placement: BoundPlacement = { where: bound.where, keyword: bound.keyword, value: bound.value, half: 'outside' };
    const built = this.requests.build({ bound: { scope, placement } });
    const shown =
      bound.parameter === undefined
        ? ` with ${bodyPlace(built.meets.get(`body|outside:${bound.where}`))} ${describeBoundValue(bound.keyword, placement)}`
        : this.showParameter(bound.parameter, built);
    return { how: `${shown} (outside ${bound.keyword} ${bound.value})`, built };
  }

  /** The response conditions of one status the run never met, as one fixme: only the server chooses what it answers. */
  private draftResponse(status: string): void {
    const gaps = this.gaps.filter(
      (gap) => 'direction' in gap.condition && gap.condition.direction === 'response' && (gap.condition.status ?? 'default') === status,
    );
    const lines = gaps.map((gap) => `- ${describeResponseCondition(gap.condition)}`);
    const title = `${this.label} — response ${status} conditions never met`;
    const arrange = [
      `Arrange for the server to answer this request with a ${status} whose body holds what each line names, then remove .fixme:`,
      ...lines,
    ];
    this.add(title, this.requests.build(), expectedOf(status), { arrange, covers: gaps });
  }

  /**
   * Adds a test, and plans what it meets: a test to run, or one waiting only
   * for a value to supply (a path parameter's, a file), plans everything its request meets; a
   * test waiting for the server to be arranged plans only what it was
   * drafted for (its `covers`), so that nothing else waits on it.
   */
  private add(
    title: string,
    built: BuiltRequest,
    expected: Expected,
    waiting: { arrange?: readonly string[]; covers?: readonly Gap[] } = {},
  ): void {
    const arrange = waiting.arrange ?? [];
    const before = new Set(this.planned);
    const refused = 'range' in expected ? expected.range === 4 : 'code' in expected ? Math.floor(expected.code / 100) === 4 : false;
    if (arrange.length === 0) {
      for (const key of built.meets.keys()) if (refused || !key.includes('|outside:')) this.planned.add(key);
      for (const gap of this.gaps)
        if (gap.condition.kind === 'status' && statusMeets(gap.condition.status, expected)) this.planned.add(gap.key);
    }
    for (const gap of waiting.covers ?? []) this.planned.add(gap.key);
    if (arrange.length > 0 && waiting.covers === undefined) {
      const own = this.gaps.find((gap) => gap.condition.kind === 'status' && expectedSame(expectedOf(gap.condition.status), expected));
      if (own !== undefined) this.planned.add(own.key);
    }
    const covers = this.gaps.filter((gap) => this.planned.has(gap.key) && !before.has(gap.key)).map(describeGap);
    this.drafted.push({ title, built, expected, arrange, covers, operation: this.label, deprecated: this.entry.operation.deprecated });
  }

  private showParameter(parameter: { readonly in: string; readonly name: string }, built: BuiltRequest): string {
    const key = parameterKey(parameter);
    const value = built.values.get(key);
    const shown = value === undefined ? '' : Array.isArray(value) ? cut(value.map(showValue).join(',')) : showValue(value);
    switch (parameter.in) {
      case 'query':
        return `?${parameter.name}=${shown}`;
      case 'path':
        return ` with ${parameter.name}=${shown}`;
      case 'header':
        return ` with header ${parameter.name}${isEnvironment(value) ? '' : `: ${shown}`}`;
      case 'cookie':
        return ` with cookie ${parameter.name}${isEnvironment(value) ? '' : `=${shown}`}`;
      default:
        return ` with form field ${parameter.name}=${shown}`;
    }
  }

  /** ` (Dog)`: a branch's title, or the name its `$ref` ends with; `''` for neither. */
  private branchName(where: string): string {
    const branch = valueAtPointer(this.requests.document, where);
    if (!isObject(branch)) return '';
    if (typeof branch['title'] === 'string' && branch['title'].trim() !== '') return ` (${branch['title'].trim()})`;
    const ref = branch['$ref'];
    return typeof ref === 'string' && ref.startsWith('#/') ? ` (${decodeURIComponent(ref.slice(ref.lastIndexOf('/') + 1))})` : '';
  }
}

function placementOf(condition: Extract<Condition, { kind: 'bound' }>): Omit<BoundPlacement, 'half'> {
  return { where: condition.where, keyword: condition.keyword, value: condition.value };
}

/** The gaps of an operation, in document order: each unmet condition, a bound's unmet halves (the value outside first). */
function gapsOf(entry: OperationConditionCoverage): Gap[] {
  const gaps: Gap[] = [];
  entry.conditions.forEach((condition, index) => {
    if (condition.kind === 'bound') {
      const met = entry.bounds[index] ?? { reached: entry.covered[index] === true, outside: entry.covered[index] === true };
      const scope = condition.parameter === undefined ? 'body' : parameterKey(condition.parameter);
      if (!met.outside) gaps.push({ index, condition, key: `${scope}|outside:${condition.where}`, half: 'outside' });
      if (!met.reached) gaps.push({ index, condition, key: `${scope}|reached:${condition.where}`, half: 'edge' });
      return;
    }
    if (entry.covered[index] === true) return;
    gaps.push({ index, condition, key: gapKey(condition) });
  });
  return gaps;
}

function gapKey(condition: Exclude<Condition, { kind: 'bound' }>): string {
  switch (condition.kind) {
    case 'parameter':
      return `${parameterKey(condition)} ${condition.case}`;
    case 'status':
      return `status ${condition.status}`;
    case 'enumValue':
      if (condition.parameter !== undefined) return `${parameterKey(condition.parameter)}|${condition.where}`;
      return condition.direction === 'request' ? `body|${condition.where}` : `response ${condition.status ?? 'default'}|${condition.where}`;
    default:
      return condition.direction === 'request' ? `body|${condition.where}` : `response ${condition.status ?? 'default'}|${condition.where}`;
  }
}

/** A gap as a test's comment names it: `enumValue #/paths/~1pets/get/parameters/0/schema/enum/2`. */
function describeGap(gap: Gap): string {
  const half = gap.half === 'outside' ? ' (a value outside)' : gap.half === 'edge' ? ' (the value at it)' : '';
  const kind = gap.condition.kind === 'parameter' ? `parameter ${gap.condition.case}` : gap.condition.kind;
  return `${kind} ${gap.condition.where}${half}`;
}

function describeResponseCondition(condition: Condition): string {
  switch (condition.kind) {
    case 'enumValue':
      return `enum value ${showJson(condition.value)} at ${condition.where}`;
    case 'optionalProperty':
      return `optional property ${condition.name} at ${condition.where}`;
    case 'branch':
      return `${condition.keyword} branch at ${condition.where}`;
    default:
      return `${condition.kind} at ${condition.where}`;
  }
}

/** What a test asserts of a status key: a code, a range (`4XX`), or nothing (`default`). */
export function expectedOf(status: string): Expected {
  if (/^[1-5]\d\d$/.test(status)) return { code: Number(status) };
  if (/^[1-5]XX$/i.test(status)) return { range: Number(status[0]) };
  return { none: true };
}

function expectedSame(left: Expected, right: Expected): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** Whether a test asserting `expected` meets a declared status when it passes. */
function statusMeets(status: string, expected: Expected): boolean {
  if ('code' in expected) return status === String(expected.code) || status.toUpperCase() === `${Math.floor(expected.code / 100)}XX`;
  if ('range' in expected) return status.toUpperCase() === `${expected.range}XX`;
  return false;
}

/** A place in a body as a title shows it: `body.pet.tags[0]`; `body` for the body itself. */
function bodyPlace(at: string | undefined): string {
  if (at === undefined || at === '') return 'body';
  let shown = 'body';
  for (const token of at.slice(1).split('/')) {
    const name = token.replaceAll('~1', '/').replaceAll('~0', '~');
    shown += /^\d+$/.test(name) ? `[${name}]` : /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
  }
  return shown;
}

function describeBoundValue(keyword: BoundKeyword, placement: BoundPlacement): string {
  const edge = placement.half === 'edge';
  switch (keyword) {
    case 'minLength':
    case 'maxLength': {
      const count = edge ? placement.value : keyword === 'minLength' ? placement.value - 1 : placement.value + 1;
      return `of ${count} character${count === 1 ? '' : 's'}`;
    }
    case 'minItems':
    case 'maxItems': {
      const count = edge ? placement.value : keyword === 'minItems' ? placement.value - 1 : placement.value + 1;
      return `of ${count} item${count === 1 ? '' : 's'}`;
    }
    case 'minimum':
      return `= ${edge ? placement.value : placement.value - 1}`;
    case 'maximum':
      return `= ${edge ? placement.value : placement.value + 1}`;
    case 'exclusiveMinimum':
      return `= ${edge ? placement.value + 1 : placement.value}`;
    default:
      return `= ${edge ? placement.value - 1 : placement.value}`;
  }
}

/** A value as a title shows it: text as it is (cut at 40 characters), a long repeated one by its length, anything else as JSON. */
function showValue(value: unknown): string {
  if (value instanceof RepeatedText) return `${JSON.stringify(value.text)} × ${value.count}`;
  if (typeof value === 'object' && value !== null && 'variable' in value) return '…';
  return cut(typeof value === 'string' ? value : jsonText(value));
}

/** A document value as a title or comment shows it: as JSON, cut at 40 characters. */
function showJson(value: unknown): string {
  return cut(jsonText(value));
}

/** A value's JSON: values here are the document's or made from it, so JSON can say each. */
function jsonText(value: unknown): string {
  return JSON.stringify(value);
}

/** Names as a title lists them: three at most, then how many more (the test's comment lists every one). */
function listed(names: readonly string[]): string {
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}

/** Text cut at 40 characters, ending with … when it was. */
function cut(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function isEnvironment(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'variable' in value;
}
