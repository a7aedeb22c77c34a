import { readFileSync } from 'node:fs';
import { expect, test } from './support/test.js';
import {
  buildReport,
  formatReport,
  normaliseExecutionRecords,
  parseInputJson,
  summariseExecutions,
  validateExecutionRecords,
  type CanonicalExecutionRecord,
  type ExecutionStatistics,
} from '../src/index.js';

function execution(endpoint: string, statusCode: number, responseTimeMs: number): CanonicalExecutionRecord {
  return { statusCode, endpoint, responseTimeMs };
}

const fast = 10;
const threshold = 750;

test.describe('failures', () => {
  test('statusCode 399 is not a failure', () => {
    expect(summariseExecutions([execution('GET /a', 399, fast)], threshold).failedExecutionCount).toBe(0);
  });

  test('statusCode 400 is a failure', () => {
    expect(summariseExecutions([execution('GET /a', 400, fast)], threshold).failedExecutionCount).toBe(1);
  });

  test('statusCode 599 is a failure', () => {
    expect(summariseExecutions([execution('GET /a', 599, fast)], threshold).failedExecutionCount).toBe(1);
  });

  test('failureCountByEndpoint holds only endpoints with failures, with exact counts', () => {
    const summary = summariseExecutions(
      [
        execution('GET /a', 500, fast),
        execution('GET /ok', 200, fast),
        execution('GET /a', 404, fast),
        execution('POST /b', 503, fast),
        execution('GET /a', 201, fast),
        execution('GET /redirect', 302, fast),
      ],
      threshold,
    );
    expect(summary.failedExecutionCount).toBe(3);
    expect(summary.failureCountByEndpoint).toStrictEqual({ 'GET /a': 2, 'POST /b': 1 });
  });
});

test.describe('slow executions', () => {
  test('a response time equal to the threshold is not slow', () => {
    const summary = summariseExecutions([execution('GET /a', 200, 750)], 750);
    expect(summary.slowExecutionCount).toBe(0);
    expect(summary.slowEndpoints).toStrictEqual([]);
  });

  test('a response time just above the threshold is slow', () => {
    const summary = summariseExecutions([execution('GET /a', 200, 750.001)], 750);
    expect(summary.slowExecutionCount).toBe(1);
    expect(summary.slowEndpoints).toStrictEqual(['GET /a']);
  });

  test('with threshold 0 every execution above 0 ms is slow and 0 ms is not', () => {
    const summary = summariseExecutions([execution('GET /a', 200, 0), execution('GET /b', 200, 0.5)], 0);
    expect(summary.slowExecutionCount).toBe(1);
    expect(summary.slowEndpoints).toStrictEqual(['GET /b']);
  });

  test('slowEndpoints lists each endpoint once however many slow executions it has', () => {
    const summary = summariseExecutions(
      [execution('GET /a', 200, 800), execution('GET /a', 500, 900), execution('GET /b', 200, 1000), execution('GET /a', 200, 751)],
      threshold,
    );
    expect(summary.slowExecutionCount).toBe(4);
    expect(summary.slowEndpoints).toStrictEqual(['GET /a', 'GET /b']);
  });
});

test.describe('ordering', () => {
  // Code-unit order; a locale sort would give DELETE /z, GET /a, GET /b, GET /B, GET /é.
  const codeUnitOrder = ['DELETE /z', 'GET /B', 'GET /a', 'GET /b', 'GET /é'];
  const arrivalOrder = ['GET /b', 'GET /B', 'GET /a', 'DELETE /z', 'GET /é'];
  const summary = summariseExecutions(
    arrivalOrder.map((endpoint) => execution(endpoint, 500, 1000)),
    threshold,
  );

  test('failureCountByEndpoint keys are in code-unit order, not locale order', () => {
    expect(Object.keys(summary.failureCountByEndpoint)).toEqual(codeUnitOrder);
  });

  test('failureCountByEndpoint serialises its keys in code-unit order', () => {
    expect(JSON.stringify(summary.failureCountByEndpoint)).toBe('{"DELETE /z":1,"GET /B":1,"GET /a":1,"GET /b":1,"GET /é":1}');
  });

  test('slowEndpoints are in code-unit order, not locale order', () => {
    expect(summary.slowEndpoints).toEqual(codeUnitOrder);
  });
});

