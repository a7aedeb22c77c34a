import { failureExcerpt, looksSecret, redactText } from '../src/records/failureExcerpt.js';
import { expect, test } from './support/test.js';

// The opt-in excerpt of a failed call's body: first bytes, secrets replaced before the cut.

const bytes = (text: string) => Buffer.from(text, 'utf8');

test('a JSON body has every value under a secret-looking key replaced, at any depth, in arrays too', () => {
  const body = JSON.stringify({ error: 'invalid', user: { email: 'a@b.c', Password: 'hunter2', tokens: [{ access_token: 'x1' }] }, 'X-Api-Key': 'k', sessionId: 's', list: [{ client_secret: 'cs' }] });
  expect(failureExcerpt(bytes(body), 4096)).toBe(
    '{"error":"invalid","user":{"email":"a@b.c","Password":"[redacted]","tokens":"[redacted]"},"X-Api-Key":"[redacted]","sessionId":"[redacted]","list":[{"client_secret":"[redacted]"}]}',
  );
});

test('keys the user names are replaced too, matched within a key with case, - and _ aside', () => {
  expect(failureExcerpt(bytes('{"SSN":"123","customer_iban":"DE00","name":"Ann"}'), 4096, ['ssn', 'IBAN'])).toBe('{"SSN":"[redacted]","customer_iban":"[redacted]","name":"Ann"}');
});

test('text bodies have their key=value, key: value (to the end of the line) and "key": value forms replaced', () => {
  expect(redactText('grant_type=password&password=hunter2&client_id=app')).toBe('grant_type=password&password=[redacted]&client_id=app');
  expect(redactText('Error: bad credentials\nAuthorization: Bearer abc\ncookie=sid=9')).toBe('Error: bad credentials\nAuthorization: [redacted]\ncookie=[redacted]');
  expect(redactText('{"token": "abc", "ok": false, broken')).toBe('{"token": "[redacted]", "ok": false, broken');
});

test('the excerpt is at most the bytes asked for, cut between characters and marked with …', () => {
  const excerpt = failureExcerpt(bytes('ééééé'), 5)!;
  expect(excerpt).toBe('éé…');
  expect(Buffer.byteLength(excerpt.slice(0, -1))).toBeLessThanOrEqual(5);
  expect(failureExcerpt(bytes('short'), 5)).toBe('short');
});

test('a secret is replaced before the cut, so no cut leaves a part of it', () => {
  expect(failureExcerpt(bytes('{"password":"correct horse battery staple"}'), 20)).toBe('{"password":"[redact…');
});

test('no excerpt of a body that is not UTF-8 text, of an empty body, or at 0 bytes', () => {
  expect(failureExcerpt(Uint8Array.from([0xff, 0xfe, 0x00]), 100)).toBeUndefined();
  expect(failureExcerpt(bytes('PNG\u0000\u0001'), 100)).toBeUndefined();
  expect(failureExcerpt(bytes(''), 100)).toBeUndefined();
  expect(failureExcerpt(bytes('error'), 0)).toBeUndefined();
});

test('a "__proto__" key of a body stays a key', () => {
  expect(failureExcerpt(bytes('{"__proto__":{"token":"t"},"a":1}'), 4096)).toBe('{"__proto__":{"token":"[redacted]"},"a":1}');
});

test('which keys look secret', () => {
  expect(['password', 'userPassword', 'refresh-token', 'AUTHORIZATION', 'Set-Cookie', 'apiKey', 'api_key', 'clientSecret', 'private_key'].filter((key) => !looksSecret(key))).toEqual([]);
  expect(['name', 'email', 'status', 'id', 'message', ''].filter((key) => looksSecret(key))).toEqual([]);
});
