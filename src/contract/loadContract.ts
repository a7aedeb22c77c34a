import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigurationError, InputSyntaxError, QualityEvidenceError, type ConfigurationIssue } from '../errors.js';
import { parseInputJson } from '../input/parseInputJson.js';
import type { FileSystem } from '../io/fileSystem.js';
import { readInputFile } from '../io/readInputFile.js';
import { formatIssuePath } from '../issues/issuePath.js';
import { quotePath, quoteText, shorten } from '../renderValue.js';
import type { Contract, ContractDocument, ContractOperation, DeclaredResponse, MediaTypeSchema, OpenApiVersion } from './contract.js';
import { isLiteral } from './documentLiterals.js';
import { followRef, pointerOf } from './documentPointers.js';
import { refuseEndlessDocument } from './documentShape.js';
import { toJsonSchema2020 } from './jsonSchemaDialect.js';
import { refuseUnusableSchemas } from './schemaReferences.js';

/**
 * The largest OpenAPI document read, in bytes: far above the largest public
 * descriptions (GitHub's REST API, about 11 MB as JSON), far below what
 * would exhaust memory, and bounded so that `/dev/zero` stops at once.
 */
export const OPENAPI_FILE_LIMIT_BYTES = 64 * 1024 * 1024;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;

/**
 * Reads the API's contract: each OpenAPI document (Swagger 2.0, OpenAPI 3.0
 * or 3.1; YAML or JSON) through the bounded strict reader, with `$ref`s to
 * other local files brought in (a remote `$ref` is refused: no network is
 * ever used), and its operations in the document's order. A document that
 * does not parse, or is not OpenAPI, is a ConfigurationError (78) naming the
 * file and the place; one that cannot be read is an InputUnreadableError
 * (66); one past the limit or not UTF-8 is bad data (65). `yaml` and the
 * `$ref` bundler load only here, only when a contract is given.
 */
export async function loadContract(paths: readonly string[], fileSystem: FileSystem): Promise<Contract> {
  const documents: ContractDocument[] = [];
  const operations: ContractOperation[] = [];
  const read = new Set<string>();
  const files = new Set<string>();
  for (const path of paths) {
    // One file named twice, however spelled (`api.yaml`, `./api.yaml`, a link to it), is one document, read once.
    const facts = await fileSystem.stat(path);
    const identity = facts === undefined ? undefined : `${facts.device}:${facts.inode}`;
    if (identity !== undefined && read.has(identity)) continue;
    if (identity !== undefined) read.add(identity);
    files.add(path);
    const { document, refersElsewhere } = await readDocument(path, fileSystem);
    const version = versionOf(document, path);
    const bundled = refersElsewhere ? await bundleExternalRefs(path, document, fileSystem, (file) => files.add(file)) : document;
    // Parts brought in at depth nest deeper than each file alone.
    if (bundled !== document) refuseEndlessDocument(bundled, path);
    toJsonSchema2020(bundled, version);
    refuseUnusableSchemas(bundled, path);
    const documentIndex = documents.length;
    documents.push({ path, version, bundled });
    for (const operation of operationsOf(bundled, version, documentIndex)) operations.push(operation);
  }
  refuseSharedOperationIds(operations, documents);
  return { documents, operations, files: [...files] };
}

/**
 * Refuses two operations with one operationId, in one document or two:
 * OpenAPI requires an operationId to be unique among all the operations of
 * an API, and a budget that names one must judge one operation.
 */
function refuseSharedOperationIds(operations: readonly ContractOperation[], documents: readonly ContractDocument[]): void {
  const documentOf = (operation: ContractOperation) => quotePath(documents[operation.documentIndex]!.path);
  const placeOf = (operation: ContractOperation) =>
    `${formatIssuePath(['paths', operation.path, operation.method.toLowerCase()])} in ${documentOf(operation)}`;
  const first = new Map<string, ContractOperation>();
  const issues: ConfigurationIssue[] = [];
  for (const operation of operations) {
    if (operation.operationId === undefined) continue;
    const earlier = first.get(operation.operationId);
    if (earlier === undefined) first.set(operation.operationId, operation);
    else {
      issues.push({
        variable: `${formatIssuePath(['paths', operation.path, operation.method.toLowerCase(), 'operationId'])} in ${documentOf(operation)}`,
        message:
          `${quoteText(operation.operationId, 120)} is already the operationId of ${placeOf(earlier)}: ` +
          'an operationId names one operation (OpenAPI requires it unique), as budgets name operations by it',
      });
    }
  }
  if (issues.length > 0) throw new ConfigurationError(issues, 'OpenAPI document');
}