test.describe('calls that got no response', () => {
  function noResponse(endpoint: string, errorCode: string, responseTimeMs: number): CanonicalExecutionRecord {
    return { errorCode, endpoint, responseTimeMs };
  }

  test('each counts as an execution, as failed and as no response, listed once per endpoint', () => {
    const summary = summariseExecutions(
      [
        noResponse('GET /orders', 'ECONNREFUSED', 2),
        noResponse('GET /orders', 'ECONNREFUSED', 1),
        execution('GET /orders', 200, fast),
        noResponse('POST /auth', 'ENOTFOUND', 3),
      ],
      threshold,
    );
    expect(summary).toMatchObject({
      executionCount: 4,
      failedExecutionCount: 3,
      slowExecutionCount: 0,
      failureCountByEndpoint: { 'GET /orders': 2, 'POST /auth': 1 },
      slowEndpoints: [],
      noResponseCount: 3,
      noResponseEndpoints: ['GET /orders', 'POST /auth'],
    });
  });

  test('one that failed after longer than the threshold (a timeout) is slow too', () => {
    const summary = summariseExecutions(
      [noResponse('GET /reports', 'ETIMEDOUT', threshold + 1), noResponse('GET /orders', 'ETIMEDOUT', threshold)],
      threshold,
    );
    expect([summary.slowExecutionCount, summary.slowEndpoints]).toEqual([1, ['GET /reports']]);
  });
});

test.describe('edge cases', () => {
  test('no executions give zero counts, an empty map and an empty list', () => {
    expect(summariseExecutions([], threshold)).toStrictEqual({
      executionCount: 0,
      failedExecutionCount: 0,
      slowExecutionCount: 0,
      failureCountByEndpoint: {},
      slowEndpoints: [],
      noResponseCount: 0,
      noResponseEndpoints: [],
      expectedErrorCount: 0,
      serverErrorCount: 0,
      statusCodes: {},
      responseTimeMs: { min: null, mean: null, p50: null, p90: null, p95: null, p99: null, max: null },
      endpoints: [],
      slowestExecutions: [],
    });
  });

  for (const bad of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
    test(`a threshold of ${bad} is a RangeError`, () => {
      expect(() => summariseExecutions([], bad)).toThrow(RangeError);
      expect(() => summariseExecutions([], bad)).toThrow(
        new RangeError(`the slow-response threshold must be a finite number of milliseconds, zero or more; got ${bad}`),
      );
    });
  }
});

