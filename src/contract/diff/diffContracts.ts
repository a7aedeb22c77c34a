import type { Contract, ContractOperation, MediaTypeSchema, OpenApiVersion } from '../contract.js';
import { followRef, pointerBelow, pointerOf, pointerTokens, valueAtPointer } from '../documentPointers.js';
import { CHANGE_RULES, type ChangeRule } from './changeRules.js';
import { compareSchemas, type SchemaFinding, type SchemaSide } from './compareSchemas.js';
import type { ChangedOperation, ChangeSubject, ContractChange } from './contractChange.js';
import type { SchemaAt } from './schemaView.js';

type Json = Record<string, unknown>;

/** An operation where it is in its document. */
interface Located {
  readonly operation: ContractOperation;
  readonly document: unknown;
  readonly version: OpenApiVersion;
  /** The Operation object, its path item's `$ref` followed. */
  readonly object: Json;
  readonly pointer: string;
  readonly pathItem: Json;
  readonly pathItemPointer: string;
}

/** A parameter of an operation, the path item's and the operation's together (the operation's win). */
interface Parameter {
  readonly in: string;
  readonly name: string;
  readonly required: boolean;
  readonly pointer: string;
  readonly schema: SchemaAt | undefined;
}

/**
 * Every change between two contracts that matters to a client (issue 38,
 * docs/contract-diff.md): operations matched by method and path with the
 * names of their path parameters erased (`/users/{id}` and
 * `/users/{userId}` are one operation, renamed), then their parameters (by
 * `in` and name; path parameters by position), request bodies (by media
 * type) and responses (by status) compared, schemas with their `$ref`s
 * followed and `allOf` merged. Pure; in HEAD's operation order, then the
 * operations HEAD removed in BASE's, each operation's changes by pointer.
 */
export function diffContracts(base: Contract, head: Contract): ContractChange[] {
  const baseOperations = new Map<string, Located>();
  for (const operation of base.operations) {
    const key = documentOperationKey(operation);
    if (!baseOperations.has(key)) baseOperations.set(key, locate(base, operation));
  }
  const changes: ContractChange[] = [];
  const matched = new Set<string>();
  for (const operation of head.operations) {
    const key = documentOperationKey(operation);
    if (matched.has(key)) continue;
    matched.add(key);
    const now = locate(head, operation);
    const was = baseOperations.get(key);
    if (was === undefined) changes.push(...inOrder([change(now, 'operation-added', { head: now.pointer }, OPERATION, 'operation added')]));
    else changes.push(...inOrder(compareOperations(was, now)));
  }
  for (const [key, was] of baseOperations) {
    if (matched.has(key)) continue;
    changes.push(change(was, 'operation-removed', { base: was.pointer }, OPERATION, 'operation removed'));
  }
  return changes;
}

const OPERATION: ChangeSubject = { kind: 'operation' };

/**
 * Its method and path, the names of its path parameters erased: `GET /users/{}`.
 * Stricter than the evidence's `operationKey` (changeEvidence.ts), which reads
 * labels calls were given: two documents' `/users/` and `/users` are two
 * paths OpenAPI tells apart, where a call's repeated or trailing slash is no
 * other endpoint.
 */
function documentOperationKey(operation: ContractOperation): string {
  return `${operation.method} ${operation.path.replace(/\{[^}]*\}/g, '{}')}`;
}

function locate(contract: Contract, operation: ContractOperation): Located {
  const { bundled: document, version } = contract.documents[operation.documentIndex]!;
  const itemPointer = pointerOf('paths', operation.path);
  const item = followRef(document, valueAtPointer(document, itemPointer), itemPointer);
  const pointer = `${item.pointer}/${operation.method.toLowerCase()}`;
  return {
    operation,
    document,
    version,
    object: asObject(valueAtPointer(document, pointer)) ?? {},
    pointer,
    pathItem: asObject(item.value) ?? {},
    pathItemPointer: item.pointer,
  };
}

