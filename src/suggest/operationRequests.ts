import { isJsonMediaType, mediaEssence } from '../contract/bodyConformance.js';
import { parametersOf, type DeclaredParameter } from '../contract/conditions.js';
import type { ContractOperation, OpenApiVersion } from '../contract/contract.js';
import { followRef, pointerBelow, pointerOf, valueAtPointer } from '../contract/documentPointers.js';
import { isObject, RepeatedText, SchemaValues, type BoundPlacement } from './schemaValues.js';

/**
 * The requests a draft sends, built from an operation's document: its path
 * (with its base path) and path parameters, its query, header, cookie and
 * form parameters, the credentials its security asks for (read from the
 * environment, never written), and its body. A request is plain data here;
 * specSource.ts writes it as code.
 */

type Json = Record<string, unknown>;

/** A value the test reads from an environment variable when it runs: credentials, and headers the document gives no value for. */
export class EnvironmentValue {
  constructor(
    readonly variable: string,
    /** What it is, for the comment that asks for it: `the API key api_key (header X-API-Key)`. */
    readonly what: string,
  ) {}
}

/** A path parameter's value the document does not know (an id that must exist first): the reviewer supplies it. */
export class SuppliedValue {
  constructor(readonly parameter: DeclaredParameter) {}
}

/** A piece of a header's value: text, or a value read when the test runs. */
export type TextPart = string | EnvironmentValue | RepeatedText;

/** A request as a test sends it. */
export interface DraftRequest {
  /** Upper case: `GET`. */
  readonly method: string;
  /** The path, base path included: text as written, and values (encoded when the test runs, or when drafted). */
  readonly path: readonly (string | { readonly value: unknown })[];
  /** Query parameters in the document's order; a value is a scalar, a RepeatedText, an EnvironmentValue, or a list sent as the parameter repeated. */
  readonly query: readonly (readonly [string, unknown])[];
  readonly headers: readonly (readonly [string, readonly TextPart[]])[];
  readonly body?: DraftBody | undefined;
}

/** A request's body: JSON (`data`), a URL-encoded form (`form`) or a multipart one (`multipart`). */
export interface DraftBody {
  readonly kind: 'data' | 'form' | 'multipart';
  readonly value: unknown;
  /** Its media type, written as the request's content-type where Playwright would not set it so. */
  readonly mediaType: string;
}

/** How a request departs from the operation's plainest one (its required parameters and its body). */
export interface RequestPlan {
  /** Optional parameters to send too, by {@link parameterKey}. */
  readonly send?: ReadonlySet<string>;
  /** A required parameter to leave out, by {@link parameterKey}. */
  readonly leaveOut?: string | undefined;
  /** Places of conditions to meet, by scope: `body`, or a parameter's key. */
  readonly targets?: ReadonlyMap<string, ReadonlySet<string>>;
  /** A bound to place a value at, in a scope. */
  readonly bound?: { readonly scope: string; readonly placement: BoundPlacement } | undefined;
  /** The body: sent (the default), left out, or sent without its first required property. */
  readonly body?: 'send' | 'omit' | 'leaveOutRequired';
  /** Whether to send the credentials the operation's security asks for; default true. */
  readonly credentials?: boolean;
}

/** A request built, and what it meets. */
export interface BuiltRequest {
  readonly request: DraftRequest;
  /**
   * What it meets, each a key: `in:name sent` and `in:name omitted` for
   * parameters, `in:name|place` for a place in a parameter's schema,
   * `body|place` for one in the body's (places as the conditions spell
   * them, bounds as `reached:place` and `outside:place`), each with the
   * place in the body that meets it (`/tags/0`; `''` for a parameter's).
   */
  readonly meets: ReadonlyMap<string, string>;
  /** The value each parameter sent takes, by {@link parameterKey}. */
  readonly values: ReadonlyMap<string, unknown>;
  /** Path parameters it needs whose value the document does not give. */
  readonly supplied: readonly DeclaredParameter[];
  /** Why it cannot be sent as drafted (a file to upload, a body of a type not drafted), when so. */
  readonly unsupported?: string | undefined;
  /** What it reads from the environment. */
  readonly environment: readonly EnvironmentValue[];
  /** What a request meant to be refused leaves out, in words: `the body`, `body.name`, `the query parameter limit`. */
  readonly leftOut?: string | undefined;
}

/** What a parameter's key is: its place and name, `query:limit`. */
export function parameterKey(parameter: { readonly in: string; readonly name: string }): string {
  return `${parameter.in}:${parameter.name}`;
}