test.describe('the SPEC sample', () => {
  function summariseFixture(): ExecutionStatistics {
    const text = readFileSync(new URL('../fixtures/quality-executions.json', import.meta.url), 'utf8');
    return summariseExecutions(normaliseExecutionRecords(validateExecutionRecords(parseInputJson(text))), 750);
  }

  const expectedReport = `{
  "schemaVersion": 2,
  "environment": "local",
  "slowResponseThresholdMs": 750,
  "expectedStatuses": "100-399",
  "executionCount": 3,
  "failedExecutionCount": 1,
  "slowExecutionCount": 2,
  "failureCountByEndpoint": {
    "POST /orders": 1
  },
  "slowEndpoints": [
    "GET /invoices",
    "POST /orders"
  ],
  "noResponseCount": 0,
  "noResponseEndpoints": [],
  "serverErrorCount": 1,
  "expectedErrorCount": 0,
  "statusCodes": {
    "200": 1,
    "201": 1,
    "503": 1
  },
  "responseTimeMs": {
    "min": 120,
    "mean": 770,
    "p50": 980,
    "p90": 1210,
    "p95": 1210,
    "p99": 1210,
    "max": 1210,
    "source": "exact"
  },
  "endpoints": [
    {
      "endpoint": "GET /invoices",
      "executionCount": 1,
      "failedExecutionCount": 0,
      "expectedErrorCount": 0,
      "slowExecutionCount": 1,
      "noResponseCount": 0,
      "serverErrorCount": 0,
      "statusCodes": {
        "201": 1
      },
      "responseTimeMs": {
        "min": 1210,
        "mean": 1210,
        "p50": 1210,
        "p90": 1210,
        "p95": 1210,
        "p99": 1210,
        "max": 1210,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[355, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 201,
          "executionCount": 1,
          "totalMs": 1210
        }
      ]
    },
    {
      "endpoint": "GET /orders",
      "executionCount": 1,
      "failedExecutionCount": 0,
      "expectedErrorCount": 0,
      "slowExecutionCount": 0,
      "noResponseCount": 0,
      "serverErrorCount": 0,
      "statusCodes": {
        "200": 1
      },
      "responseTimeMs": {
        "min": 120,
        "mean": 120,
        "p50": 120,
        "p90": 120,
        "p95": 120,
        "p99": 120,
        "max": 120,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[240, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 200,
          "executionCount": 1,
          "totalMs": 120
        }
      ]
    },
    {
      "endpoint": "POST /orders",
      "executionCount": 1,
      "failedExecutionCount": 1,
      "expectedErrorCount": 0,
      "slowExecutionCount": 1,
      "noResponseCount": 0,
      "serverErrorCount": 1,
      "statusCodes": {
        "503": 1
      },
      "responseTimeMs": {
        "min": 980,
        "mean": 980,
        "p50": 980,
        "p90": 980,
        "p95": 980,
        "p99": 980,
        "max": 980,
        "source": "exact"
      },
      "latencyHistogram": {
        "relativeAccuracy": 0.01,
        "zeroCount": 0,
        "bins": [[345, 1]]
      },
      "latencyByStatus": [
        {
          "statusCode": 503,
          "executionCount": 1,
          "totalMs": 980
        }
      ]
    }
  ],
  "slowestExecutions": [
    {
      "endpoint": "GET /invoices",
      "statusCode": 201,
      "responseTimeMs": 1210,
      "id": "exec-003"
    },
    {
      "endpoint": "POST /orders",
      "statusCode": 503,
      "responseTimeMs": 980,
      "id": "exec-002"
    },
    {
      "endpoint": "GET /orders",
      "statusCode": 200,
      "responseTimeMs": 120,
      "id": "exec-001"
    }
  ]
}
`;

  test('the three sample records with threshold 750 summarise to 3 executions, 1 failed and 2 slow', () => {
    const { executionCount, failedExecutionCount, slowExecutionCount, failureCountByEndpoint, slowEndpoints } = summariseFixture();
    expect({ executionCount, failedExecutionCount, slowExecutionCount, failureCountByEndpoint, slowEndpoints }).toStrictEqual({
      executionCount: 3,
      failedExecutionCount: 1,
      slowExecutionCount: 2,
      failureCountByEndpoint: { 'POST /orders': 1 },
      slowEndpoints: ['GET /invoices', 'POST /orders'],
    });
  });

  test('the sample report has the exact expected bytes', () => {
    const report = formatReport(buildReport(summariseFixture(), { environment: 'local', slowResponseThresholdMs: 750 }));
    expect(report).toBe(expectedReport);
  });

  test('the sample report is identical when computed twice', () => {
    const first = formatReport(buildReport(summariseFixture(), { environment: 'local', slowResponseThresholdMs: 750 }));
    const second = formatReport(buildReport(summariseFixture(), { environment: 'local', slowResponseThresholdMs: 750 }));
    expect(second).toBe(first);
  });

  test('the report of no executions has an empty map and an empty list', () => {
    const report = formatReport(buildReport(summariseExecutions([], 750), { environment: 'ci', slowResponseThresholdMs: 750 }));
    expect(report).toBe(`{
  "schemaVersion": 2,
  "environment": "ci",
  "slowResponseThresholdMs": 750,
  "expectedStatuses": "100-399",
  "executionCount": 0,
  "failedExecutionCount": 0,
  "slowExecutionCount": 0,
  "failureCountByEndpoint": {},
  "slowEndpoints": [],
  "noResponseCount": 0,
  "noResponseEndpoints": [],
  "serverErrorCount": 0,
  "expectedErrorCount": 0,
  "statusCodes": {},
  "responseTimeMs": {
    "min": null,
    "mean": null,
    "p50": null,
    "p90": null,
    "p95": null,
    "p99": null,
    "max": null,
    "source": "exact"
  },
  "endpoints": [],
  "slowestExecutions": []
}
`);
  });
});
