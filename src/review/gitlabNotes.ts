import * as z from 'zod';
import { failure, requestJson, type ApiClient } from './commentApi.js';
import type { CommentThread } from './commentThread.js';
import type { GitLabTarget } from './commentTarget.js';

/**
 * A merge request's notes on GitLab, through its REST API (v4): `GET`,
 * `POST /projects/:id/merge_requests/:iid/notes`, `PUT
 * /projects/:id/merge_requests/:iid/notes/:note_id`, listed 100 a page,
 * oldest first, every page followed by the `x-next-page` header. The token
 * is GITLAB_TOKEN, sent as `PRIVATE-TOKEN` (a project, group or personal
 * access token with the `api` scope: CI_JOB_TOKEN cannot write notes).
 */

/** The most pages listed: 100,000 notes. */
const PAGE_LIMIT = 1000;

const noteSchema = z.looseObject({ id: z.int().positive(), body: z.string().nullish(), system: z.boolean().optional() });
const noteListSchema = z.array(noteSchema);

/** The GitLab client of a token. */
export function gitLabClient(
  token: string,
  target: GitLabTarget,
  fetch: ApiClient['fetch'],
  timeoutMs: number,
  version: string,
): ApiClient {
  return {
    name: 'GitLab',
    token,
    tokenVariable: 'GITLAB_TOKEN',
    apiVariable: 'CI_API_V4_URL',
    origin: new URL(target.apiUrl).origin,
    headers: { accept: 'application/json', 'private-token': token, 'user-agent': `quality-evidence/${version}` },
    forbiddenAdvice: 'the token in GITLAB_TOKEN may not write notes: give it the api scope and at least the Reporter role on the project',
    fetch,
    timeoutMs,
  };
}

/** The notes of a GitLab merge request. */
export function gitLabThread(client: ApiClient, target: GitLabTarget): CommentThread {
  const notes = `${target.apiUrl}/projects/${encodeURIComponent(target.projectId)}/merge_requests/${target.mergeRequest}/notes`;
  return {
    where: `merge request !${target.mergeRequest}`,
    check: () => Promise.resolve(),
    async find(isOurs) {
      let page: string | undefined = '1';
      for (let count = 0; page !== undefined && count < PAGE_LIMIT; count++) {
        const url = `${notes}?per_page=100&page=${page}&sort=asc&order_by=created_at`;
        const { json, headers } = await requestJson(client, 'GET', url, 'listing the notes');
        const list = noteListSchema.safeParse(json);
        if (!list.success) throw failure(client, 'listing the notes: GitLab answered with something that is not a list of notes');
        const found = list.data.find((note) => note.system !== true && isOurs(note.body ?? ''));
        if (found !== undefined) return { id: String(found.id) };
        const next = headers.get('x-next-page')?.trim();
        page = next !== undefined && /^[1-9]\d{0,8}$/.test(next) ? next : undefined;
      }
      return undefined;
    },
    async create(body) {
      await requestJson(client, 'POST', notes, 'creating the note', { body });
      return {};
    },
    async update(id, body) {
      await requestJson(client, 'PUT', `${notes}/${id}`, 'updating the note', { body });
      return {};
    },
  };
}