/** A document, read and parsed, its `$ref`s checked, and whether one names another file. */
async function readDocument(path: string, fileSystem: FileSystem): Promise<{ readonly document: Json; readonly refersElsewhere: boolean }> {
  const text = await readInputFile(fileSystem, path, 'OpenAPI document', OPENAPI_FILE_LIMIT_BYTES);
  const document = await parseDocumentText(text, path);
  const refs = refuseUnreadableRefs(document, path);
  return { document, refersElsewhere: refs.some(({ ref }) => !ref.startsWith('#')) };
}

/** A document's text as JSON (when it starts as JSON) or YAML, or a ConfigurationError with the line and column. */
async function parseDocumentText(text: string, path: string): Promise<Json> {
  let document: unknown;
  if (/^\s*[{[]/.test(text)) {
    try {
      document = parseInputJson(text);
    } catch (error) {
      if (!(error instanceof InputSyntaxError)) throw error;
      throw notParsed(path, 'is not well-formed JSON', error.line, error.column);
    }
  } else {
    const { parseDocument } = await import('yaml');
    const parsed = parseDocument(text, { uniqueKeys: true });
    const [error] = parsed.errors;
    // yaml reads nested collections by recursion, and reports the stack it ran out of as a parse error.
    const what =
      error?.message.startsWith('Maximum call stack size exceeded') === true
        ? 'nests values too deeply to read as YAML'
        : 'is not well-formed YAML';
    if (error !== undefined) throw notParsed(path, what, error.linePos?.[0].line, error.linePos?.[0].col);
    try {
      document = parsed.toJS({ maxAliasCount: YAML_ALIAS_LIMIT });
    } catch (error) {
      // yaml refuses an alias bomb ("billion laughs") with a ReferenceError, before expanding it.
      if (!(error instanceof ReferenceError)) throw error;
      const message = error.message.startsWith('Excessive alias count')
        ? `has YAML aliases that would expand it past what is read (yaml's maxAliasCount, ${YAML_ALIAS_LIMIT}): an alias bomb`
        : `has a YAML alias that cannot be resolved: ${shorten(error.message, 120)}`;
      throw new ConfigurationError([{ variable: quotePath(path), message }], 'OpenAPI document');
    }
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ConfigurationError(
      [{ variable: quotePath(path), message: 'is not an OpenAPI document: it must hold an object' }],
      'OpenAPI document',
    );
  }
  refuseEndlessDocument(document, path);
  return document as Json;
}

/** How far YAML aliases may expand a document (yaml's `maxAliasCount`; its default is 100). */
const YAML_ALIAS_LIMIT = 1000;

function notParsed(path: string, what: string, line: number | undefined, column: number | undefined): ConfigurationError {
  const at = line === undefined ? '' : ` at line ${line}, column ${String(column)}`;
  return new ConfigurationError([{ variable: quotePath(path), message: `${what}${at}` }], 'OpenAPI document');
}

function versionOf(document: Json, path: string): OpenApiVersion {
  const { openapi, swagger } = document;
  if (typeof openapi === 'string' && /^3\.0\.\d+$/.test(openapi)) return '3.0';
  if (typeof openapi === 'string' && /^3\.1\.\d+$/.test(openapi)) return '3.1';
  if (swagger === '2.0') return '2.0';
  const found = typeof openapi === 'string' ? `it says openapi ${JSON.stringify(openapi.slice(0, 20))}` : 'it has neither';
  throw new ConfigurationError(
    [
      {
        variable: quotePath(path),
        message: `is not an OpenAPI document this version reads: it needs "openapi": "3.0.x" or "3.1.x", or "swagger": "2.0"; ${found}`,
      },
    ],
    'OpenAPI document',
  );
}

/** Every `$ref` in a value that is a reference (not inside a literal), with its place, depth first in document order. */
function refsOf(value: unknown): { readonly ref: string; readonly path: readonly PropertyKey[] }[] {
  const refs: { ref: string; path: PropertyKey[] }[] = [];
  // One path, pushed and popped: a description holds a million values, and copying the path at each would cost seconds.
  const path: PropertyKey[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      if (path[path.length - 1] === 'examples') return;
      for (let index = 0; index < node.length; index++) {
        path.push(index);
        visit(node[index]);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(node)) {
      if (isLiteral(path[path.length - 1], key, path[path.length - 2])) continue;
      const item = (node as Json)[key];
      path.push(key);
      if (key === '$ref' && typeof item === 'string') refs.push({ ref: item, path: [...path] });
      else visit(item);
      path.pop();
    }
  };
  visit(value);
  return refs;
}

/**
 * The `$ref` keys inside literals renamed (and back): the bundler follows
 * every `$ref` it meets, so those in examples and defaults are hidden from
 * it while it works.
 */
function hideLiteralRefs(value: unknown, hide: boolean, path: PropertyKey[] = [], inLiteral = false): void {
  if (typeof value !== 'object' || value === null) return;
  const [from, to] = hide ? ['$ref', HIDDEN_REF] : [HIDDEN_REF, '$ref'];
  if (Array.isArray(value)) {
    const literal = inLiteral || path[path.length - 1] === 'examples';
    value.forEach((item, index) => {
      hideLiteralRefs(item, hide, [...path, index], literal);
    });
    return;
  }
  const object = value as Json;
  if (inLiteral && Object.hasOwn(object, from)) {
    object[to] = object[from];
    Reflect.deleteProperty(object, from);
  }
  for (const [key, item] of Object.entries(object))
    hideLiteralRefs(item, hide, [...path, key], inLiteral || isLiteral(path[path.length - 1], key, path[path.length - 2]));
}

const HIDDEN_REF = '\u0000quality-evidence:$ref';

/** Refuses a `$ref` to a remote document, and one whose percent-encoding is malformed (`%E0%A4%A`), each at its place; the `$ref`s otherwise. */
function refuseUnreadableRefs(document: Json, path: string): readonly { readonly ref: string }[] {
  const issues: ConfigurationIssue[] = [];
  const refs = refsOf(document);
  for (const { ref, path: place } of refs) {
    const variable = `${formatIssuePath(place)} in ${quotePath(path)}`;
    if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(ref) && !ref.startsWith('file:')) {
      issues.push({
        variable,
        message:
          'refers to a remote document, which is never fetched (no network is used): save it beside this one and refer to it by a relative path',
      });
    } else if (!isDecodable(ref)) {
      issues.push({
        variable,
        message: `is ${quoteText(ref, 120)}, whose percent-encoding is malformed (each % starts two hexadecimal digits of UTF-8)`,
      });
    }
  }
  if (issues.length > 0) throw new ConfigurationError(issues, 'OpenAPI document');
  return refs;
}

function isDecodable(ref: string): boolean {
  try {
    decodeURIComponent(ref);
    return true;
  } catch {
    return false;
  }
}

/**
 * Brings the documents that `$ref`s name by relative path into the document
 * (`@apidevtools/json-schema-ref-parser`'s bundle: each external part once,
 * referred to within the document after), each file read through the run's
 * file system and parsed as the document is.
 */
async function bundleExternalRefs(path: string, document: Json, fileSystem: FileSystem, read: (file: string) => void): Promise<Json> {
  const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const root = isAbsolute(path) ? path : resolve(path);
  // The bundler wraps what a plugin throws in its own errors: the first of ours is kept, to be thrown as it is.
  let ours: QualityEvidenceError | undefined;
  const keep = <Result>(work: () => Promise<Result>): Promise<Result> =>
    work().catch((error: unknown) => {
      if (error instanceof QualityEvidenceError) ours ??= error;
      throw error;
    });
  try {
    const bundle = $RefParser.bundle.bind($RefParser) as (path: string, schema: unknown, options: unknown) => Promise<unknown>;
    hideLiteralRefs(document, true);
    const bundled = await bundle(root, document, {
      parse: {
        json: false,
        yaml: false,
        text: false,
        binary: false,
        openapi: {
          order: 1,
          canParse: true,
          parse: (file: { url: string; data: unknown }) =>
            keep(async () => {
              const filePath = fileSystemPath(file.url);
              const text =
                typeof file.data === 'string' ? file.data : Buffer.isBuffer(file.data) ? file.data.toString('utf8') : String(file.data);
              const part = await parseDocumentText(text, filePath);
              refuseUnreadableRefs(part, filePath);
              hideLiteralRefs(part, true);
              return part;
            }),
        },
      },
      resolve: {
        http: false,
        file: {
          order: 1,
          canRead: true,
          read: (file: { url: string }) =>
            keep(() => {
              const filePath = fileSystemPath(file.url);
              // Spelled from the document's path as given, as a message names it.
              read(join(dirname(path), relative(dirname(root), filePath)));
              return readInputFile(fileSystem, filePath, 'OpenAPI document', OPENAPI_FILE_LIMIT_BYTES);
            }),
        },
      },
      mutateInputSchema: false,
    });
    hideLiteralRefs(bundled, false);
    return bundled as Json;
  } catch (error) {
    if (ours !== undefined) throw ours;
    if (error instanceof QualityEvidenceError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(
      [{ variable: quotePath(path), message: `has a $ref that cannot be resolved: ${message.split('\n')[0]?.slice(0, 200) ?? ''}` }],
      'OpenAPI document',
    );
  }
}

function fileSystemPath(url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

function operationsOf(document: Json, version: OpenApiVersion, documentIndex: number): ContractOperation[] {
  const paths = document['paths'];
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) return [];
  const operations: ContractOperation[] = [];
  const documentBasePaths = version === '2.0' ? [basePathOf(document['basePath'])] : serverPathsOf(document['servers']);
  for (const [template, rawItem] of Object.entries(paths)) {
    if (!template.startsWith('/')) continue;
    const { value: item, pointer: itemPointer } = followRef(document, rawItem, pointerOf('paths', template));
    if (typeof item !== 'object' || item === null) continue;
    const pathItem = item as Json;
    const itemBasePaths = version === '2.0' ? documentBasePaths : serverPathsOf(pathItem['servers'], documentBasePaths);
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (typeof operation !== 'object' || operation === null) continue;
      const op = operation as Json;
      const opPointer = `${itemPointer}/${method}`;
      const parameters = [...parametersOf(document, pathItem['parameters']), ...parametersOf(document, op['parameters'])];
      const operationId = typeof op['operationId'] === 'string' ? op['operationId'] : undefined;
      const produces = stringList(op['produces']) ?? stringList(document['produces']) ?? ['application/json'];
      const consumes = stringList(op['consumes']) ?? stringList(document['consumes']) ?? ['application/json'];
      operations.push({
        method: method.toUpperCase(),
        path: template,
        basePaths: version === '2.0' ? itemBasePaths : serverPathsOf(op['servers'], itemBasePaths),
        integerParameters: parameters
          .filter(({ value }) => value['in'] === 'path' && isIntegerParameter(document, value, version))
          .map(({ value }) => String(value['name'])),
        label: `${method.toUpperCase()} ${template}`,
        ...(operationId === undefined ? {} : { operationId }),
        tags: stringList(op['tags']) ?? [],
        deprecated: op['deprecated'] === true,
        responses: responsesOf(document, op['responses'], `${opPointer}/responses`, version, produces),
        ...requestBodyOf(document, op, parameters, opPointer, version, consumes),
        documentIndex,
      });
    }
  }
  return operations;
}

function parametersOf(document: Json, value: unknown): { readonly value: Json; readonly pointer: string }[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((parameter) => followRef(document, parameter, ''))
    .filter((followed): followed is { value: Json; pointer: string } => typeof followed.value === 'object' && followed.value !== null)
    .map(({ value: parameter, pointer }) => ({ value: parameter, pointer }));
}

function isIntegerParameter(document: Json, parameter: Json, version: OpenApiVersion): boolean {
  if (version === '2.0') return parameter['type'] === 'integer';
  const schema = followRef(document, parameter['schema'], '').value;
  if (typeof schema !== 'object' || schema === null) return false;
  const type = (schema as Json)['type'];
  return (
    type === 'integer' || (Array.isArray(type) && type.includes('integer') && type.every((item) => item === 'integer' || item === 'null'))
  );
}

function responsesOf(
  document: Json,
  value: unknown,
  pointer: string,
  version: OpenApiVersion,
  produces: readonly string[],
): DeclaredResponse[] {
  if (typeof value !== 'object' || value === null) return [];
  const responses: DeclaredResponse[] = [];
  for (const [status, raw] of Object.entries(value as Json)) {
    if (!/^(?:[1-5](?:\d\d|XX)|default)$/i.test(status)) continue;
    const { value: response, pointer: responsePointer } = followRef(document, raw, `${pointer}/${pointerOf(status).slice(2)}`);
    const content: MediaTypeSchema[] = [];
    if (typeof response === 'object' && response !== null) {
      const body = response as Json;
      if (version === '2.0') {
        if (body['schema'] !== undefined)
          for (const mediaType of produces)
            content.push({ mediaType: mediaType.toLowerCase(), schemaPointer: `${responsePointer}/schema` });
      } else for (const media of mediaTypesOf(body['content'], `${responsePointer}/content`)) content.push(media);
    }
    responses.push({ status, content });
  }
  return responses;
}

function mediaTypesOf(value: unknown, pointer: string): MediaTypeSchema[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value as Json).map(([mediaType, media]) => {
    const hasSchema = typeof media === 'object' && media !== null && (media as Json)['schema'] !== undefined;
    return {
      mediaType: mediaType.toLowerCase(),
      ...(hasSchema ? { schemaPointer: `${pointer}/${pointerOf(mediaType).slice(2)}/schema` } : {}),
    };
  });
}

