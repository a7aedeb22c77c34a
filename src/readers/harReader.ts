import { RecordValidationError } from '../errors.js';
import type { RecordIssue } from '../issues/recordIssue.js';
import type { TimingPhases } from '../records/executionRecord.js';
import { withoutMatrixParameters } from '../records/normaliseExecutionRecords.js';
import { isPlainObject } from '../records/validateRecordList.js';
import { describeType, renderValue } from '../renderValue.js';
import { JsonListScanner } from './jsonListScanner.js';
import { isStartedAtMs, parseTraceparent } from '../records/traceContext.js';
import type { RecordBatch, RecordedBodies, RecordedBody, ReadTally } from './recordBatch.js';

/** What the HAR reader is told besides its input. */
export interface HarReadOptions {
  /** Keep entries for page assets (documents, scripts, styles, images, fonts, media); by default they are left out and counted. */
  readonly includeAssets: boolean;
  /** Counts the entries left out (assets, and entries that are no HTTP call), and takes the entries that cannot become records. */
  readonly tally: ReadTally;
  /** Takes an entry that cannot become a record, as an issue. */
  readonly reportInvalid: (issue: RecordIssue) => void;
}

// What browsers and Playwright call the resource types of page assets.
const ASSET_RESOURCE_TYPES = new Set(['document', 'script', 'stylesheet', 'image', 'font', 'media', 'manifest', 'texttrack']);
const ASSET_MIME_TYPES =
  /^(?:text\/(?:html|css|javascript)|application\/(?:(?:x-)?(?:javascript|font)|ecmascript|vnd\.ms-fontobject)|image\/|font\/|audio\/|video\/)/i;

/**
 * Reads a HAR 1.2 file (`recordHar` in Playwright, "save all as HAR" in a
 * browser's devtools): each entry of `log.entries` becomes a record. The
 * method and the URL's path (percent-encoding as recorded, no query) make
 * the endpoint, marked as derived from a URL so that its ids are grouped as
 * `:id` by default; `response.status` is the status;
 * `time` the response time; `timings` the phases. An entry with no response
 * (status 0 as devtools write it, -1 as Playwright does) is a no-response
 * record; asset entries are left out unless asked for, and entries that are
 * no HTTP call (a URL that is not http: or https:, a WebSocket) always are,
 * each counted with the assets. Entries are streamed,
 * so a HAR file of any size is read in bounded memory.
 */
export async function* readHarRecords(chunks: AsyncIterable<Buffer>, file: string, options: HarReadOptions): AsyncGenerator<RecordBatch> {
  options.tally.readHar = true;
  const scanner = new JsonListScanner([['log', 'entries']]);
  const batches = async function* (): AsyncGenerator<{ elements: readonly unknown[]; firstIndex: number }> {
    for await (const chunk of chunks) yield scanner.push(chunk);
    yield scanner.finish();
  };
  for await (const { elements, firstIndex } of batches()) {
    const records: unknown[] = [];
    const entryIndexes: number[] = [];
    const bodies: (RecordedBodies | undefined)[] = [];
    let anyBody = false;
    for (let offset = 0; offset < elements.length; offset++) {
      const index = firstIndex + offset;
      const record = harEntryRecord(elements[offset], index, file, options);
      if (record === LEFT_OUT) continue;
      records.push(record);
      entryIndexes.push(index);
      const kept = keptBodies(elements[offset]);
      anyBody ||= kept !== undefined;
      bodies.push(kept);
    }
    if (records.length > 0)
      yield {
        records,
        location: (at) => ({ kind: 'harEntry', index: entryIndexes[at]!, file }),
        derivedEndpoints: true,
        ...(anyBody ? { bodies } : {}),
      };
  }
  const document = scanner.end();
  const log =
    typeof document.skeleton === 'object' && document.skeleton !== null ? (document.skeleton as { log?: unknown }).log : undefined;
  const entries = typeof log === 'object' && log !== null ? (log as { entries?: unknown }).entries : undefined;
  if (!document.listFound || !Array.isArray(entries)) {
    throw RecordValidationError.topLevel(
      {
        location: { kind: 'document', file },
        path: ['log', 'entries'],
        expected: 'a HAR file holds its entries in log.entries, an array',
        found: entries === undefined ? 'it is missing' : `found ${describeType(entries)}`,
      },
      file,
    );
  }
}

