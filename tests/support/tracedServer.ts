import { appendFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { ExportResultCode } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-node';

/**
 * A small API server instrumented as teams instrument theirs: the
 * OpenTelemetry Node SDK's tracer provider and its HTTP instrumentation,
 * which continues the W3C trace context of each request it serves. Every
 * span it ends is written as one JSON line to the file in argv[2]; every
 * request's headers (names and values, as received) to the file in argv[3].
 * It prints `listening <url>` when ready.
 *
 * Routes: `GET /items/:id` 200, `POST /items` 201, `GET /fail` 500,
 * `GET /` a page whose script fetches `/items/1` (a browser's own call).
 *
 *   node .build/tests/support/tracedServer.js spans.jsonl requests.jsonl
 */

/** One span as the server's SDK ended it, in the words of the trace data model. */
export interface ServerSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  /** SpanKind: 1 server, 2 client. */
  readonly kind: number;
  readonly name: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

/** One request as the server received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

const [spansArgument, requestsArgument] = process.argv.slice(2);
if (spansArgument === undefined || requestsArgument === undefined) throw new Error('usage: tracedServer.js SPANS_FILE REQUESTS_FILE');
const spansFile: string = spansArgument;
const requestsFile: string = requestsArgument;

const fileExporter: SpanExporter = {
  export(spans: ReadableSpan[], done) {
    for (const span of spans) {
      const line: ServerSpan = {
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        kind: span.kind,
        name: span.name,
        attributes: span.attributes,
      };
      appendFileSync(spansFile, `${JSON.stringify(line)}\n`);
    }
    done({ code: ExportResultCode.SUCCESS });
  },
  shutdown: () => Promise.resolve(),
};

const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(fileExporter)] });
provider.register();
registerInstrumentations({ instrumentations: [new HttpInstrumentation()] });
// Required after the instrumentation is registered, as an instrumented server loads its HTTP module: patched.
const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

const PAGE = `<!doctype html><html><body><p id="out">…</p>
<script>
const item = new URLSearchParams(location.search).get('item') ?? '1';
const own = new URLSearchParams(location.search).get('traceparent');
fetch('/items/' + item, own === null ? {} : { headers: { traceparent: own } })
  .then((response) => response.json())
  .then((found) => { document.getElementById('out').textContent = found.name; });
</script>
</body></html>`;

function answer(request: IncomingMessage, response: ServerResponse): void {
  appendFileSync(
    requestsFile,
    `${JSON.stringify({ method: request.method ?? '', url: request.url ?? '', headers: request.headers } satisfies ReceivedRequest)}\n`,
  );
  const path = new URL(request.url ?? '/', 'http://server').pathname;
  const json = (status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (request.method === 'GET' && path === '/') response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  else if (request.method === 'GET' && /^\/items\/\d+$/.test(path)) json(200, { id: Number(path.slice(7)), name: 'kettle' });
  else if (request.method === 'POST' && path === '/items') json(201, { id: 2 });
  else if (request.method === 'GET' && path === '/fail') json(500, { error: 'broken' });
  else json(404, { error: 'not found' });
}

const server = http.createServer((request, response) => {
  // The body is read to its end before answering, as a framework would.
  request.resume();
  request.on('end', () => {
    answer(request, response);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void provider.shutdown().then(() => process.exit(0));
});