function compareOperations(was: Located, now: Located): ContractChange[] {
  const changes: ContractChange[] = [];
  if (was.operation.path !== now.operation.path) {
    changes.push(
      change(
        now,
        'path-parameter-renamed',
        { base: was.pointer, head: now.pointer },
        OPERATION,
        `path ${was.operation.path} renamed to ${now.operation.path}`,
      ),
    );
  }
  changes.push(...compareParameters(was, now), ...compareRequestBodies(was, now), ...compareResponses(was, now));
  return changes;
}

function compareParameters(was: Located, now: Located): ContractChange[] {
  const changes: ContractChange[] = [];
  const before = parametersOf(was);
  const after = parametersOf(now);
  for (const [key, parameter] of before) {
    const current = after.get(key);
    const subject: ChangeSubject = { kind: 'parameter', in: parameter.in, name: current?.name ?? parameter.name };
    const what = `${parameter.in} parameter ${current?.name ?? parameter.name}`;
    if (current === undefined) {
      changes.push(change(now, 'request-parameter-removed', { base: parameter.pointer }, subject, `${what} removed`));
      continue;
    }
    if (!parameter.required && current.required)
      changes.push(
        change(
          now,
          'request-parameter-made-required',
          { base: parameter.pointer, head: current.pointer },
          subject,
          `${what} made required`,
        ),
      );
    if (parameter.schema !== undefined && current.schema !== undefined) {
      for (const finding of compareSchemas(was.document, now.document, 'request', parameter.schema, current.schema))
        changes.push(change(now, finding.rule, finding, subject, `${what}: ${detailOf(finding)}`));
    }
  }
  for (const [key, parameter] of after) {
    if (before.has(key)) continue;
    const rule = parameter.required ? 'request-parameter-added-required' : 'request-parameter-added-optional';
    const subject: ChangeSubject = { kind: 'parameter', in: parameter.in, name: parameter.name };
    changes.push(
      change(
        now,
        rule,
        { head: parameter.pointer },
        subject,
        `${parameter.in} parameter ${parameter.name} added as ${parameter.required ? 'required' : 'optional'}`,
      ),
    );
  }
  return changes;
}

/**
 * An operation's parameters by a key of their own: `in` and name (a
 * header's in lower case, as HTTP reads it), and a path parameter by its
 * place in the path, so that renaming it is no removal. 2.0's body
 * parameter is the request body, compared there.
 */
function parametersOf(located: Located): Map<string, Parameter> {
  const parameters = new Map<string, Parameter>();
  const names = [...located.operation.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  const add = (list: unknown, pointer: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, index) => {
      const { value, pointer: at } = followRef(located.document, raw, `${pointer}/parameters/${index}`);
      const parameter = asObject(value);
      if (parameter === undefined || typeof parameter['name'] !== 'string' || typeof parameter['in'] !== 'string') return;
      const { name, in: where } = parameter as { name: string; in: string };
      if (where === 'body') return;
      const key =
        where === 'path' ? `path ${names.indexOf(name)}` : where === 'header' ? `header ${name.toLowerCase()}` : `${where} ${name}`;
      parameters.set(key, {
        in: where,
        name,
        required: parameter['required'] === true,
        pointer: at,
        schema: parameterSchema(located, parameter, at),
      });
    });
  };
  add(located.pathItem['parameters'], located.pathItemPointer);
  add(located.object['parameters'], located.pointer);
  return parameters;
}

/** A parameter's schema: 3.x's `schema` (or its one media type's), 2.0's parameter itself, whose `type`, `format` and bounds are a schema's. */
function parameterSchema(located: Located, parameter: Json, pointer: string): SchemaAt | undefined {
  if (located.version === '2.0') return { schema: parameter, pointer };
  if (parameter['schema'] !== undefined) return { schema: parameter['schema'], pointer: `${pointer}/schema` };
  const content = asObject(parameter['content']);
  const [mediaType] = content === undefined ? [] : Object.keys(content);
  if (mediaType === undefined) return undefined;
  const media = asObject(content![mediaType]);
  return media?.['schema'] === undefined
    ? undefined
    : { schema: media['schema'], pointer: pointerBelow(`${pointer}/content`, mediaType, 'schema') };
}