/** One operation as requests are built for it: read once. */
export class OperationRequests {
  readonly parameters: readonly DeclaredParameter[];
  /** The JSON media types of its request body and their schemas, in the document's order. */
  readonly jsonBodies: readonly { readonly mediaType: string; readonly schemaPointer: string }[];
  /** A body of another kind, when it declares no JSON one: its media type. */
  readonly otherBody: string | undefined;
  readonly bodyRequired: boolean;
  readonly secured: boolean;
  /** Swagger 2.0's `consumes` (the operation's, else the document's): whether form fields go as multipart. */
  private readonly consumes: readonly string[];
  private readonly credentials: readonly Credential[];
  private readonly operationObject: Json;

  constructor(
    private readonly values: SchemaValues,
    readonly operation: ContractOperation,
    readonly document: unknown,
    version: OpenApiVersion,
  ) {
    const paths = isObject(document) ? document['paths'] : undefined;
    const item = followRef(document, isObject(paths) ? paths[operation.path] : undefined, pointerOf('paths', operation.path));
    const method = operation.method.toLowerCase();
    const operationPointer = pointerBelow(item.pointer, method);
    const operationObject = isObject(item.value) ? item.value[method] : undefined;
    this.operationObject = isObject(operationObject) ? operationObject : {};
    this.parameters = parametersOf(document, version, item.value, item.pointer, operationObject, operationPointer);
    const bodies = operation.requestBody ?? [];
    const json: { mediaType: string; schemaPointer: string }[] = [];
    for (const { mediaType, schemaPointer } of bodies)
      if (
        schemaPointer !== undefined &&
        isJsonMediaType(mediaEssence(mediaType)) &&
        !json.some((body) => body.schemaPointer === schemaPointer)
      )
        json.push({ mediaType, schemaPointer });
    this.jsonBodies = json;
    this.otherBody = json.length === 0 ? bodies[0]?.mediaType : undefined;
    this.bodyRequired = bodyRequiredIn(document, version, this.operationObject, operationPointer);
    this.credentials = credentialsOf(document, version, this.operationObject);
    const consumes = this.operationObject['consumes'] ?? (isObject(document) ? document['consumes'] : undefined);
    this.consumes = Array.isArray(consumes) ? consumes.filter((item): item is string => typeof item === 'string') : [];
    this.secured = this.credentials.length > 0;
  }

  /** Its response for a status key, as the document writes it, for the words of a comment (`description`). */
  responseDescription(status: string): string | undefined {
    const responses = this.operationObject['responses'];
    const response = isObject(responses) ? followRef(this.document, responses[status], '').value : undefined;
    return isObject(response) && typeof response['description'] === 'string' ? response['description'] : undefined;
  }

  /** The value the document gives a parameter (its example, examples, default, enum or const), if any. */
  documentValueOf(parameter: DeclaredParameter): { readonly value: unknown } | undefined {
    const declared = followRef(this.document, valueAtPointer(this.document, parameter.where), parameter.where).value;
    if (isObject(declared)) {
      if (declared['example'] !== undefined) return { value: declared['example'] };
      const examples = declared['examples'];
      if (isObject(examples))
        for (const example of Object.values(examples)) {
          const value = followRef(this.document, example, '').value;
          if (isObject(value) && value['value'] !== undefined) return { value: value['value'] };
        }
      if (declared['x-example'] !== undefined) return { value: declared['x-example'] };
    }
    return parameter.schemaPointer === undefined ? undefined : this.values.documentValue(parameter.schema, parameter.schemaPointer);
  }

