import { failureExcerpt, looksSecret, WITHHELD } from '../src/records/failureExcerpt.js';
import type { RecordedBodies } from '../src/readers/recordBatch.js';
import { createEvidenceRun } from '../src/run/evidenceRun.js';
import { createExcerptAdmission } from '../reporter/worker/bodyChecks.js';
import { expect, test } from './support/test.js';

// The opt-in excerpt of a failed call's body: first bytes, secrets replaced before the cut.

const bytes = (text: string) => Buffer.from(text, 'utf8');

test('a JSON body has every value under a secret-looking key replaced, at any depth, in arrays too', () => {
  const body = JSON.stringify({
    error: 'invalid',
    user: { email: 'a@b.c', Password: 'hunter2', tokens: [{ access_token: 'x1' }] },
    'X-Api-Key': 'k',
    sessionId: 's',
    list: [{ client_secret: 'cs' }],
  });
  expect(failureExcerpt(bytes(body), 4096)).toBe(
    '{"error":"invalid","user":{"email":"a@b.c","Password":"[redacted]","tokens":"[redacted]"},' +
      '"X-Api-Key":"[redacted]","sessionId":"[redacted]","list":[{"client_secret":"[redacted]"}]}',
  );
});

test('keys the user names are replaced too, matched within a key with case, - and _ aside', () => {
  expect(failureExcerpt(bytes('{"SSN":"123","customer_iban":"DE00","name":"Ann"}'), 4096, ['ssn', 'IBAN'])).toBe(
    '{"SSN":"[redacted]","customer_iban":"[redacted]","name":"Ann"}',
  );
});

test('a form has the values of its secret-looking keys replaced, its values taken as JSON string values are, and the others kept as sent', () => {
  expect(failureExcerpt(bytes('grant_type=password&password=hunter2&client_id=app&user%5Bpassword%5D=x'), 4096)).toBe(
    'grant_type=[redacted]&password=[redacted]&client_id=app&user%5Bpassword%5D=[redacted]',
  );
});

test('a JSON string value that is not JSON and names a secret key word is replaced whole', () => {
  expect(failureExcerpt(bytes('{"message":"Authorization: Bearer SECRET","detail":"not found"}'), 4096)).toBe(
    '{"message":"[redacted]","detail":"not found"}',
  );
});

// The shapes the third hostile probe leaked a secret from (issue 34): each is redacted by key or withheld, saying why.

test('JSON inside a JSON string is redacted by key as JSON, and stays a string', () => {
  const body = JSON.stringify({ error: 'upstream failed', upstream: JSON.stringify({ access_token: 'SECRET', scope: 'read' }) });
  expect(failureExcerpt(bytes(body), 4096)).toBe(
    '{"error":"upstream failed","upstream":"{\\"access_token\\":\\"[redacted]\\",\\"scope\\":\\"read\\"}"}',
  );
});

test('JSON inside a form value is redacted by key as JSON, and encoded back', () => {
  const body = `state=ok&payload=${encodeURIComponent('{"refresh_token":"SECRET"}')}`;
  expect(failureExcerpt(bytes(body), 4096)).toBe(`state=ok&payload=${encodeURIComponent('{"refresh_token":"[redacted]"}')}`);
});

test('a form value in quotes is no form: the body is withheld', () => {
  expect(failureExcerpt(bytes('username=ann&password="SECRET phrase"'), 4096)).toBe(WITHHELD.notParsed);
});

test('single-quoted pseudo-JSON is withheld', () => {
  expect(failureExcerpt(bytes("{'error': 'denied', 'token': 'SECRET'}"), 4096)).toBe(WITHHELD.notParsed);
});

test('an XML body is withheld', () => {
  expect(failureExcerpt(bytes('<?xml version="1.0"?><error><code>401</code><apiKey>SECRET</apiKey></error>'), 4096)).toBe(
    WITHHELD.notParsed,
  );
});

test('an HTML body is withheld', () => {
  expect(failureExcerpt(bytes('<html><body><form><input type="hidden" name="csrf" value="SECRET"></form></body></html>'), 4096)).toBe(
    WITHHELD.notParsed,
  );
});

test('JSON that does not parse is withheld', () => {
  expect(failureExcerpt(bytes('{"token": "SECRET", "ok": false, broken'), 4096)).toBe(WITHHELD.notParsed);
});