/** The request body: where it is, whether it is required, and its media types. */
function requestBodyOf(
  located: Located,
): { readonly pointer: string; readonly required: boolean; readonly media: readonly MediaTypeSchema[] } | undefined {
  const media = located.operation.requestBody;
  if (media === undefined) return undefined;
  if (located.version === '2.0') {
    const list = Array.isArray(located.object['parameters']) ? (located.object['parameters'] as unknown[]) : [];
    const index = list.findIndex((parameter) => asObject(followRef(located.document, parameter, '').value)?.['in'] === 'body');
    if (index < 0) return undefined;
    const { value, pointer } = followRef(located.document, list[index], `${located.pointer}/parameters/${index}`);
    return { pointer, required: asObject(value)?.['required'] === true, media };
  }
  const { value, pointer } = followRef(located.document, located.object['requestBody'], `${located.pointer}/requestBody`);
  return { pointer, required: asObject(value)?.['required'] === true, media };
}

function compareRequestBodies(was: Located, now: Located): ContractChange[] {
  const before = requestBodyOf(was);
  const after = requestBodyOf(now);
  if (before === undefined && after === undefined) return [];
  const subject: ChangeSubject = { kind: 'requestBody' };
  if (after === undefined) return [change(now, 'request-body-removed', { base: before!.pointer }, subject, 'request body removed')];
  if (before === undefined) {
    const rule = after.required ? 'request-body-added-required' : 'request-body-added-optional';
    return [change(now, rule, { head: after.pointer }, subject, `request body added as ${after.required ? 'required' : 'optional'}`)];
  }
  const changes: ContractChange[] = [];
  if (!before.required && after.required)
    changes.push(
      change(now, 'request-body-made-required', { base: before.pointer, head: after.pointer }, subject, 'request body made required'),
    );
  for (const media of before.media) {
    const current = after.media.find((candidate) => candidate.mediaType === media.mediaType);
    if (current === undefined) {
      const where = media.schemaPointer?.replace(/\/schema$/, '') ?? before.pointer;
      changes.push(
        change(
          now,
          'request-media-type-removed',
          { base: where },
          { kind: 'requestBody', mediaType: media.mediaType },
          `request body ${media.mediaType} removed`,
        ),
      );
      continue;
    }
    changes.push(
      ...compareBodies(was, now, 'request', media, current, (property) => ({ kind: 'requestProperty', property }), 'request body'),
    );
  }
  return changes;
}

function compareResponses(was: Located, now: Located): ContractChange[] {
  const changes: ContractChange[] = [];
  const statusKey = (status: string) => status.toUpperCase();
  const responsePointer = (located: Located, status: string) => {
    const at = pointerBelow(`${located.pointer}/responses`, status);
    return followRef(located.document, valueAtPointer(located.document, at), at).pointer;
  };
  for (const response of was.operation.responses) {
    const current = now.operation.responses.find((candidate) => statusKey(candidate.status) === statusKey(response.status));
    const subject: ChangeSubject = { kind: 'response', status: current?.status ?? response.status };
    if (current === undefined) {
      changes.push(
        change(
          now,
          'response-status-removed',
          { base: responsePointer(was, response.status) },
          subject,
          `response ${response.status} removed`,
        ),
      );
      continue;
    }
    for (const media of response.content) {
      const other = current.content.find((candidate) => candidate.mediaType === media.mediaType);
      if (other === undefined) {
        const where = media.schemaPointer?.replace(/\/schema$/, '') ?? responsePointer(was, response.status);
        changes.push(
          change(now, 'response-media-type-removed', { base: where }, subject, `response ${current.status}: ${media.mediaType} removed`),
        );
        continue;
      }
      const status = current.status;
      changes.push(
        ...compareBodies(
          was,
          now,
          'response',
          media,
          other,
          (property) => ({ kind: 'responseProperty', status, property }),
          `response ${status}`,
        ),
      );
    }
  }
  for (const response of now.operation.responses) {
    if (was.operation.responses.some((candidate) => statusKey(candidate.status) === statusKey(response.status))) continue;
    changes.push(
      change(
        now,
        'response-status-added',
        { head: responsePointer(now, response.status) },
        { kind: 'response', status: response.status },
        `response ${response.status} added`,
      ),
    );
  }
  return changes;
}

