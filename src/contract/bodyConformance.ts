import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 as Ajv } from 'ajv/dist/2020.js';
import { MAX_RECORDED_VIOLATIONS, type BodyOutcome } from '../records/bodyCheck.js';
import type { BodyCheck } from '../records/bodyCheck.js';
import { conditionsMetBy, type ExaminedBody, type MetConditions, type ObservedCall } from './conditionsMet.js';
import type { Contract, ContractOperation, DeclaredResponse, MediaTypeSchema } from './contract.js';
import { isLiteral } from './documentLiterals.js';

/**
 * Checks the bodies of a call against the schemas of the operation it
 * matched: the response's by its status and media type, the request's by
 * its media type. Only JSON bodies are validated, with ajv's JSON Schema
 * 2020-12 dialect on the contract's bundled documents (3.0 and 2.0 schemas
 * were converted when the contract was loaded); each schema is compiled the
 * first time a body needs it. The outcome names the place in the body and
 * the schema keyword of each violation, never a value.
 */

/** Bodies larger than this are not validated (`tooLarge`): validation of a body costs time in proportion to its size, inside the test. */
export const BODY_VALIDATION_LIMIT_BYTES = 1024 * 1024;

/**
 * Bodies nested deeper than this are not validated (`tooDeep`): the
 * validator goes one call deeper (or more) for each level a recursive
 * schema follows, and a body 20,000 deep ran it out of stack. Real bodies
 * nest a few dozen levels; the limit leaves the stack ample room, and it is
 * the same in every process, so a body gets one outcome in the command and
 * in a test's worker alike.
 */
export const BODY_NESTING_LIMIT = 256;

/**
 * A body as the checker gets it: its bytes or text as they travelled, or,
 * for a request, the value the test handed Playwright (`data`, which
 * Playwright sends as JSON). Undefined or empty: no body.
 */
export type CheckedBody = { readonly text: string | Uint8Array } | { readonly value: unknown } | undefined;

/** A call as {@link BodyChecker.examine} takes it: its bodies, and what conditions.ts's parameters are read from. */
export interface ExaminedCall extends Omit<ObservedCall, 'requestBody' | 'responseBody'> {
  readonly responseContentType: string | undefined;
  /** Undefined when the response body could not be read: neither checked nor examined. */
  readonly responseBody: CheckedBody;
  readonly requestContentType: string | undefined;
  readonly requestBody: CheckedBody;
}

/** What a call's examination gives its record: the outcome of its body checks, and the conditions it met. */
export interface CallExamination {
  readonly bodyCheck: BodyCheck | undefined;
  readonly conditions: MetConditions | undefined;
}

export interface BodyChecker {
  /**
   * Checks a call's bodies and finds the conditions of its operation it met
   * (conditionsMet.ts), parsing each body once: a body not examined (not
   * JSON, too large, too deep, unparsable, no schema) meets no body condition.
   */
  examine(operation: ContractOperation, call: ExaminedCall): CallExamination;
  /** The outcome for a response, or undefined when there was nothing to check (no body, and none declared). */
  checkResponse(
    operation: ContractOperation,
    statusCode: number,
    contentType: string | undefined,
    body: CheckedBody,
  ): BodyOutcome | undefined;
  /** The outcome for a request body, or undefined when the call sent none. */
  checkRequest(operation: ContractOperation, contentType: string | undefined, body: CheckedBody): BodyOutcome | undefined;
}

/**
 * Makes the checker of a contract, loading ajv and the linear
 * regular-expression engine (only a run with a contract does). Each
 * document gets a validator of its own, made when a body first needs it: a
 * document's identifiers (`$id`, anchors) are its own, so two documents
 * that bring in one shared file never clash, and one document the
 * validator refuses leaves the others' bodies validated.
 */