/** Marks an entry that becomes no record: an asset left out, or an entry reported invalid. */
const LEFT_OUT = Symbol('left out');

/** The record of one HAR entry, or LEFT_OUT. */
function harEntryRecord(entry: unknown, index: number, file: string, options: HarReadOptions): unknown {
  const invalid = (path: (string | number)[], expected: string, value: unknown): typeof LEFT_OUT => {
    options.reportInvalid({
      location: { kind: 'harEntry', index, file },
      path,
      expected,
      found: value === undefined ? 'it is missing' : `found ${renderValue(value)}`,
    });
    return LEFT_OUT;
  };
  if (!isPlainObject(entry)) return invalid([], 'must be an object', entry);
  const { request, response } = entry;
  if (!isPlainObject(request)) return invalid(['request'], 'must be an object with the method and the URL', request);
  if (typeof request['method'] !== 'string') return invalid(['request', 'method'], 'must be a string', request['method']);
  if (typeof request['url'] !== 'string') return invalid(['request', 'url'], 'must be a string', request['url']);
  let url: URL;
  try {
    url = new URL(request['url']);
  } catch {
    return invalid(['request', 'url'], 'must be an absolute URL', request['url']);
  }
  // A data:, blob: or about: URL (an inline image, a worker's script) names no server: it is no API call, whatever --include-assets says.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    options.tally.skippedAssetCount++;
    return LEFT_OUT;
  }
  const path = withoutMatrixParameters(url.pathname);
  if (!isPlainObject(response)) return invalid(['response'], 'must be an object with the status', response);
  // A WebSocket's entry lasts as long as its connection: its "time" is no response time, and its 101 no answer to an API call.
  if (isWebSocket(entry, response)) {
    options.tally.skippedAssetCount++;
    return LEFT_OUT;
  }
  if (!options.includeAssets && isAsset(entry, response)) {
    options.tally.skippedAssetCount++;
    return LEFT_OUT;
  }
  const endpoint = `${request['method']} ${path}`;
  const status = response['status'];
  const timingMs = timingPhases(entry['timings']);
  const timing = { ...(timingMs === undefined ? {} : { timingMs }), ...traceContextOf(request), ...startOf(entry['startedDateTime']) };
  if (status === 0 || status === -1) {
    return { errorCode: failureCode(entry, response), endpoint, responseTimeMs: Math.max(0, numberOr(entry['time'], 0)), ...timing };
  }
  return { statusCode: status, endpoint, responseTimeMs: entry['time'], ...timing };
}

/**
 * The bodies an entry's recorder kept (`response.content.text` and
 * `request.postData.text`, each with its media type), and the request's
 * URL, headers and form fields (`postData.params`), which a contract's
 * conditions are read from.
 */
function keptBodies(entry: unknown): RecordedBodies | undefined {
  if (!isPlainObject(entry)) return undefined;
  const { request, response } = entry;
  const content = isPlainObject(response) ? response['content'] : undefined;
  const postData = isPlainObject(request) ? request['postData'] : undefined;
  const responseBody = isPlainObject(content) ? bodyOf(content['text'], content['mimeType'], content['encoding']) : undefined;
  const requestBody = isPlainObject(postData) ? bodyOf(postData['text'], postData['mimeType'], undefined) : undefined;
  const url = isPlainObject(request) && typeof request['url'] === 'string' ? request['url'] : undefined;
  if (responseBody === undefined && requestBody === undefined && url === undefined) return undefined;
  return {
    response: responseBody,
    request: requestBody,
    url,
    headers: isPlainObject(request) ? namedValues(request['headers']) : undefined,
    formFields: isPlainObject(postData) ? namedValues(postData['params']) : undefined,
  };
}

