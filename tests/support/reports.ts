import type { QualityReport } from '../../src/index.js';

/**
 * A report without its measured times, for runs that make real calls (real
 * calls take real, varying time): every count, status and label stays.
 */
export function withoutTimes({ responseTimeMs: _times, slowestExecutions: _slowest, endpoints, ...report }: QualityReport): unknown {
  return { ...report, endpoints: endpoints.map(({ responseTimeMs: _, timeToFirstByteMs: _firstByte, newConnectionCount: _connections, ...entry }) => entry) };
}