export async function createBodyChecker(contract: Contract): Promise<BodyChecker> {
  const [{ Ajv2020 }, formats, regExp] = await Promise.all([
    import('ajv/dist/2020.js'),
    import('ajv-formats'),
    import('./linearRegExp.js').then(({ loadLinearRegExpEngine }) => loadLinearRegExpEngine()),
  ]);
  // ajv-formats is CommonJS whose exports are the plugin, with itself as `default`: the same function from an ES module and from CommonJS.
  const addFormats = formats.default.default;
  const validatorWith = (document: unknown, key: string): Ajv => {
    // strict off: OpenAPI schemas carry keywords of their own (discriminator, xml, example); verbose: a required property marked readOnly is told apart.
    const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false, logger: false, code: { regExp } });
    addFormats(ajv);
    for (const [name, validate] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, validate);
    ajv.addSchema(document as object, key);
    return ajv;
  };
  const documentValidators = new Map<number, Ajv | undefined>();
  const documentValidatorOf = (documentIndex: number): Ajv | undefined => {
    if (documentValidators.has(documentIndex)) return documentValidators.get(documentIndex);
    const { bundled } = contract.documents[documentIndex]!;
    let ajv: Ajv | undefined;
    try {
      ajv = validatorWith(bundled, documentKey(documentIndex));
    } catch {
      // ajv reads identifiers inside examples too (OpenAPI's `example` is no keyword it knows), where two may well be alike:
      // then the document without its literals.
      try {
        ajv = validatorWith(withoutLiterals(bundled), documentKey(documentIndex));
      } catch {
        ajv = undefined;
      }
    }
    documentValidators.set(documentIndex, ajv);
    return ajv;
  };
  const validators = new Map<string, ValidateFunction | undefined>();
  const validatorOf = (documentIndex: number, pointer: string): ValidateFunction | undefined => {
    const key = `${documentKey(documentIndex)}${pointer}`;
    if (validators.has(key)) return validators.get(key);
    let validate: ValidateFunction | undefined;
    try {
      validate = documentValidatorOf(documentIndex)?.getSchema(key);
    } catch {
      validate = undefined;
    }
    validators.set(key, validate);
    return validate;
  };

  const check = (
    operation: ContractOperation,
    declared: readonly MediaTypeSchema[],
    contentType: string | undefined,
    body: CheckedBody,
    direction: 'response' | 'request',
  ): { readonly outcome: BodyOutcome | undefined; readonly examined?: ExaminedBody } => {
    if (isEmpty(body))
      return {
        outcome: declared.some((media) => media.schemaPointer !== undefined) ? { validated: false, reason: 'emptyBody' } : undefined,
      };
    if (declared.length === 0) return { outcome: { validated: false, reason: 'noSchema' } };
    const essence = 'value' in body! && contentType === undefined ? 'application/json' : mediaEssence(contentType);
    if (!isJsonMediaType(essence)) return { outcome: { validated: false, reason: 'notJson' } };
    const schemaPointer = mediaTypeFor(declared, essence)?.schemaPointer;
    if (schemaPointer === undefined) return { outcome: { validated: false, reason: 'noSchema' } };
    let value: unknown;
    if ('value' in body!) value = body.value;
    else {
      const { text } = body!;
      if ((typeof text === 'string' ? Buffer.byteLength(text) : text.byteLength) > BODY_VALIDATION_LIMIT_BYTES)
        return { outcome: { validated: false, reason: 'tooLarge' } };
      try {
        value = JSON.parse(typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8'));
      } catch {
        return { outcome: { validated: true, violationCount: 1, violations: [{ pointer: '', keyword: 'json' }] } };
      }
    }
    if (nestsDeeperThan(value, BODY_NESTING_LIMIT)) return { outcome: { validated: false, reason: 'tooDeep' } };
    const validate = validatorOf(operation.documentIndex, schemaPointer);
    if (validate === undefined) return { outcome: { validated: false, reason: 'schemaUnusable' } };
    const examined = { value, schemaPointer };
    try {
      if (validate(value)) return { outcome: { validated: true, violationCount: 0 }, examined };
    } catch {
      // The loader refuses the schemas that never end (see schemaReferences.ts); whatever else throws leaves this body unvalidated, never the test failed.
      return { outcome: { validated: false, reason: 'schemaUnusable' } };
    }
    const violations = (validate.errors ?? []).filter((error) => !ignoredFor(direction, error)).map(violationOf);
    const outcome: BodyOutcome =
      violations.length === 0
        ? { validated: true, violationCount: 0 }
        : { validated: true, violationCount: violations.length, violations: violations.slice(0, MAX_RECORDED_VIOLATIONS) };
    return { outcome, examined };
  };

  const checkResponse = (operation: ContractOperation, statusCode: number, contentType: string | undefined, body: CheckedBody) => {
    const declared = responseFor(operation.responses, statusCode);
    if (declared === undefined) return { outcome: isEmpty(body) ? undefined : ({ validated: false, reason: 'noSchema' } as const) };
    const { outcome, examined } = check(operation, declared.content, contentType, body, 'response');
    return { outcome, examined: examined === undefined ? undefined : { ...examined, statusKey: declared.status } };
  };
  const checkRequest = (operation: ContractOperation, contentType: string | undefined, body: CheckedBody) =>
    isEmpty(body) ? { outcome: undefined } : check(operation, operation.requestBody ?? [], contentType, body, 'request');
  // Whether a body matches a schema inside a document (a branch of a oneOf): the document's validator, the schema compiled once.
  const validates = (documentIndex: number, pointer: string, value: unknown): boolean | undefined => {
    const validate = validatorOf(documentIndex, pointer);
    if (validate === undefined) return undefined;
    try {
      return validate(value);
    } catch {
      return undefined;
    }
  };

  return {
    checkResponse: (operation, statusCode, contentType, body) => checkResponse(operation, statusCode, contentType, body).outcome,
    checkRequest: (operation, contentType, body) => checkRequest(operation, contentType, body).outcome,
    examine(operation, call) {
      const response =
        call.responseBody === undefined
          ? { outcome: undefined }
          : checkResponse(operation, call.statusCode, call.responseContentType, call.responseBody);
      const request = checkRequest(operation, call.requestContentType, call.requestBody);
      const bodyCheck =
        response.outcome === undefined && request.outcome === undefined
          ? undefined
          : {
              ...(response.outcome === undefined ? {} : { response: response.outcome }),
              ...(request.outcome === undefined ? {} : { request: request.outcome }),
            };
      const { path, query, headers, formFields, statusCode } = call;
      const observed: ObservedCall = {
        path,
        query,
        headers,
        formFields,
        statusCode,
        requestBody: 'examined' in request ? request.examined : undefined,
        responseBody: response.examined,
      };
      let conditions: MetConditions | undefined;
      try {
        conditions = conditionsMetBy(contract, operation, observed, validates);
      } catch {
        // A schema that walks deeper than the stack allows (a hostile document): the call's conditions are not examined.
        conditions = undefined;
      }
      return { bodyCheck, conditions };
    },
  };
}

