import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { learnTemplates, looksOpaque } from '../src/labels/learnedTemplates.js';
import { createEvidenceRun, type EvidencePart } from '../src/run/evidenceRun.js';
import { RecordIntake } from '../src/run/recordIntake.js';
import { propertyParameters } from './support/properties.js';
import { repositoryRoot } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Templates learned from a run's labels, where no shape rule knows the ids:
// the rule on real data and case by case, and its independence of the
// order, files, shards and threads the records come in.

test('values that look opaque, and words and short values that do not', () => {
  const opaque = [
    '8P0BlkWfpjRO60K1',
    'ayrsDqOPNRzETaaX',
    'V1StGXR8_Z5jdHi6B-myT',
    '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    'iphone15',
    'product-1732400000123',
    'jdoe1985',
  ];
  const words = [
    'cancelar-compra',
    'concluir-compra',
    'getUserById',
    'ProjectsList',
    'users-28-day',
    'openapi.json',
    'EXPORT',
    'me',
    'v2',
    'pt-BR',
    'a1b2c',
    ':id',
  ];
  expect(opaque.filter((segment) => !looksOpaque(segment))).toEqual([]);
  expect(words.filter((segment) => looksOpaque(segment))).toEqual([]);
});

test('on a real ServeRest run, 53 labels become the 8 endpoints the suite called; the cart actions stay words', () => {
  const labels = readFileSync(join(repositoryRoot, 'fixtures/labels/serverest-suite-labels.txt'), 'utf8').trim().split('\n');
  const learned = learnTemplates(labels);

  expect(labels).toHaveLength(53);
  expect([...new Set(labels.map((label) => learned.get(label) ?? label))].sort()).toEqual([
    'DELETE /carrinhos/cancelar-compra',
    'DELETE /carrinhos/concluir-compra',
    'DELETE /produtos/:id',
    'DELETE /usuarios/:id',
    'POST /carrinhos',
    'POST /login',
    'POST /produtos',
    'POST /usuarios',
  ]);
});

test('a position is a parameter when it holds two opaque values, whatever the methods; a word beside them stays', () => {
  const learned = learnTemplates(['GET /usuarios/8P0BlkWfpjRO60K1', 'DELETE /usuarios/x8vuEdxD5TSaJHKW', 'GET /usuarios/me']);
  expect(Object.fromEntries(learned)).toEqual({
    'GET /usuarios/8P0BlkWfpjRO60K1': 'GET /usuarios/:id',
    'DELETE /usuarios/x8vuEdxD5TSaJHKW': 'DELETE /usuarios/:id',
  });
});

test('one opaque value is a parameter beside an id the shape rules made, and stays one alone', () => {
  expect(Object.fromEntries(learnTemplates(['GET /users/:id', 'GET /users/jdoe1985']))).toEqual({
    'GET /users/jdoe1985': 'GET /users/:id',
  });
  expect(learnTemplates(['GET /users/jdoe1985', 'GET /orders/8P0BlkWfpjRO60K1']).size).toBe(0);
});

test('a value of letters alone beside ids of its length and alphabet is an id, however much it reads as camelCase', () => {
  const labels = [
    'GET /produtos/0XR0CZY5Lyc7fOqj',
    'DELETE /produtos/44XGbyWpacpaErkm',
    'GET /produtos/uZowkAzjcVmDovZj',
    'DELETE /usuarios/5RX86F056bUpyhQj',
  ];
  const learned = learnTemplates([...labels, 'GET /usuarios/8P0BlkWfpjRO60K1', 'GET /usuarios/ZnbnMgnxaBrgsaAe']);
  expect([...new Set(learned.values())].sort()).toEqual([
    'DELETE /produtos/:id',
    'DELETE /usuarios/:id',
    'GET /produtos/:id',
    'GET /usuarios/:id',
  ]);
  expect(learned.size).toBe(6);
});

test('beside ids of letters and digits, a word of another length, of one case or with a separator stays a word', () => {
  const words = ['search', 'administradores', 'PRODUTOSPOPULARE', 'produtospopulare', 'cancelar-compras', 'ProdutosPopulares'];
  const learned = learnTemplates([
    'GET /produtos/0XR0CZY5Lyc7fOqj',
    'GET /produtos/44XGbyWpacpaErkm',
    ...words.map((word) => `GET /produtos/${word}`),
  ]);
  expect([...learned.keys()]).toEqual(['GET /produtos/0XR0CZY5Lyc7fOqj', 'GET /produtos/44XGbyWpacpaErkm']);
});

