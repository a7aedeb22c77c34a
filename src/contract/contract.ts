/**
 * An API's contract as the run reads it: the operations of one or more
 * OpenAPI documents (2.0, 3.0 or 3.1), whatever version and format they were
 * written in. The loader (loadContract) makes it; labels, coverage and
 * conformance read it. Plain data, so that the part labels need can cross to
 * worker threads.
 */

/** The OpenAPI versions read: Swagger 2.0, OpenAPI 3.0.x and 3.1.x. */
export type OpenApiVersion = '2.0' | '3.0' | '3.1';

/**
 * What matching needs of an operation, as plain data (it crosses to worker
 * threads inside the run's rules). The contract (src/contract) makes them.
 */
export interface OperationTemplate {
  /** Upper case: `GET`. */
  readonly method: string;
  /** The path as the document writes it, without the base path: `/users/{id}`. */
  readonly path: string;
  /** The base paths a call's path may start with (servers' URL paths, 2.0's `basePath`), each without a trailing slash; `''` for none. */
  readonly basePaths: readonly string[];
  /** Path parameters whose schema is an integer: they match digits only (an optional leading minus). */
  readonly integerParameters: readonly string[];
}

/** One response an operation declares, for one status key. */
export interface DeclaredResponse {
  /** As the document writes it: `200`, `2XX` (any case), or `default`. */
  readonly status: string;
  /**
   * The media types it declares a body for, with the JSON pointer of each schema in its document
   * (`#/paths/~1users/get/responses/200/content/application~1json/schema`), when one is given.
   */
  readonly content: readonly MediaTypeSchema[];
}

/** A media type of a body and where its schema is. */
export interface MediaTypeSchema {
  /** `application/json`, `application/problem+json`, `*\/*`: as the document writes it, lower case. */
  readonly mediaType: string;
  /** A JSON pointer into the operation's document (a URI fragment, `#/...`), absent when the media type has no schema. */
  readonly schemaPointer?: string | undefined;
}

/** One operation of a contract, in the document's order. */
export interface ContractOperation extends OperationTemplate {
  /** The label executions matched to it take: `GET /users/{id}`. */
  readonly label: string;
  readonly operationId?: string | undefined;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly responses: readonly DeclaredResponse[];
  /** The request body's media types and schemas, when the operation declares one (2.0: the `in: body` parameter, with `consumes`). */
  readonly requestBody?: readonly MediaTypeSchema[] | undefined;
  /** Which of the contract's documents it is in (an index of {@link Contract.documents}). */
  readonly documentIndex: number;
}

/** One document of a contract. */
export interface ContractDocument {
  /** The path it was read from, as the settings give it (a path relative to the settings file or the Playwright config joined to that folder). */
  readonly path: string;
  /**
   * What the report calls it: its path relative to the working folder when
   * it is inside it, with `/` between folders, so that two checkouts of one
   * project name it alike (see loadJudgement); absent, its path.
   */
  readonly name?: string | undefined;
  readonly version: OpenApiVersion;
  /**
   * The document with every `$ref` to another file brought into it, `$ref`s
   * within it kept (a schema may refer to itself), and its schemas in JSON
   * Schema 2020-12 (3.0's `nullable` and boolean `exclusiveMinimum` and
   * 2.0's `x-nullable` converted), ready to be added to a validator whole.
   */
  readonly bundled: unknown;
}

/** The contract of a run: its documents and their operations, document by document, each in its document's order. */
export interface Contract {
  readonly documents: readonly ContractDocument[];
  readonly operations: readonly ContractOperation[];
  /**
   * Every file the loader read: each document, then the files its `$ref`s
   * brought in, spelled from the document's path as given (`api.yaml`'s
   * `./schemas/order.yaml` is `schemas/order.yaml`). No file of the run may
   * replace one. Absent in a contract made by hand.
   */
  readonly files?: readonly string[] | undefined;
}