function compareBodies(
  was: Located,
  now: Located,
  side: SchemaSide,
  before: MediaTypeSchema,
  after: MediaTypeSchema,
  subjectOf: (property: readonly string[]) => ChangeSubject,
  place: string,
): ContractChange[] {
  if (before.schemaPointer === undefined || after.schemaPointer === undefined) return [];
  const schemaAt = (located: Located, pointer: string): SchemaAt => ({ schema: valueAtPointer(located.document, pointer), pointer });
  return compareSchemas(was.document, now.document, side, schemaAt(was, before.schemaPointer), schemaAt(now, after.schemaPointer)).map(
    (finding) => change(now, finding.rule, finding, subjectOf(finding.property), `${place}: ${detailOf(finding)}`),
  );
}

/** A finding in words, the property it is in named first: `property name: maxLength 100 changed to 50`. */
function detailOf(finding: SchemaFinding): string {
  const { property, detail } = finding;
  return property.length === 0 || detail.startsWith('property ') ? detail : `property ${property.join('.')}: ${detail}`;
}

function change(
  located: Located,
  rule: ChangeRule,
  pointers: { readonly base?: string | undefined; readonly head?: string | undefined },
  subject: ChangeSubject,
  message: string,
): ContractChange {
  const { operation } = located;
  const changed: ChangedOperation = {
    method: operation.method,
    path: operation.path,
    label: operation.label,
    ...(operation.operationId === undefined ? {} : { operationId: operation.operationId }),
  };
  const component = componentOf(pointers.head) ?? componentOf(pointers.base);
  return {
    rule,
    level: CHANGE_RULES[rule],
    operation: changed,
    ...(pointers.base === undefined ? {} : { base: pointers.base }),
    ...(pointers.head === undefined ? {} : { head: pointers.head }),
    ...(component === undefined ? {} : { component }),
    subject,
    message: `${operation.label}: ${message}`,
  };
}

/** The shared component a pointer is inside: `#/components/schemas/User` (3.x), `#/definitions/User` (2.0); undefined under `paths`. */
function componentOf(pointer: string | undefined): string | undefined {
  const tokens = pointer === undefined ? undefined : pointerTokens(pointer);
  if (tokens === undefined) return undefined;
  if (tokens[0] === 'components' && tokens.length >= 3) return pointerOf(...tokens.slice(0, 3));
  if ((tokens[0] === 'definitions' || tokens[0] === 'parameters' || tokens[0] === 'responses') && tokens.length >= 2)
    return pointerOf(...tokens.slice(0, 2));
  return undefined;
}

/** An operation's changes by pointer (HEAD's, else BASE's), then rule and message; one change found twice (two media types of one schema) once. */
function inOrder(changes: readonly ContractChange[]): ContractChange[] {
  const seen = new Set<string>();
  const unique = changes.filter((item) => {
    const key = JSON.stringify([item.rule, item.base, item.head, item.subject, item.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const order = (item: ContractChange) => `${item.head ?? item.base ?? ''}\u0000${item.rule}\u0000${item.message}`;
  return unique.sort((left, right) => (order(left) < order(right) ? -1 : order(left) > order(right) ? 1 : 0));
}

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}