test('positions are learned from the left, the next under the template learned so far', () => {
  const learned = learnTemplates([
    'GET /orders/AbC123xyz9/items/Zz9Yy8Xx7W',
    'GET /orders/Qw3Er4Ty5U/items/Mn8Bv7Cx6Z',
    'GET /orders/Qw3Er4Ty5U/items',
  ]);
  expect([...learned.values()]).toEqual(['GET /orders/:id/items/:id', 'GET /orders/:id/items/:id', 'GET /orders/:id/items']);
});

test('short values and words never become ids, however many there are', () => {
  const labels = [
    'GET /api/v1/users',
    'GET /api/v2/users',
    'GET /api/v3/users',
    'GET /reports/users-1-day',
    'GET /reports/users-28-day',
    'GET /reports/repos-1-day',
  ];
  expect(learnTemplates(labels).size).toBe(0);
});

// Known templates, instantiated with made-up ids of the kinds real APIs use.
const WORDS = ['usuarios', 'produtos', 'carrinhos', 'cancelar-compra', 'me', 'items', 'orders', 'search'];
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
// The alphabets are ASCII: a character is one code unit.
const charsOf = (alphabet: string): string[] => alphabet.split('');
const chars = (alphabet: string, minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...charsOf(alphabet)), { minLength, maxLength }).map((list) => list.join(''));
/** An opaque id: a letter and a digit side by side somewhere, so it is never a word. */
const opaqueId = fc.oneof(
  fc
    .tuple(chars(BASE62, 2, 7), fc.constantFrom(...charsOf('0123456789')), fc.constantFrom(...charsOf('abcXYZ')), chars(BASE62, 6, 6))
    .map((parts) => parts.join('')), // ServeRest
  fc.tuple(chars(`${BASE62}_-`, 10, 10), fc.constantFrom('a1', 'Z9', 'q4'), chars(`${BASE62}_-`, 9, 9)).map((parts) => parts.join('')), // nanoid
  fc.tuple(fc.constant('01'), chars(CROCKFORD, 24, 24)).map((parts) => `${parts[0]}H${parts[1].slice(1)}`), // ULID
  fc.tuple(fc.constantFrom(...WORDS), fc.integer({ min: 1000, max: 9_999_999 })).map(([word, number]) => `${word}-${number}`), // slug with digits
);
const template = fc.tuple(
  fc.constantFrom('GET', 'POST', 'DELETE'),
  fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.constant(':id')), { minLength: 1, maxLength: 4 }),
);

/** Labels of templates, each instantiated `copies` times with fresh ids; with the template each stands for. */
const instantiated = fc
  .uniqueArray(template, { minLength: 1, maxLength: 6, selector: ([method, segments]) => `${method} /${segments.join('/')}` })
  .chain((templates) =>
    fc.tuple(
      ...templates.map(([method, segments]) =>
        fc
          .array(fc.tuple(...segments.map((segment) => (segment === ':id' ? opaqueId : fc.constant(segment)))), {
            minLength: 2,
            maxLength: 4,
          })
          .map((instances) =>
            instances.map((values) => ({ label: `${method} /${values.join('/')}`, template: `${method} /${segments.join('/')}` })),
          ),
      ),
    ),
  )
  .map((groups) => groups.flat())
  // Two fresh ids make two distinct values: drop the rare draw that repeats one.
  .filter((labels) =>
    labels.every(({ label, template }, index) => !template.includes(':id') || labels.findIndex((other) => other.label === label) === index),
  );

test('property: labels made from known templates with opaque ids are learned back to those templates', () => {
  fc.assert(
    fc.property(instantiated, (labels) => {
      const learned = learnTemplates(labels.map(({ label }) => label));
      for (const { label, template } of labels) assert.equal(learned.get(label) ?? label, template, label);
    }),
    propertyParameters(500),
  );
});

// NeDB's ids (ServeRest's): 16 characters of letters and digits, some with no digit, some of those reading as camelCase.
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const mixedCase = (id: string) => /[a-z]/.test(id) && /[A-Z]/.test(id);
const nedbId = chars(BASE62, 16, 16).filter((id) => /\d/.test(id) && mixedCase(id));
const camelCaseLooking = fc
  .tuple(chars(LOWER, 0, 3), fc.array(fc.tuple(fc.constantFrom(...charsOf(UPPER)), chars(LOWER, 1, 4)), { minLength: 5, maxLength: 16 }))
  .map(([head, humps]) => `${head}${humps.flat().join('')}`.slice(0, 16))
  .filter((id) => id.length === 16 && mixedCase(id));
const letterId = fc.oneof(chars(`${LOWER}${UPPER}`, 16, 16).filter(mixedCase), camelCaseLooking);
const wordsBesideIds = [
  ...WORDS,
  'administradores',
  'PRODUTOSPOPULARE',
  'produtospopulare',
  'cancelar-compras',
  'ProdutosPopulares',
  'getUserById',
];

