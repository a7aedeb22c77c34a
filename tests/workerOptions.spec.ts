import { REPORTER_OPTIONS_VARIABLE, reporterOptionsFor, sharedReporterOptions } from '../reporter/shared/workerOptions.js';
import { expect, test } from './support/test.js';

// How the test workers learn the reporter's options, whatever name the project gives the reporter.

test("a worker takes the options the reporter handed over for its own config's folder, and none meant for another run's", () => {
  const env = {
    [REPORTER_OPTIONS_VARIABLE]: sharedReporterOptions({ configDir: '/shop', openapi: 'api.yaml', failureExcerptBytes: 200 }, '/shop'),
  };
  const broken = { [REPORTER_OPTIONS_VARIABLE]: '{' };
  const taken = [
    ['/shop', env],
    ['/shop/inner-run', env],
    ['/shop', {}],
    ['/shop', broken],
  ] as const;
  expect(taken.map(([configDir, environment]) => reporterOptionsFor(configDir, environment))).toEqual([
    { configDir: '/shop', openapi: 'api.yaml', failureExcerptBytes: 200 },
    undefined,
    undefined,
    undefined,
  ]);
});
