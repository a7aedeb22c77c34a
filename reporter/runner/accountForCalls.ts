import { ENDPOINT_LABEL_PATTERN } from '../../src/records/executionRecord.js';
import { withoutMatrixParameters } from '../../src/records/normaliseExecutionRecords.js';
import { calledUrlOf, errorCodeOf, pathOfUrl, type ApiCall, type StepLocation } from '../shared/apiCalls.js';

/** What the matching needs of one execution recorded in a test attempt. */
export interface RecordedCall {
  /** The record's endpoint label, as recorded. */
  readonly endpoint: string;
  /** The call as the test wrote it, when the recording fixture made the record. */
  readonly call?: { readonly method: string; readonly url: string } | undefined;
  /** Whether a browser made the call (`"source": "browser"`): no `pw:api` step shows such a call, so it accounts for none. */
  readonly browser?: boolean;
}

/** A call that got no response and that no record accounts for: the reporter records it from the step. */
export interface NoResponseCall {
  readonly endpoint: string;
  readonly errorCode: string;
  readonly responseTimeMs: number;
  /** Where the test made it. */
  readonly location: StepLocation | undefined;
}

/** How one test attempt's calls compare with its records. */
export interface CallAccount {
  /** Calls that got a response that no record accounts for, as templated endpoint labels, one per call. */
  readonly unrecorded: readonly string[];
  /** Calls that got no response that no record accounts for. */
  readonly noResponse: readonly NoResponseCall[];
  /** For each record, in order, the call that accounts for it (where the test made it); undefined for a record no call matched. */
  readonly callOfRecord: readonly (ApiCall | undefined)[];
}

/**
 * Compares the API calls one test attempt sent (its `pw:api` steps) with the
 * executions it recorded. A call is accounted for by a record of the same
 * call (method and URL as written, which the recording fixture keeps), or
 * else by a record of the same method and path. What is left over was not
 * recorded: a call with a response is counted as unrecorded (its status is
 * unknown); a call with no response is complete evidence in itself, so it
 * becomes a no-response execution, whatever context made it.
 */
export function accountForCalls(calls: readonly ApiCall[], records: readonly RecordedCall[], baseURL: string | undefined): CallAccount {
  const open = new Set(calls.keys());
  const takeFirst = (matches: (call: ApiCall) => boolean): ApiCall | undefined => {
    for (const index of open) {
      if (matches(calls[index]!)) {
        open.delete(index);
        return calls[index];
      }
    }
    return undefined;
  };

  const callOfRecord: (ApiCall | undefined)[] = records.map(() => undefined);
  const byPath: number[] = [];
  records.forEach((record, index) => {
    if (record.browser === true) return;
    const written = record.call;
    const matched =
      written === undefined
        ? undefined
        : takeFirst((call) => call.url === written.url && (call.method === undefined || call.method === written.method.toUpperCase()));
    if (matched === undefined) byPath.push(index);
    else callOfRecord[index] = matched;
  });
  for (const index of byPath) {
    const label = ENDPOINT_LABEL_PATTERN.exec(records[index]!.endpoint);
    if (label === null) continue;
    const method = label[1]!.toUpperCase();
    const path = withoutMatrixParameters(label[2]!.split(/[?#]/, 1)[0]!);
    callOfRecord[index] = takeFirst(
      (call) => (call.method === undefined || call.method === method) && pathOfUrl(call.url, baseURL) === path,
    );
  }

  const unrecorded: string[] = [];
  const noResponse: NoResponseCall[] = [];
  for (const index of open) {
    const call = calls[index]!;
    const method = call.method ?? 'GET';
    if (call.error === undefined) {
      const path = pathOfUrl(call.url, baseURL);
      if (path !== undefined) unrecorded.push(`${method} ${path}`);
      continue;
    }
    const calledUrl = call.errorMessage === undefined ? undefined : calledUrlOf(call.errorMessage);
    const path = pathOfUrl(calledUrl ?? call.url, baseURL);
    if (path !== undefined)
      noResponse.push({
        endpoint: `${method} ${path}`,
        errorCode: errorCodeOf(call.error),
        responseTimeMs: call.durationMs,
        location: call.location,
      });
  }
  return { unrecorded, noResponse, callOfRecord };
}
