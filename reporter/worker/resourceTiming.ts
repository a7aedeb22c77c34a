import type { TimingPhases } from '../../src/records/executionRecord.js';

/** Resource timing as Playwright gives it for a browser request and for an API call: milliseconds after `startTime`, -1 for what did not happen. */
export interface ResourceTiming {
  readonly domainLookupStart: number;
  readonly domainLookupEnd: number;
  readonly connectStart: number;
  readonly secureConnectionStart: number;
  readonly connectEnd: number;
  readonly requestStart: number;
  readonly responseStart: number;
  readonly responseEnd: number;
}

/**
 * The response time of a call and its phases (dns, connect, tls, wait,
 * receive) from its resource timing: `responseEnd`, when the last byte of
 * the body arrived (`responseStart` when the body was not read).
 * Undefined when neither happened.
 */
export function responseTimeOf(timing: ResourceTiming): { responseTimeMs: number; timingMs: TimingPhases } | undefined {
  const end = timing.responseEnd >= 0 ? timing.responseEnd : timing.responseStart;
  if (end < 0) return undefined;
  const span = (from: number, to: number): number | undefined => (from >= 0 && to >= from ? roundToMicroseconds(to - from) : undefined);
  const connectEnd = timing.secureConnectionStart >= 0 ? timing.secureConnectionStart : timing.connectEnd;
  const phases: Record<string, number | undefined> = {
    dns: span(timing.domainLookupStart, timing.domainLookupEnd),
    connect: span(timing.connectStart, connectEnd),
    tls: timing.secureConnectionStart >= 0 ? span(timing.secureConnectionStart, timing.connectEnd) : undefined,
    wait: span(timing.requestStart, timing.responseStart),
    receive: timing.responseEnd >= 0 ? span(timing.responseStart, timing.responseEnd) : undefined,
  };
  const timingMs = Object.fromEntries(Object.entries(phases).filter(([, value]) => value !== undefined)) as TimingPhases;
  return { responseTimeMs: roundToMicroseconds(end), timingMs };
}

/** Microseconds are the resolution of the clock; more digits are noise that would make records differ byte by byte. */
export function roundToMicroseconds(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