function requestBodyOf(
  document: Json,
  operation: Json,
  parameters: readonly { readonly value: Json; readonly pointer: string }[],
  pointer: string,
  version: OpenApiVersion,
  consumes: readonly string[],
): { readonly requestBody?: MediaTypeSchema[] } {
  if (version === '2.0') {
    const body = Array.isArray(operation['parameters'])
      ? (operation['parameters'] as unknown[]).findIndex(
          (parameter) => typeof parameter === 'object' && parameter !== null && (parameter as Json)['in'] === 'body',
        )
      : -1;
    if (body >= 0)
      return {
        requestBody: consumes.map((mediaType) => ({
          mediaType: mediaType.toLowerCase(),
          schemaPointer: `${pointer}/parameters/${body}/schema`,
        })),
      };
    return parameters.some(({ value }) => value['in'] === 'body')
      ? { requestBody: consumes.map((mediaType) => ({ mediaType: mediaType.toLowerCase() })) }
      : {};
  }
  const { value: requestBody, pointer: bodyPointer } = followRef(document, operation['requestBody'], `${pointer}/requestBody`);
  if (typeof requestBody !== 'object' || requestBody === null) return {};
  return { requestBody: mediaTypesOf((requestBody as Json)['content'], `${bodyPointer}/content`) };
}

