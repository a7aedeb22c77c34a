import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small web application for the browser-call specs: its page calls its
 * API with fetch and XMLHttpRequest (one call failing, one slow, one never
 * answered for the page to abort, one streamed, one cacheable, one
 * redirected, one a service worker answers, a beacon's and a ping's) and
 * loads an asset of each type. `answered` lists every API call the server answered, in order.
 */

export interface App {
  readonly origin: string;
  /** `GET /api/orders 200`, each call the server answered, in order; the API's calls only. */
  readonly answered: string[];
  readonly server: Server;
  /** Settles when the server next receives a request for `pathname` (the API's calls are answered or held after it). */
  received(pathname: string): Promise<void>;
}

export async function startApp(): Promise<App> {
  const answered: string[] = [];
  const waiting = new Map<string, (() => void)[]>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://app');
    for (const settle of waiting.get(url.pathname) ?? []) settle();
    waiting.delete(url.pathname);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      if (url.pathname.startsWith('/api/')) answered.push(`${request.method ?? ''} ${url.pathname} ${status}`);
      response.writeHead(status, { 'content-type': type, ...headers });
      response.end(body);
    };
    switch (url.pathname) {
      case '/':
        send(
          200,
          'text/html',
          '<!doctype html><html><head><link rel="stylesheet" href="/style.css"><link rel="preload" href="/font.woff2" ' +
            'as="font" crossorigin><script src="/app.js"></script></head><body><img src="/logo.png"><video ' +
            'src="/clip.webm"></video></body></html>',
        );
        return;
      case '/style.css':
        send(200, 'text/css', 'body { color: black }');
        return;
      case '/app.js':
        send(200, 'text/javascript', 'window.loaded = true;');
        return;
      case '/logo.png':
        send(200, 'image/png', Buffer.from('89504e470d0a1a0a', 'hex'));
        return;
      case '/font.woff2':
        send(200, 'font/woff2', Buffer.alloc(16));
        return;
      case '/clip.webm':
        send(200, 'video/webm', Buffer.alloc(16));
        return;
      case '/sw.js':
        send(
          200,
          'text/javascript',
          "self.addEventListener('fetch', (event) => { if (new URL(event.request.url).pathname === '/api/offline') " +
            "event.respondWith(new Response('{}', { headers: { 'content-type': 'application/json' } })); }); " +
            "self.addEventListener('activate', (event) => event.waitUntil(clients.claim()));",
        );
        return;
      case '/api/orders':
        send(request.method === 'POST' ? 201 : 200, 'application/json', '[]');
        return;
      case '/api/broken':
        send(500, 'application/json', '{"error":"broken"}');
        return;
      case '/api/slow':
        setTimeout(() => {
          send(200, 'application/json', '{}');
        }, 300);
        return;
      case '/api/hang':
        // Never answered: the page aborts it.
        return;
      case '/api/stream':
        if (url.pathname.startsWith('/api/')) answered.push(`GET ${url.pathname} 200`);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[');
        setTimeout(() => {
          response.end('1]');
        }, 200);
        return;
      case '/api/settings':
        send(200, 'application/json', '{"theme":"dark"}', { 'cache-control': 'max-age=600' });
        return;
      case '/api/profile':
        // Revalidated every time: the second call sends If-None-Match and the server answers 304.
        if (request.headers['if-none-match'] === '"v1"') send(304, 'application/json', '', { etag: '"v1"', 'cache-control': 'no-cache' });
        else send(200, 'application/json', '{"name":"Ada"}', { etag: '"v1"', 'cache-control': 'no-cache' });
        return;
      case '/api/dropped':
        // Its head and the first bytes of its body, then nothing: the page goes elsewhere meanwhile.
        answered.push(`GET ${url.pathname} 200`);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[1,');
        return;
      case '/api/beacon':
      case '/api/ping':
        // What navigator.sendBeacon and a link's ping attribute send: answered with no content.
        send(204, 'text/plain', '');
        return;
      case '/api/old-orders':
        send(302, 'text/plain', '', { location: '/api/orders?moved=1' });
        return;
      default:
        send(404, 'text/plain', 'not here');
        return;
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const received = (pathname: string) =>
    new Promise<void>((settle) => {
      waiting.set(pathname, [...(waiting.get(pathname) ?? []), settle]);
    });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, answered, server, received };
}
