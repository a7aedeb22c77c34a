import { CommentPostError } from '../errors.js';
import { PACKAGE_VERSION } from '../packageVersion.js';
import { REQUEST_TIMEOUT_MS, type ApiClient, type Fetch } from './commentApi.js';
import type { CommentThread } from './commentThread.js';
import type { CommentPlatform, CommentTarget } from './commentTarget.js';
import { gitHubClient, gitHubThread } from './githubComments.js';
import { gitLabClient, gitLabThread } from './gitlabNotes.js';

/**
 * Posts a pull-request comment: one comment per environment, found by its
 * marker (its first line) across every page of the conversation and edited
 * in place, so each push updates the same comment. A run with nothing to
 * report updates an earlier comment to say so and creates none. Loaded only
 * for `comment --post`.
 */

/** What to post, and where. */
export interface PostRequest {
  readonly target: CommentTarget;
  /** The platform's token (GITHUB_TOKEN, GITLAB_TOKEN); undefined when the variable is not set. */
  readonly token: string | undefined;
  readonly comment: {
    readonly body: string;
    /** The first line that identifies the comment. */
    readonly marker: string;
    readonly nothingToReport: boolean;
  };
  /** Node's `fetch` unless a test gives another. */
  readonly fetch?: Fetch | undefined;
  /** The longest one request may take, in milliseconds; default 30,000. */
  readonly timeoutMs?: number | undefined;
}

/** What the post did. */
export interface PostOutcome {
  /** `created` or `updated` a comment; `none`: nothing to report and no earlier comment, so none was made. */
  readonly action: 'created' | 'updated' | 'none';
  /** `pull request #12`, `merge request !7`. */
  readonly where: string;
  /** The comment's page, where the platform says. */
  readonly url?: string | undefined;
}

/** Each platform's client and thread: a typed registry, one entry per platform. */
const PLATFORMS: {
  readonly [P in CommentPlatform]: {
    readonly tokenAdvice: string;
    readonly open: (
      token: string,
      target: Extract<CommentTarget, { platform: P }>,
      fetch: Fetch,
      timeoutMs: number,
    ) => { client: ApiClient; thread: CommentThread };
  };
} = {
  github: {
    tokenAdvice:
      'GITHUB_TOKEN is not set: give the step `env: { GITHUB_TOKEN: ${{ github.token }} }` and the job `permissions: { pull-requests: write }`',
    open: (token, target, fetch, timeoutMs) => {
      const client = gitHubClient(token, target, fetch, timeoutMs, PACKAGE_VERSION);
      return { client, thread: gitHubThread(client, target) };
    },
  },
  gitlab: {
    tokenAdvice:
      'GITLAB_TOKEN is not set: make a project access token with the api scope and save it as a masked CI/CD variable of that name',
    open: (token, target, fetch, timeoutMs) => {
      const client = gitLabClient(token, target, fetch, timeoutMs, PACKAGE_VERSION);
      return { client, thread: gitLabThread(client, target) };
    },
  },
};

/** Creates or updates the comment; a CommentPostError says why it could not, without the token. */
export async function postComment(request: PostRequest): Promise<PostOutcome> {
  const { target, token, comment } = request;
  const platform = PLATFORMS[target.platform];
  if (token === undefined || token.trim() === '') throw new CommentPostError(platform.tokenAdvice);
  const fetch = request.fetch ?? globalThis.fetch;
  const timeoutMs = request.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const { thread } =
    target.platform === 'github'
      ? PLATFORMS.github.open(token.trim(), target, fetch, timeoutMs)
      : PLATFORMS.gitlab.open(token.trim(), target, fetch, timeoutMs);
  await thread.check();
  const isOurs = (body: string) => firstLine(body) === comment.marker;
  const existing = await thread.find(isOurs);
  if (existing !== undefined) {
    const { url } = await thread.update(existing.id, comment.body);
    return { action: 'updated', where: thread.where, url: url ?? existing.url };
  }
  if (comment.nothingToReport) return { action: 'none', where: thread.where };
  const { url } = await thread.create(comment.body);
  return { action: 'created', where: thread.where, url };
}

function firstLine(body: string): string {
  const end = body.indexOf('\n');
  return (end === -1 ? body : body.slice(0, end)).replace(/\r$/, '').trim();
}