/** The trace and span ids of the request's `traceparent` header (W3C Trace Context), when it sent a valid one. */
function traceContextOf(request: Record<string, unknown>): { traceId?: string; spanId?: string } {
  const headers = request['headers'];
  if (!Array.isArray(headers)) return {};
  for (const header of headers as unknown[]) {
    if (!isPlainObject(header) || typeof header['name'] !== 'string' || header['name'].toLowerCase() !== 'traceparent') continue;
    const value = header['value'];
    const ids = typeof value === 'string' ? parseTraceparent(value) : undefined;
    return ids === undefined ? {} : { ...ids };
  }
  return {};
}

/** When the entry's request started (`startedDateTime`, ISO 8601), in milliseconds since the epoch: the start of its span. */
function startOf(startedDateTime: unknown): { startedAtMs?: number } {
  if (typeof startedDateTime !== 'string') return {};
  const startedAtMs = Date.parse(startedDateTime);
  return isStartedAtMs(startedAtMs) ? { startedAtMs } : {};
}

/** A HAR list of `{ name, value }` (headers, form fields) as pairs, those with a text value. */
function namedValues(list: unknown): [string, string][] | undefined {
  if (!Array.isArray(list)) return undefined;
  const pairs: [string, string][] = [];
  for (const item of list as unknown[])
    if (isPlainObject(item) && typeof item['name'] === 'string' && typeof item['value'] === 'string')
      pairs.push([item['name'], item['value']]);
  return pairs;
}

function bodyOf(text: unknown, mimeType: unknown, encoding: unknown): RecordedBody | undefined {
  if (typeof text !== 'string') return undefined;
  return {
    text,
    mimeType: typeof mimeType === 'string' ? mimeType : undefined,
    encoding: typeof encoding === 'string' ? encoding : undefined,
  };
}

function isWebSocket(entry: Record<string, unknown>, response: Record<string, unknown>): boolean {
  const resourceType = entry['_resourceType'];
  return (typeof resourceType === 'string' && resourceType.toLowerCase() === 'websocket') || response['status'] === 101;
}

function isAsset(entry: Record<string, unknown>, response: Record<string, unknown>): boolean {
  const resourceType = entry['_resourceType'];
  if (typeof resourceType === 'string') return ASSET_RESOURCE_TYPES.has(resourceType.toLowerCase());
  const content = response['content'];
  const mimeType = isPlainObject(content) ? content['mimeType'] : undefined;
  return typeof mimeType === 'string' && ASSET_MIME_TYPES.test(mimeType);
}

// Why a request got no response, as the recorder wrote it (`net::ERR_CONNECTION_REFUSED`), or NO_RESPONSE.
function failureCode(entry: Record<string, unknown>, response: Record<string, unknown>): string {
  for (const text of [response['_failureText'], entry['_error'], response['_error']]) {
    if (typeof text === 'string' && /^\S{1,64}$/.test(text)) return text;
  }
  return 'NO_RESPONSE';
}

// HAR timings: -1 for a phase that does not apply; `connect` includes `ssl`.
function timingPhases(timings: unknown): TimingPhases | undefined {
  if (!isPlainObject(timings)) return undefined;
  const phase = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  const ssl = phase(timings['ssl']);
  const connect = phase(timings['connect']);
  const phases: Record<string, number | undefined> = {
    dns: phase(timings['dns']),
    connect: connect === undefined ? undefined : Math.max(0, connect - (ssl ?? 0)),
    tls: ssl,
    wait: phase(timings['wait']),
    receive: phase(timings['receive']),
  };
  const present = Object.entries(phases).filter(([, value]) => value !== undefined);
  return present.length === 0 ? undefined : Object.fromEntries(present);
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
