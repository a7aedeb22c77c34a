import { CommentPostError } from '../errors.js';
import { quoteText } from '../renderValue.js';

/**
 * The HTTP calls of posting, over Node's own `fetch`: JSON in and out, a
 * time limit, no redirect followed (a redirect could carry the token's
 * header to another host), and every failure one CommentPostError whose
 * message names what to do. The token goes in a header and nowhere else;
 * a message is scrubbed of it all the same, in case a server echoes it.
 */

/** The `fetch` posting uses: Node's, or a test's. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** One platform's way to talk: its name in messages, its headers, and the advice for each refusal. */
export interface ApiClient {
  /** `GitHub`, `GitLab`. */
  readonly name: string;
  readonly token: string;
  /** The variable the token came from, for messages: `GITHUB_TOKEN`. */
  readonly tokenVariable: string;
  /** The variable the API's URL came from, for messages: `GITHUB_API_URL`. */
  readonly apiVariable: string;
  /** The origin every request goes to: a next-page link elsewhere is refused. */
  readonly origin: string;
  readonly headers: Readonly<Record<string, string>>;
  /** What to do about a 403, in the platform's words. */
  readonly forbiddenAdvice: string;
  readonly fetch: Fetch;
  /** The longest a request may take, in milliseconds. */
  readonly timeoutMs: number;
}

/** A response's JSON and its headers. */
export interface ApiResponse {
  readonly json: unknown;
  readonly headers: Headers;
}

/** How long a request may take before the post gives up: 30 s. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Sends one request. `what` says what it was for in a message: `listing the
 * comments`. A status outside 2xx, a network failure, a time-out and an
 * answer that is not JSON are each a CommentPostError.
 */
export async function requestJson(
  client: ApiClient,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  what: string,
  body?: unknown,
): Promise<ApiResponse> {
  if (new URL(url).origin !== client.origin)
    throw failure(client, `${client.name} pointed ${what} at another host than ${client.apiVariable}; nothing was sent there`);
  let response: Response;
  try {
    response = await client.fetch(url, {
      method,
      headers: { ...client.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'error',
      signal: AbortSignal.timeout(client.timeoutMs),
    });
  } catch (error) {
    throw failure(client, `${what}: ${client.name} could not be reached at ${client.apiVariable} (${networkReason(error)})`);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw failure(client, `${what}: ${refusal(client, response.status, text)}`);
  try {
    return { json: text === '' ? undefined : (JSON.parse(text) as unknown), headers: response.headers };
  } catch {
    throw failure(client, `${what}: ${client.name} answered ${response.status} with a body that is not JSON`);
  }
}

/**
 * A CommentPostError with the token scrubbed from its message. No cause is
 * kept: a failed request's error may hold the request, and with it the
 * token's header, which QE_DEBUG's stack trace would print.
 */
export function failure(client: Pick<ApiClient, 'token'>, reason: string): CommentPostError {
  return new CommentPostError(scrub(reason, client.token));
}

/** The text with every occurrence of the token replaced: `***`. */
export function scrub(text: string, token: string): string {
  return token.length < 4 ? text : text.split(token).join('***');
}

function refusal(client: ApiClient, status: number, text: string): string {
  const said = serverMessage(text);
  const answer = `${client.name} answered ${status}${said === undefined ? '' : ` ${quoteText(scrub(said, client.token), 160)}`}`;
  if (status === 401) return `${answer}: the token in ${client.tokenVariable} was refused (missing, expired or of another server)`;
  if (status === 403) return `${answer}: ${client.forbiddenAdvice}`;
  if (status === 404)
    return (
      `${answer}: no such repository or pull request for this token; check the project's variables and the number, ` +
      `and that the token can read the repository`
    );
  if (status === 429) return `${answer}: rate limited; try again later`;
  return `${answer}; try again later`;
}

// GitHub and GitLab say why in `message` (GitLab sometimes in `error`).
function serverMessage(text: string): string | undefined {
  try {
    const document = JSON.parse(text) as unknown;
    if (typeof document !== 'object' || document === null) return undefined;
    const { message, error } = document as { message?: unknown; error?: unknown };
    const said = typeof message === 'string' ? message : typeof error === 'string' ? error : undefined;
    return said === undefined || said === '' ? undefined : said;
  } catch {
    return undefined;
  }
}

// `ECONNREFUSED`, `timed out after 30 s`: the code of the failure, never its message (which may name the URL).
function networkReason(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'no answer in time';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' && /^[A-Z_]{2,40}$/.test(cause.code) ? cause.code : undefined;
  return code ?? 'a network error';
}
