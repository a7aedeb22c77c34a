import { ciRunOf, methodAndTemplate } from '../src/exports/exportContext.js';
import { xml, xmlText } from '../src/exports/junit.js';
import { exponentialBucketsOf, exponentialIndex, MAX_BUCKETS, MAX_SCALE } from '../src/exports/otlp.js';
import { bucketOf } from '../src/summary/latencyHistogram.js';
import { expect, test } from './support/test.js';

// The pure parts of the exports: how a report histogram becomes exponential
// buckets, how text becomes XML, and how CI's variables name the run.

const histogramOf = (...bins: [number, number][]) => ({ relativeAccuracy: 0.01, zeroCount: 0, bins });

test.describe('exponential buckets of a report histogram', () => {
  test('a bucket at scale s holds (2^(i/2^s), 2^((i+1)/2^s)]', () => {
    expect(exponentialIndex(1, 0)).toBe(-1);
    expect(exponentialIndex(1.5, 0)).toBe(0);
    expect(exponentialIndex(2, 0)).toBe(0);
    expect(exponentialIndex(0.001, 0)).toBe(-10);
    expect(exponentialIndex(0.1, 5)).toBe(-107);
  });

  test('times over a narrow range keep the finest scale, each bin in the bucket of its value', () => {
    // 10 ms and 20 ms: one doubling, 32 buckets at scale 5.
    const buckets = exponentialBucketsOf(histogramOf([bucketOf(10), 3], [bucketOf(20), 1]));
    expect(buckets.scale).toBe(MAX_SCALE);
    expect(buckets.bucketCounts.reduce((total, count) => total + count, 0)).toBe(4);
    expect(buckets.bucketCounts[0]).toBe(3);
    expect(buckets.bucketCounts[buckets.bucketCounts.length - 1]).toBe(1);
    expect(buckets.offset).toBe(exponentialIndex(0.01 * 1.0000001, MAX_SCALE));
  });

  test('times from 1 ms to 100 s take a coarser scale, so that they fit the buckets the SDK allows', () => {
    const buckets = exponentialBucketsOf(histogramOf([bucketOf(1), 1], [bucketOf(100_000), 2]));
    // 17 doublings: 32 a doubling is 544 buckets, 8 is 136.
    expect(buckets.scale).toBe(3);
    expect(buckets.bucketCounts.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect([buckets.bucketCounts[0], buckets.bucketCounts[buckets.bucketCounts.length - 1]]).toEqual([1, 2]);
  });

  test('times of 0 only: no bucket', () => {
    expect(exponentialBucketsOf({ relativeAccuracy: 0.01, zeroCount: 4, bins: [] })).toEqual({
      scale: MAX_SCALE,
      offset: 0,
      bucketCounts: [],
    });
  });
});

test.describe('XML text', () => {
  test('the special characters are entities; in an attribute, quotes and line breaks too', () => {
    expect(xmlText('a < b && c > "d"\nnext')).toBe('a &lt; b &amp;&amp; c &gt; "d"\nnext');
    expect(xml('a < b && "d"\n\tnext')).toBe('a &lt; b &amp;&amp; &quot;d&quot;&#10;&#9;next');
  });

  test('what XML 1.0 cannot hold is written out: control characters, lone surrogates, U+FFFE', () => {
    expect(xmlText('bell\u0007 nul\u0000 \uD800 \uFFFE ok \uD83D\uDE00')).toBe('bell\\u{7} nul\\u{0} \\u{d800} \\u{fffe} ok \uD83D\uDE00');
  });
});

test.describe("CI's names for the run", () => {
  test('GitHub Actions: commit, branch, repository, workflow, run and its page', () => {
    expect(
      ciRunOf({
        GITHUB_SHA: 'abc',
        GITHUB_REF_NAME: 'main',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_RUN_ID: '9',
        GITHUB_WORKFLOW: 'ci',
        GITHUB_SERVER_URL: 'https://ghe.example',
      }),
    ).toEqual({
      commit: 'abc',
      branch: 'main',
      repositoryUrl: 'https://ghe.example/o/r',
      pipelineName: 'ci',
      runId: '9',
      runUrl: 'https://ghe.example/o/r/actions/runs/9',
    });
  });

  test('GitLab CI: its own variables; nothing set gives nothing', () => {
    expect(
      ciRunOf({
        CI_COMMIT_SHA: 'abc',
        CI_COMMIT_REF_NAME: 'dev',
        CI_PROJECT_URL: 'https://gitlab.example/g/p',
        CI_PROJECT_PATH: 'g/p',
        CI_PIPELINE_ID: '5',
        CI_PIPELINE_URL: 'https://gitlab.example/g/p/-/pipelines/5',
      }),
    ).toEqual({
      commit: 'abc',
      branch: 'dev',
      repositoryUrl: 'https://gitlab.example/g/p',
      pipelineName: 'g/p',
      runId: '5',
      runUrl: 'https://gitlab.example/g/p/-/pipelines/5',
    });
    expect(ciRunOf({ GITHUB_SHA: '  ', HOME: '/root' })).toEqual({});
  });

  test('an endpoint label is a method and a template', () => {
    expect(methodAndTemplate('GET /users/:id')).toEqual({ method: 'GET', template: '/users/:id' });
  });
});