  /** Builds a request by a plan. */
  build(plan: RequestPlan = {}): BuiltRequest {
    const meets = new Map<string, string>();
    const values = new Map<string, unknown>();
    const supplied: DeclaredParameter[] = [];
    const environment: EnvironmentValue[] = [];
    const query: [string, unknown][] = [];
    const headers: [string, TextPart[]][] = [];
    const cookies: TextPart[] = [];
    const form: [string, unknown][] = [];
    const pathValues = new Map<string, unknown>();
    let unsupported: string | undefined;
    let leftOut: string | undefined;

    for (const parameter of this.parameters) {
      const key = parameterKey(parameter);
      const targets = plan.targets?.get(key);
      const bound = plan.bound?.scope === key ? plan.bound.placement : undefined;
      const sent =
        (parameter.required || plan.send?.has(key) === true || targets !== undefined || bound !== undefined) && plan.leaveOut !== key;
      if (!sent) {
        if (!parameter.required) meets.set(`${key} omitted`, '');
        else leftOut = `the ${parameter.in} parameter ${parameter.name}`;
        continue;
      }
      meets.set(`${key} sent`, '');
      const given = this.documentValueOf(parameter);
      let value: unknown;
      if (targets === undefined && bound === undefined && given === undefined && parameter.in === 'path') {
        value = new SuppliedValue(parameter);
        supplied.push(parameter);
      } else if (
        targets === undefined &&
        bound === undefined &&
        given === undefined &&
        (parameter.in === 'header' || parameter.in === 'cookie')
      ) {
        value = new EnvironmentValue(environmentName(parameter.name), `the ${parameter.in} ${parameter.name} of ${this.operation.label}`);
        environment.push(value as EnvironmentValue);
      } else if (parameter.schemaPointer === undefined) value = given?.value ?? '';
      else {
        const made = this.values.make(parameter.schema, parameter.schemaPointer, key, {
          targets: targets ?? new Set(),
          bound,
          preferred: given,
        });
        for (const [place] of made.meets) meets.set(`${key}|${place}`, '');
        value = made.value;
      }
      if (parameter.in === 'formData' && isObject(parameter.schema) && parameter.schema['type'] === 'file') {
        unsupported = `a file to upload as the form field ${parameter.name}`;
        value = '';
      }
      values.set(key, value);
      switch (parameter.in) {
        case 'path':
          pathValues.set(parameter.name, Array.isArray(value) ? value.map(String).join(',') : value);
          break;
        case 'query':
          query.push([parameter.name, Array.isArray(value) && !this.explodes(parameter) ? value.map(String).join(',') : value]);
          break;
        case 'header':
          headers.push([parameter.name, textParts(value)]);
          break;
        case 'cookie':
          if (cookies.length > 0) cookies.push('; ');
          cookies.push(`${parameter.name}=`, ...textParts(value));
          break;
        case 'formData':
          form.push([parameter.name, Array.isArray(value) ? value.map(String).join(',') : value]);
          break;
      }
    }

    if (plan.credentials !== false) {
      for (const credential of this.credentials) {
        const value = new EnvironmentValue(credential.variable, credential.what);
        environment.push(value);
        if (credential.in === 'query') query.push([credential.name, value]);
        else if (credential.in === 'cookie') {
          if (cookies.length > 0) cookies.push('; ');
          cookies.push(`${credential.name}=`, value);
        } else headers.push([credential.name, credential.prefix === '' ? [value] : [credential.prefix, value]]);
      }
    }
    if (cookies.length > 0) headers.push(['Cookie', cookies]);

    let body: DraftBody | undefined;
    if (form.length > 0) {
      const multipart = this.consumes.some((mediaType) => mediaEssence(mediaType) === 'multipart/form-data');
      body = {
        kind: multipart ? 'multipart' : 'form',
        value: Object.fromEntries(form),
        mediaType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
      };
    } else if (plan.body === 'omit') leftOut = 'the body';
    else if (this.jsonBodies.length > 0) {
      const targets = plan.targets?.get('body');
      const bound = plan.bound?.scope === 'body' ? plan.bound.placement : undefined;
      // The media type whose schema leads to what is sought, else the first.
      const chosen =
        this.jsonBodies.find(({ schemaPointer }) =>
          [...(targets ?? []), ...(bound === undefined ? [] : [bound.where])].every((place) =>
            this.values.placesBelow(valueAtPointer(this.document, schemaPointer), schemaPointer).has(place),
          ),
        ) ?? this.jsonBodies[0]!;
      const made = this.values.make(valueAtPointer(this.document, chosen.schemaPointer), chosen.schemaPointer, 'body', {
        targets: targets ?? new Set(),
        bound,
        leaveOutRequired: plan.body === 'leaveOutRequired',
      });
      for (const [place, at] of made.meets) meets.set(`body|${place}`, at);
      if (made.leftOut !== undefined) leftOut = `body.${made.leftOut}`;
      body = { kind: 'data', value: made.value, mediaType: mediaEssence(chosen.mediaType) };
    } else if (this.otherBody !== undefined) {
      const essence = mediaEssence(this.otherBody);
      if (essence === 'application/x-www-form-urlencoded' || essence === 'multipart/form-data') {
        const schemaPointer = (this.operation.requestBody ?? []).find((media) => media.mediaType === this.otherBody)?.schemaPointer;
        const made =
          schemaPointer === undefined
            ? { value: {} }
            : this.values.make(valueAtPointer(this.document, schemaPointer), schemaPointer, 'body');
        const fields = isObject(made.value) ? made.value : {};
        body = {
          kind: essence === 'multipart/form-data' ? 'multipart' : 'form',
          value: Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, formValue(value)])),
          mediaType: essence,
        };
      } else if (this.bodyRequired) unsupported = `a body of type ${this.otherBody}`;
    }

    const basePath = this.operation.basePaths[0] ?? '';
    const path: (string | { value: unknown })[] = [basePath];
    for (const piece of this.operation.path.split(/(\{[^}]*\})/)) {
      const name = /^\{([^}]*)\}$/.exec(piece)?.[1];
      if (name !== undefined && pathValues.has(name)) path.push({ value: pathValues.get(name) });
      else if (piece !== '') path.push(piece);
    }
    return {
      request: { method: this.operation.method, path: joinText(path), query, headers, body },
      meets,
      values,
      supplied,
      unsupported,
      environment,
      leftOut,
    };
  }

  /** Whether a list in the query is sent as the parameter repeated (3.x's form style exploded, 2.0's `multi`), not joined with commas. */
  private explodes(parameter: DeclaredParameter): boolean {
    const declared = followRef(this.document, valueAtPointer(this.document, parameter.where), parameter.where).value;
    if (!isObject(declared)) return true;
    if (declared['collectionFormat'] !== undefined || declared['type'] !== undefined) return declared['collectionFormat'] === 'multi';
    const style = declared['style'] ?? 'form';
    return style === 'form' && declared['explode'] !== false;
  }
}