test('property: beside ids of letters and digits, every id of their length and alphabet is learned, digits or none, and every word stays', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(nedbId, { minLength: 2, maxLength: 5 }),
      fc.uniqueArray(letterId, { maxLength: 3 }),
      fc.subarray(wordsBesideIds),
      fc.constantFrom('GET', 'DELETE'),
      (ids, letterIds, words, method) => {
        const learned = learnTemplates([...ids, ...letterIds, ...words].map((value) => `${method} /produtos/${value}`));
        for (const id of [...ids, ...letterIds]) assert.equal(learned.get(`${method} /produtos/${id}`), `${method} /produtos/:id`, id);
        for (const word of words) assert.equal(learned.get(`${method} /produtos/${word}`), undefined, word);
      },
    ),
    propertyParameters(500),
  );
});

const RULES = { slowResponseThresholdMs: 500 };

test('property: a run learns the same templates and gives the same report whatever the order of its records and however they are split into parts', () => {
  fc.assert(
    fc.property(
      instantiated.chain((labels) =>
        fc.tuple(
          fc.shuffledSubarray(
            labels.flatMap(({ label }, index) =>
              [0, 1].map((copy) => ({ endpoint: label, statusCode: copy === 0 ? 200 : 404, responseTimeMs: index * 2 + copy + 0.5 })),
            ),
            { minLength: labels.length * 2, maxLength: labels.length * 2 },
          ),
          fc.integer({ min: 1, max: 4 }),
        ),
      ),
      ([records, partCount]) => {
        const sorted = [...records].sort((a, b) => a.responseTimeMs - b.responseTimeMs);
        const whole = createEvidenceRun({ ...RULES, environment: 'test' });
        for (const record of sorted) whole.take(record, () => locationOf(record), { derivedFromUrl: true });

        const split = createEvidenceRun({ ...RULES, environment: 'test' });
        for (let part = 0; part < partCount; part++) {
          const intake = new RecordIntake(RULES);
          records.forEach((record, index) => {
            if (index % partCount === part) intake.take(record, () => locationOf(record), { derivedFromUrl: true });
          });
          split.absorb(partOf(intake));
        }
        assert.deepEqual(split.finish(), whole.finish());
      },
    ),
    propertyParameters(300),
  );
});

// A record's location by its own time, which is unique: the same wherever the record comes in.
function locationOf(record: { readonly responseTimeMs: number }) {
  return { kind: 'list', listPath: 'executions', index: record.responseTimeMs * 2 } as const;
}

function partOf(intake: RecordIntake): EvidencePart {
  const { issues, recordCount, invalidRecordCount, unlistedRecordCount } = intake.validation.snapshot();
  return { summary: intake.accumulator.toData({ sorted: true }), issues, recordCount, invalidRecordCount, unlistedRecordCount };
}

test('expected statuses written for a learned template apply to its calls; a word beside it keeps the run-wide rule', () => {
  const run = createEvidenceRun({ ...RULES, environment: 'test', expectedStatusesByEndpoint: { 'GET /usuarios/:id': '200,404' } });
  for (const endpoint of ['GET /usuarios/8P0BlkWfpjRO60K1', 'GET /usuarios/x8vuEdxD5TSaJHKW', 'GET /usuarios/me']) {
    run.take({ endpoint, statusCode: 404, responseTimeMs: 5 }, () => ({ kind: 'list', listPath: 'executions', index: 0 }), {
      derivedFromUrl: true,
    });
  }
  const report = run.finish();
  expect(
    report.endpoints.map(({ endpoint, failedExecutionCount, expectedErrorCount }) => [endpoint, failedExecutionCount, expectedErrorCount]),
  ).toEqual([
    ['GET /usuarios/:id', 0, 2],
    ['GET /usuarios/me', 1, 0],
  ]);
});

test('the labels of calls no record accounts for are learned with the rest, and named once', () => {
  const run = createEvidenceRun({ ...RULES, environment: 'test' });
  run.take(
    { endpoint: 'DELETE /produtos/8P0BlkWfpjRO60K1', statusCode: 200, responseTimeMs: 5 },
    () => ({ kind: 'list', listPath: 'executions', index: 0 }),
    { derivedFromUrl: true },
  );
  const unrecorded = ['DELETE /produtos/x8vuEdxD5TSaJHKW', 'DELETE /produtos/F9JnGndtow0cXMPp', 'GET /produtos'].map((endpoint) =>
    run.labelOf(endpoint),
  );
  const report = run.finish({ unrecordedCalls: { count: 3, endpoints: unrecorded } });
  expect([report.endpoints.map(({ endpoint }) => endpoint), report.unrecordedEndpoints]).toEqual([
    ['DELETE /produtos/:id'],
    ['DELETE /produtos/:id', 'GET /produtos'],
  ]);
});