/** 2.0's `basePath` as a base path: no trailing slash, `''` for none or `/`. */
function basePathOf(value: unknown): string {
  return typeof value === 'string' ? withoutTrailingSlash(value) : '';
}

/** The paths of `servers[].url` (variables at their defaults), each a base path; the inherited ones when none is given. */
function serverPathsOf(servers: unknown, inherited: readonly string[] = ['']): readonly string[] {
  if (!Array.isArray(servers) || servers.length === 0) return inherited;
  const paths = servers.map((server) => {
    if (typeof server !== 'object' || server === null || typeof (server as Json)['url'] !== 'string') return '';
    const variables = (server as Json)['variables'];
    const url = ((server as Json)['url'] as string).replace(/\{([^}]*)\}/g, (_, name: string) => {
      const variable = typeof variables === 'object' && variables !== null ? (variables as Json)[name] : undefined;
      const fallback = typeof variable === 'object' && variable !== null ? (variable as Json)['default'] : undefined;
      return typeof fallback === 'string' ? fallback : '';
    });
    return withoutTrailingSlash(pathOfServerUrl(url));
  });
  return [...new Set(paths)];
}

function pathOfServerUrl(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || url.startsWith('//')) {
    try {
      return new URL(url.startsWith('//') ? `http:${url}` : url).pathname;
    } catch {
      return '';
    }
  }
  return url.startsWith('/') ? url : `/${url}`;
}

function withoutTrailingSlash(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' || trimmed === '/' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}
