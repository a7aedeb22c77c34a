import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the endpoints `comment --post` uses, on 127.0.0.1:
 * GitHub's issue comments (list, paginated by the Link header; create;
 * update) and a pull request's head, and GitLab's merge-request notes (list,
 * paginated by x-next-page; create; update). Each keeps its comments and
 * every request it got, so a spec can check both the outcome and each call.
 */

/** A request as the server got it. */
export interface ReceivedRequest {
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A comment or note the server holds. */
export interface HeldComment {
  readonly id: number;
  body: string;
  readonly author: string;
}

/** A running stand-in. */
export interface CommentServer {
  /** Its API URL: GITHUB_API_URL or CI_API_V4_URL. */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** The comments of each pull request (or merge request), by its number. */
  readonly threads: Map<number, HeldComment[]>;
  /** Every answer becomes this status (and a JSON `message`), when set: a refused token, a missing repository. */
  refuseWith: { status: number; message: string } | undefined;
  close(): Promise<void>;
}

/** The head commit of every pull request the GitHub stand-in knows. */
export const HEAD_SHA = 'a'.repeat(40);

/** GitHub's issue comments, for `owner/repo`; seeded with `threads`. */
export function startGitHub(threads: Record<number, HeldComment[]> = {}): Promise<CommentServer> {
  return start('', threads, (server, request, url) => {
    const list = /^\/repos\/owner\/repo\/issues\/(\d+)\/comments$/.exec(request.path);
    const one = /^\/repos\/owner\/repo\/issues\/comments\/(\d+)$/.exec(request.path);
    const pull = /^\/repos\/owner\/repo\/pulls\/(\d+)$/.exec(request.path);
    if (pull !== null && request.method === 'GET') return reply(200, { number: Number(pull[1]), head: { sha: HEAD_SHA } });
    if (list !== null && request.method === 'GET') {
      const comments = server.threads.get(Number(list[1])) ?? [];
      const perPage = Number(request.query.get('per_page') ?? '30');
      const page = Number(request.query.get('page') ?? '1');
      const pages = Math.max(1, Math.ceil(comments.length / perPage));
      const link = (to: number, rel: string) => `<${url}${request.path}?per_page=${perPage}&page=${to}>; rel="${rel}"`;
      const links = page < pages ? [link(page + 1, 'next'), link(pages, 'last')] : [];
      const shown = comments.slice((page - 1) * perPage, page * perPage).map((comment) => gitHubComment(url, comment));
      return reply(200, shown, links.length === 0 ? {} : { link: links.join(', ') });
    }
    if (list !== null && request.method === 'POST') {
      const comment = { id: nextId(server), body: bodyOf(request), author: 'github-actions[bot]' };
      const thread = server.threads.get(Number(list[1])) ?? [];
      thread.push(comment);
      server.threads.set(Number(list[1]), thread);
      return reply(201, gitHubComment(url, comment));
    }
    if (one !== null && request.method === 'PATCH') {
      const comment = [...server.threads.values()].flat().find((candidate) => candidate.id === Number(one[1]));
      if (comment === undefined) return reply(404, { message: 'Not Found' });
      comment.body = bodyOf(request);
      return reply(200, gitHubComment(url, comment));
    }
    return reply(404, { message: 'Not Found' });
  });
}

/** GitLab's merge-request notes, for the project `42`, under /api/v4; seeded with `threads`. */
export function startGitLab(threads: Record<number, HeldComment[]> = {}): Promise<CommentServer> {
  return start('/api/v4', threads, (server, request) => {
    const list = /^\/api\/v4\/projects\/42\/merge_requests\/(\d+)\/notes$/.exec(request.path);
    const one = /^\/api\/v4\/projects\/42\/merge_requests\/(\d+)\/notes\/(\d+)$/.exec(request.path);
    if (list !== null && request.method === 'GET') {
      const notes = server.threads.get(Number(list[1])) ?? [];
      const perPage = Number(request.query.get('per_page') ?? '20');
      const page = Number(request.query.get('page') ?? '1');
      const next = page * perPage < notes.length ? String(page + 1) : '';
      const shown = notes.slice((page - 1) * perPage, page * perPage).map(gitLabNote);
      return reply(200, shown, { 'x-next-page': next, 'x-page': String(page), 'x-per-page': String(perPage) });
    }
    if (list !== null && request.method === 'POST') {
      const note = { id: nextId(server), body: bodyOf(request), author: 'project_42_bot' };
      const thread = server.threads.get(Number(list[1])) ?? [];
      thread.push(note);
      server.threads.set(Number(list[1]), thread);
      return reply(201, gitLabNote(note));
    }
    if (one !== null && request.method === 'PUT') {
      const note = (server.threads.get(Number(one[1])) ?? []).find((candidate) => candidate.id === Number(one[2]));
      if (note === undefined) return reply(404, { message: '404 Not found' });
      note.body = bodyOf(request);
      return reply(200, gitLabNote(note));
    }
    return reply(404, { message: '404 Not found' });
  });
}

/** `count` comments by people, `comment 1` to `comment N`, ids from `firstId`. */
export function peopleComments(count: number, firstId = 1000): HeldComment[] {
  return Array.from({ length: count }, (_, index) => ({ id: firstId + index, body: `comment ${index + 1}`, author: 'reviewer' }));
}

/** An answer: its status, its JSON and its headers. */
interface Reply {
  readonly status: number;
  readonly json: unknown;
  readonly headers: Record<string, string>;
}

type Handler = (server: CommentServer, request: ReceivedRequest, origin: string) => Reply;

async function start(prefix: string, threads: Record<number, HeldComment[]>, handle: Handler): Promise<CommentServer> {
  let origin = '';
  const server: CommentServer = {
    url: '',
    requests: [],
    threads: new Map(Object.entries(threads).map(([number, comments]) => [Number(number), comments])),
    refuseWith: undefined,
    close: () =>
      new Promise((closed) => {
        http.close(() => {
          closed();
        });
      }),
  };
  const http: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const request = {
        method: incoming.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      server.requests.push(request);
      const { status, json, headers } =
        server.refuseWith === undefined
          ? handle(server, request, origin)
          : reply(server.refuseWith.status, { message: server.refuseWith.message });
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  Object.assign(server, { url: `${origin}${prefix}` });
  return server;
}

function reply(status: number, json: unknown, headers: Record<string, string> = {}): Reply {
  return { status, json, headers };
}

function bodyOf(request: ReceivedRequest): string {
  const { body } = JSON.parse(request.body) as { body: string };
  return body;
}

function nextId(server: CommentServer): number {
  return Math.max(0, ...[...server.threads.values()].flat().map((comment) => comment.id)) + 1;
}

function gitHubComment(origin: string, { id, body, author }: HeldComment): unknown {
  return { id, body, user: { login: author }, html_url: `${origin}/owner/repo/pull/7#issuecomment-${id}` };
}

function gitLabNote({ id, body, author }: HeldComment): unknown {
  return { id, body, author: { username: author }, system: false };
}