const documentKey = (index: number): string => `quality-evidence:contract-document-${index}`;

/** Whether a value nests objects and arrays deeper than `limit` levels (`{}` is one), walked with a stack of its own. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? (item as unknown[]) : Object.values(item)) {
      if (typeof child !== 'object' || child === null) continue;
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

/** A copy of a document without its literals (examples, defaults, enums, consts), which hold data, not schemas. */
function withoutLiterals(value: unknown, parent?: PropertyKey, grandparent?: PropertyKey): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return parent === 'examples' ? [] : value.map((item: unknown, index) => withoutLiterals(item, index, parent));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!isLiteral(parent, key, grandparent)) copy[key] = withoutLiterals(item, key, parent);
  return copy;
}

// OpenAPI's formats that JSON Schema's do not name: numbers by their width, base64 bytes; binary and password constrain nothing.
const OPENAPI_FORMATS: Readonly<
  Record<string, { type: 'number'; validate: (value: number) => boolean } | { type: 'string'; validate: (value: string) => boolean }>
> = {
  int32: { type: 'number', validate: (value) => Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 },
  int64: { type: 'number', validate: (value) => Number.isInteger(value) },
  float: { type: 'number', validate: () => true },
  double: { type: 'number', validate: () => true },
  byte: { type: 'string', validate: (value) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value) },
  binary: { type: 'string', validate: () => true },
  password: { type: 'string', validate: () => true },
};

function isEmpty(body: CheckedBody): boolean {
  if (body === undefined) return true;
  if ('value' in body) return body.value === undefined;
  return typeof body.text === 'string' ? body.text.length === 0 : body.text.byteLength === 0;
}

/** The declared response for a status: its code, then its range (`2XX`, any case), then `default`. */
function responseFor(responses: readonly DeclaredResponse[], statusCode: number): DeclaredResponse | undefined {
  const code = String(statusCode);
  return (
    responses.find((response) => response.status === code) ??
    responses.find((response) => response.status.toUpperCase() === `${code[0]}XX`) ??
    responses.find((response) => response.status === 'default')
  );
}

/** `application/json; charset=utf-8` as `application/json`. */
export function mediaEssence(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** Whether a media type's essence is JSON (`application/json`, `application/problem+json`): the bodies validated. */
export function isJsonMediaType(essence: string): boolean {
  return essence === 'application/json' || essence.endsWith('+json');
}

/** The declared media type a body's matches: the same, then its type with `/*`, then `*\/*`. */
function mediaTypeFor(declared: readonly MediaTypeSchema[], essence: string): MediaTypeSchema | undefined {
  const byEssence = (wanted: string) => declared.find((media) => mediaEssence(media.mediaType) === wanted);
  return byEssence(essence) ?? byEssence(`${essence.split('/', 1)[0]!}/*`) ?? byEssence('*/*');
}

/**
 * A `required` error for a property its schema marks `readOnly` is no
 * violation in a request (the server sets it), nor one marked `writeOnly`
 * in a response (the server never sends it), as OpenAPI says.
 */
function ignoredFor(direction: 'response' | 'request', error: ErrorObject): boolean {
  if (error.keyword !== 'required') return false;
  const missing = (error.params as { missingProperty?: unknown }).missingProperty;
  const properties = (error.parentSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  const property =
    typeof missing === 'string' ? (properties?.[missing] as { readOnly?: unknown; writeOnly?: unknown } | undefined) : undefined;
  return direction === 'request' ? property?.readOnly === true : property?.writeOnly === true;
}

const MAX_POINTER_LENGTH = 1024;

/** An error as the place in the body and the keyword; for `required` and `additionalProperties` the place is the property's. */
function violationOf(error: ErrorObject): { pointer: string; keyword: string } {
  const params = error.params as { missingProperty?: unknown; additionalProperty?: unknown };
  const property =
    error.keyword === 'required'
      ? params.missingProperty
      : error.keyword === 'additionalProperties'
        ? params.additionalProperty
        : undefined;
  const pointer =
    typeof property === 'string' ? `${error.instancePath}/${property.replaceAll('~', '~0').replaceAll('/', '~1')}` : error.instancePath;
  return {
    pointer: pointer.length > MAX_POINTER_LENGTH ? pointer.slice(0, MAX_POINTER_LENGTH) : pointer,
    keyword: error.keyword.slice(0, 64),
  };
}
