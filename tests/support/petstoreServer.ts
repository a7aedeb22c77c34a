import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The expanded Petstore (fixtures/openapi/openapi-3.0-petstore-expanded.yaml)
 * served as its document says, under its server URL's path (`/v2`), on
 * 127.0.0.1, with its pets in memory: `GET /pets` (`tags`, repeated or
 * comma-separated, and `limit`), `POST /pets` (a `NewPet`), `GET /pets/{id}`
 * and `DELETE /pets/{id}`. Every pet answered is a `Pet`: `id` and `name`
 * always, `tag` only when the pet has one. Anything else is answered as the
 * document's `default` response, an `Error` (`code`, `message`).
 */
export interface PetstoreServer {
  /** The server's origin (`http://127.0.0.1:<port>`); the API is under `/v2`. */
  readonly origin: string;
  close(): Promise<void>;
}

interface Pet {
  readonly id: number;
  readonly name: string;
  readonly tag?: string;
}

/** The pets the store starts with: two with a tag, one without. */
const FIRST_PETS: readonly Pet[] = [
  { id: 1, name: 'Rex', tag: 'dog' },
  { id: 2, name: 'Tom' },
  { id: 3, name: 'Nemo', tag: 'fish' },
];

const BASE_PATH = '/v2';
/** int32, as `limit`'s format says. */
const INT32_MAX = 2 ** 31 - 1;
/** A request body larger than this is refused (413): the store is for tests. */
const BODY_LIMIT_BYTES = 64 * 1024;

export async function startPetstoreServer(): Promise<PetstoreServer> {
  const pets = new Map<number, Pet>(FIRST_PETS.map((pet) => [pet.id, pet]));
  let nextId = Math.max(...FIRST_PETS.map((pet) => pet.id)) + 1;

  const server = createServer((request, response) => {
    void answer(request).then(
      ({ status, body }) => {
        if (body === undefined) response.writeHead(status).end();
        else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      },
      () => {
        response.destroy();
      },
    );
  });

  async function answer(request: IncomingMessage): Promise<Answer> {
    const url = new URL(request.url ?? '/', 'http://petstore.invalid');
    if (!url.pathname.startsWith(`${BASE_PATH}/`)) return errorOf(404, 'no such path');
    const segments = url.pathname.slice(BASE_PATH.length + 1).split('/');
    const method = request.method ?? '';
    if (segments.length === 1 && segments[0] === 'pets') {
      if (method === 'GET') return listPets(url.searchParams);
      if (method === 'POST') return addPet(await readBody(request));
      return errorOf(405, `${method} is not allowed on /pets`);
    }
    if (segments.length !== 2 || segments[0] !== 'pets') return errorOf(404, 'no such path');
    if (method !== 'GET' && method !== 'DELETE') return errorOf(405, `${method} is not allowed on /pets/{id}`);
    // The path parameter is an int64: digits, optionally signed.
    if (!/^-?[0-9]+$/.test(segments[1]!)) return errorOf(400, 'id must be an integer');
    const id = Number(segments[1]);
    const pet = pets.get(id);
    if (pet === undefined) return errorOf(404, `no pet ${id}`);
    if (method === 'GET') return { status: 200, body: pet };
    pets.delete(id);
    return { status: 204 };
  }

  function listPets(query: URLSearchParams): Answer {
    // style: form, explode: true (3.0's default) sends `tags=a&tags=b`; a comma-separated value is read too.
    const tags = new Set(
      query
        .getAll('tags')
        .flatMap((value) => value.split(','))
        .filter(Boolean),
    );
    const limitText = query.get('limit');
    if (limitText !== null && (!/^[0-9]+$/.test(limitText) || Number(limitText) > INT32_MAX))
      return errorOf(400, 'limit must be an int32 of 0 or more');
    const limit = limitText === null ? Number.POSITIVE_INFINITY : Number(limitText);
    const chosen = [...pets.values()].filter((pet) => tags.size === 0 || (pet.tag !== undefined && tags.has(pet.tag)));
    return { status: 200, body: chosen.slice(0, limit) };
  }

  function addPet(body: string | undefined): Answer {
    if (body === undefined) return errorOf(413, 'the body is too large');
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return errorOf(400, 'the body is not JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return errorOf(400, 'a NewPet is an object');
    const { name, tag } = parsed as Record<string, unknown>;
    if (typeof name !== 'string') return errorOf(400, 'name is required, a string');
    if (tag !== undefined && typeof tag !== 'string') return errorOf(400, 'tag must be a string');
    const pet: Pet = tag === undefined ? { id: nextId, name } : { id: nextId, name, tag };
    nextId += 1;
    pets.set(pet.id, pet);
    return { status: 200, body: pet };
  }

  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => {
          closed();
        });
      }),
  };
}

/** What the store answers: a status and a JSON body, or none (204). */
interface Answer {
  readonly status: number;
  readonly body?: unknown;
}

/** The body, or undefined when it is larger than the store takes. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The document's `default` response: an `Error`, its `code` the status. */
function errorOf(status: number, message: string): Answer {
  return { status, body: { code: status, message } };
}