function joinText(parts: readonly (string | { readonly value: unknown })[]): (string | { readonly value: unknown })[] {
  const joined: (string | { readonly value: unknown })[] = [];
  for (const part of parts) {
    const last = joined[joined.length - 1];
    if (typeof part === 'string' && typeof last === 'string') joined[joined.length - 1] = last + part;
    else if (part !== '') joined.push(part);
  }
  return joined;
}

function textParts(value: unknown): TextPart[] {
  if (value instanceof EnvironmentValue || value instanceof RepeatedText) return [value];
  if (Array.isArray(value)) return [value.map(String).join(',')];
  return [typeof value === 'string' ? value : JSON.stringify(value)];
}

/** A form field's value: a scalar as it is, anything else as its JSON. */
function formValue(value: unknown): unknown {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof RepeatedText
    ? value
    : JSON.stringify(value);
}

function bodyRequiredIn(document: unknown, version: OpenApiVersion, operation: Json, operationPointer: string): boolean {
  if (version === '2.0') {
    const parameters = operation['parameters'];
    if (!Array.isArray(parameters)) return false;
    return parameters.some((parameter: unknown) => {
      const value = followRef(document, parameter, '').value;
      return isObject(value) && value['in'] === 'body' && value['required'] === true;
    });
  }
  const body = followRef(document, operation['requestBody'], pointerBelow(operationPointer, 'requestBody')).value;
  return isObject(body) && body['required'] === true;
}

/** A credential an operation's security asks for: where it goes and the variable it is read from. */
interface Credential {
  readonly in: 'header' | 'query' | 'cookie';
  readonly name: string;
  /** Text before the variable's value: `Bearer `. */
  readonly prefix: string;
  readonly variable: string;
  readonly what: string;
}

/**
 * The credentials of an operation's first security requirement (its own
 * `security`, else the document's): an API key in a header, the query or a
 * cookie; HTTP bearer and basic, OAuth 2 and OpenID Connect as an
 * `Authorization` header. The variable is named after the scheme:
 * `api_key` reads API_KEY, `bearerAuth` BEARER_AUTH.
 */
function credentialsOf(document: unknown, version: OpenApiVersion, operation: Json): Credential[] {
  const requirements = Array.isArray(operation['security']) ? operation['security'] : isObject(document) ? document['security'] : undefined;
  const [first] = Array.isArray(requirements) ? (requirements as unknown[]) : [];
  if (!isObject(first)) return [];
  const schemes =
    version === '2.0'
      ? isObject(document) && isObject(document['securityDefinitions'])
        ? document['securityDefinitions']
        : {}
      : (valueAtPointer(document, '#/components/securitySchemes') ?? {});
  const credentials: Credential[] = [];
  for (const name of Object.keys(first)) {
    const scheme = followRef(document, isObject(schemes) ? schemes[name] : undefined, '').value;
    if (!isObject(scheme)) continue;
    const variable = environmentName(name);
    const type = scheme['type'];
    if (type === 'apiKey' && typeof scheme['name'] === 'string' && ['header', 'query', 'cookie'].includes(String(scheme['in']))) {
      const place = scheme['in'] as Credential['in'];
      credentials.push({ in: place, name: scheme['name'], prefix: '', variable, what: `the API key ${name} (${place} ${scheme['name']})` });
    } else if (type === 'basic' || (type === 'http' && String(scheme['scheme']).toLowerCase() === 'basic'))
      credentials.push({
        in: 'header',
        name: 'Authorization',
        prefix: 'Basic ',
        variable,
        what: `the base64 of user:password for ${name}`,
      });
    else if (type === 'http' || type === 'oauth2' || type === 'openIdConnect') {
      const bearer = type !== 'http' || String(scheme['scheme']).toLowerCase() === 'bearer';
      if (bearer)
        credentials.push({ in: 'header', name: 'Authorization', prefix: 'Bearer ', variable, what: `the bearer token of ${name}` });
    }
  }
  return credentials;
}

/** The environment variable a value is read from, after a name: `X-API-Key` reads X_API_KEY, `bearerAuth` BEARER_AUTH. */
export function environmentName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (words === '') return 'API_VALUE';
  return /^[0-9]/.test(words) ? `API_${words}` : words;
}
