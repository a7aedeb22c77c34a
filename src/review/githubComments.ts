import * as z from 'zod';
import { failure, requestJson, type ApiClient } from './commentApi.js';
import type { CommentThread } from './commentThread.js';
import type { GitHubTarget } from './commentTarget.js';

/**
 * A pull request's conversation on GitHub, through its REST API: the issue
 * comments of the pull request (`GET`, `POST
 * /repos/{owner}/{repo}/issues/{issue_number}/comments`, `PATCH
 * /repos/{owner}/{repo}/issues/comments/{comment_id}`), listed 100 a page,
 * every page followed by the `Link` header.
 */

/** The most pages listed: 100,000 comments, past any real pull request, so a server that links on for ever ends. */
const PAGE_LIMIT = 1000;

const commentSchema = z.looseObject({ id: z.int().positive(), body: z.string().nullish(), html_url: z.string().optional() });
const commentListSchema = z.array(commentSchema);
const pullRequestSchema = z.looseObject({ head: z.looseObject({ sha: z.string() }) });

/** GitHub's REST API version this code is written against. */
const API_VERSION = '2022-11-28';

/** The GitHub client of a token. */
export function gitHubClient(
  token: string,
  target: GitHubTarget,
  fetch: ApiClient['fetch'],
  timeoutMs: number,
  version: string,
): ApiClient {
  return {
    name: 'GitHub',
    token,
    tokenVariable: 'GITHUB_TOKEN',
    apiVariable: 'GITHUB_API_URL',
    origin: new URL(target.apiUrl).origin,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token}`,
      'x-github-api-version': API_VERSION,
      'user-agent': `quality-evidence/${version}`,
    },
    forbiddenAdvice:
      'the token may not write to the pull request; a pull request from a fork gets a read-only token: post from a workflow_run job ' +
      'with `permissions: pull-requests: write` (docs/pull-request-comment.md), or give the job that permission',
    fetch,
    timeoutMs,
  };
}

/** The comments of a GitHub pull request. */
export function gitHubThread(client: ApiClient, target: GitHubTarget): CommentThread {
  const repository = `${target.apiUrl}/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repository)}`;
  const comments = `${repository}/issues/${target.pullRequest}/comments`;
  return {
    where: `pull request #${target.pullRequest}`,
    async check() {
      if (target.expectedHeadSha === undefined) return;
      const { json } = await requestJson(client, 'GET', `${repository}/pulls/${target.pullRequest}`, 'reading the pull request');
      const pull = pullRequestSchema.safeParse(json);
      if (!pull.success) throw failure(client, 'reading the pull request: GitHub answered with no head commit');
      if (pull.data.head.sha.toLowerCase() !== target.expectedHeadSha.toLowerCase())
        throw failure(
          client,
          `pull request #${target.pullRequest} is not at the commit the tests ran on (the workflow_run's head_sha): ` +
            'the number handed over by the tested run is wrong or stale, so nothing was posted',
        );
    },
    async find(isOurs) {
      let url: string | undefined = `${comments}?per_page=100`;
      for (let page = 0; url !== undefined && page < PAGE_LIMIT; page++) {
        const { json, headers } = await requestJson(client, 'GET', url, 'listing the comments');
        const list = commentListSchema.safeParse(json);
        if (!list.success) throw failure(client, 'listing the comments: GitHub answered with something that is not a list of comments');
        const found = list.data.find((comment) => isOurs(comment.body ?? ''));
        if (found !== undefined) return { id: String(found.id), url: found.html_url };
        url = nextLink(headers.get('link'));
      }
      return undefined;
    },
    async create(body) {
      const { json } = await requestJson(client, 'POST', comments, 'creating the comment', { body });
      return { url: commentSchema.safeParse(json).data?.html_url };
    },
    async update(id, body) {
      const { json } = await requestJson(client, 'PATCH', `${repository}/issues/comments/${id}`, 'updating the comment', { body });
      return { url: commentSchema.safeParse(json).data?.html_url };
    },
  };
}

/** The `rel="next"` target of a Link header (RFC 8288), as GitHub writes it: `<url>; rel="next", <url>; rel="last"`. */
export function nextLink(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const [, target, parameters = ''] of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(parameters);
    if (rel !== null && (rel[1] ?? rel[2] ?? '').toLowerCase().split(/\s+/).includes('next')) return target;
  }
  return undefined;
}
