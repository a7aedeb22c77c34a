import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHANGE_RULE_IDS, CHANGE_RULES } from '../src/contract/diff/changeRules.js';
import type { ContractChange } from '../src/contract/diff/contractChange.js';
import { diffContracts } from '../src/contract/diff/diffContracts.js';
import { loadContract } from '../src/contract/loadContract.js';
import { MemoryFileSystem } from './support/memoryFileSystem.js';
import { expect, test } from './support/test.js';

// The rules of a contract change, pair by pair: tests/contract-diff holds
// one folder per pair of documents (base and head, YAML or JSON, 2.0, 3.0
// and 3.1), each making one change, with the changes it makes stated in
// expected.json (rule, level, operation label, and the shared component
// where one is stated), in the order diffContracts lists them.

const CORPUS = 'tests/contract-diff';

interface Expected {
  readonly rule: string;
  readonly level: string;
  readonly operation: string;
  readonly component?: string;
}

const pairs = readdirSync(CORPUS).sort();

function documentOf(folder: string, name: 'base' | 'head'): string {
  const file = readdirSync(join(CORPUS, folder)).find((candidate) => candidate.startsWith(`${name}.`));
  if (file === undefined) throw new Error(`${folder} has no ${name} document`);
  return join(CORPUS, folder, file);
}

async function changesOf(folder: string): Promise<ContractChange[]> {
  const [base, head] = [documentOf(folder, 'base'), documentOf(folder, 'head')];
  const fileSystem = new MemoryFileSystem({ [base]: readFileSync(base, 'utf8'), [head]: readFileSync(head, 'utf8') });
  return diffContracts(await loadContract([base], fileSystem), await loadContract([head], fileSystem));
}

function expectedOf(folder: string): Expected[] {
  return JSON.parse(readFileSync(join(CORPUS, folder, 'expected.json'), 'utf8')) as Expected[];
}

test('the corpus holds at least 40 pairs, and every rule is stated by one of them', () => {
  expect(pairs.length).toBeGreaterThanOrEqual(40);
  const stated = new Set(pairs.flatMap((folder) => expectedOf(folder).map((change) => change.rule)));
  expect(CHANGE_RULE_IDS.filter((rule) => !stated.has(rule))).toEqual([]);
});

for (const folder of pairs) {
  test(`${folder}: classified as expected.json states`, async () => {
    const expected = expectedOf(folder);
    const found = (await changesOf(folder)).map((change, index) => ({
      rule: change.rule,
      level: change.level,
      operation: change.operation.label,
      ...(expected[index]?.component === undefined ? {} : { component: change.component }),
    }));
    expect(found).toEqual(expected);
    for (const change of expected) expect(CHANGE_RULES[change.rule as keyof typeof CHANGE_RULES]).toBe(change.level);
  });
}

test('each change has a pointer into the document it is in, and a message naming its operation', async () => {
  const [change] = await changesOf(pairs.find((folder) => folder.endsWith('-response-property-made-optional'))!);
  expect(change).toEqual({
    rule: 'response-property-made-optional',
    level: 'warning',
    operation: { method: 'GET', path: '/users', label: 'GET /users', operationId: 'listUsers' },
    base: '#/components/schemas/UserSummary/properties/name',
    head: '#/components/schemas/UserSummary/properties/name',
    component: '#/components/schemas/UserSummary',
    subject: { kind: 'responseProperty', status: '200', property: ['name'] },
    message: 'GET /users: response 200: property name made optional',
  });
});

test('a path parameter renamed points at the operation in both documents and is no removal', async () => {
  const changes = await changesOf(pairs.find((folder) => folder.endsWith('-path-parameter-renamed'))!);
  expect(changes.map(({ base, head, message }) => ({ base, head, message }))).toEqual([
    { base: '#/paths/~1users~1%7Bid%7D/get', head: '#/paths/~1users~1%7BuserId%7D/get', message: expect.stringContaining('renamed') },
    { base: '#/paths/~1users~1%7Bid%7D/delete', head: '#/paths/~1users~1%7BuserId%7D/delete', message: expect.stringContaining('renamed') },
  ]);
});

test('a removal has no HEAD pointer and an addition no BASE pointer', async () => {
  const [removed] = await changesOf(pairs.find((folder) => folder.endsWith('-operation-removed'))!);
  const [added] = await changesOf(pairs.find((folder) => folder.endsWith('-operation-added'))!);
  expect([removed?.base, removed?.head, added?.base, added?.head]).toEqual([
    '#/paths/~1users~1%7Bid%7D/delete',
    undefined,
    undefined,
    '#/paths/~1users~1%7Bid%7D/patch',
  ]);
});