test('a body over 1 MiB is withheld, JSON or not', () => {
  const padding = 'x'.repeat(1024 * 1024);
  const bodies = [`{"token":"SECRET","padding":"${padding}"}`, `{"token": "SECRET", ${padding}`];
  expect(bodies.map((body) => failureExcerpt(bytes(body), 4096))).toEqual([WITHHELD.tooLarge, WITHHELD.tooLarge]);
});

test('plain text is withheld', () => {
  expect(failureExcerpt(bytes('Error: bad credentials\nAuthorization: Bearer SECRET'), 4096)).toBe(WITHHELD.notParsed);
});

test('JSON nested deeper than 256 levels is withheld, not followed down', () => {
  expect(failureExcerpt(bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), 4096)).toBe(WITHHELD.tooDeep);
});

test('the reason a body is withheld is given whole, whatever the bytes asked for', () => {
  expect(failureExcerpt(bytes('<error/>'), 10)).toBe(WITHHELD.notParsed);
});

test('the excerpt is at most the bytes asked for, cut between characters and marked with …', () => {
  const excerpt = failureExcerpt(bytes('["ééééé"]'), 6)!;
  expect(excerpt).toBe('["éé…');
  expect(Buffer.byteLength(excerpt.slice(0, -1))).toBeLessThanOrEqual(6);
  expect(failureExcerpt(bytes('["short"]'), 9)).toBe('["short"]');
});

test('a secret is replaced before the cut, so no cut leaves a part of it', () => {
  expect(failureExcerpt(bytes('{"password":"correct horse battery staple"}'), 20)).toBe('{"password":"[redact…');
});

test('a body that is not UTF-8 text is withheld', () => {
  const bodies = [Uint8Array.from([0xff, 0xfe, 0x00]), bytes('PNG\u0000\u0001')];
  expect(bodies.map((body) => failureExcerpt(body, 100))).toEqual([WITHHELD.notText, WITHHELD.notText]);
});

test('no excerpt of an empty body, or at 0 bytes', () => {
  expect(failureExcerpt(bytes(''), 100)).toBeUndefined();
  expect(failureExcerpt(bytes('error'), 0)).toBeUndefined();
});

test('a "__proto__" key of a body stays a key', () => {
  expect(failureExcerpt(bytes('{"__proto__":{"token":"t"},"a":1}'), 4096)).toBe('{"__proto__":{"token":"[redacted]"},"a":1}');
});

test('which keys look secret', () => {
  expect(
    ['password', 'userPassword', 'refresh-token', 'AUTHORIZATION', 'Set-Cookie', 'apiKey', 'api_key', 'clientSecret', 'private_key'].filter(
      (key) => !looksSecret(key),
    ),
  ).toEqual([]);
  expect(['name', 'email', 'status', 'id', 'message', ''].filter((key) => looksSecret(key))).toEqual([]);
});

test('a body is read for an excerpt only for the failed calls the report keeps: 100 failed calls of one endpoint, 5 bodies read', () => {
  const run = createEvidenceRun({ environment: 'test', slowResponseThresholdMs: 500, failureExcerptBytes: 100 });
  let reads = 0;
  const body: RecordedBodies = {
    response: {
      get text() {
        reads++;
        return '{"error":"out of stock"}';
      },
    },
  };
  const records = Array.from({ length: 100 }, () => ({ statusCode: 500, endpoint: 'POST /orders', responseTimeMs: 5 }));
  run.takeBatch({
    records,
    bodies: records.map(() => body),
    derivedEndpoints: true,
    location: (index) => ({ kind: 'harEntry', file: 'calls.har', index }),
  });

  const failed = run.finish().endpoints[0]?.failedExecutions ?? [];
  expect([reads, failed.map(({ excerpt }) => excerpt)]).toEqual([5, Array.from({ length: 5 }, () => '{"error":"out of stock"}')]);
});

test("in a test worker, an attempt's failed calls of one endpoint and status are excerpted only up to the 5 the report can list of them", () => {
  const admits = createExcerptAdmission();
  const [first, retry] = [{}, {}];
  const asked = [
    ...Array.from({ length: 7 }, () => admits(first, '500 POST /orders')),
    admits(first, '503 POST /orders'),
    admits(first, '500 GET /orders'),
    admits(retry, '500 POST /orders'),
  ];
  expect(asked).toEqual([true, true, true, true, true, false, false, true, true, true]);
});
