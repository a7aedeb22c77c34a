import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import type { QualityReport } from '../src/index.js';
import { recordPetstoreSuite, type PetstoreSuiteRun } from './support/petstoreSuite.js';
import { runPlaywright } from './support/playwrightProject.js';
import { readReport } from './support/reports.js';
import { createTemporaryFolder, runProgram } from './support/runProgram.js';
import { expect, test } from './support/test.js';

// Issue 38 on a real suite's document: the public Petstore-expanded example (fixtures/openapi), its server run
// locally (tests/support/petstoreServer.ts), a suite of three spec files and five tests recorded with the packed
// package's reporter, that document as its `openapi` setting (tests/support/petstoreSuite.ts). Edited copies of the
// document are then compared with it by the built command: `contract-diff` classifies each edit, and `affected` names
// exactly the tests whose recorded calls reached a changed operation, as the report's own tests per endpoint say.

// One Playwright run of a consumer project (10 to 30 s on a loaded machine) in the first hook, shared by the tests: they
// run in one worker, in order (a worker of their own would run the suite again), 240 s each.
test.describe.configure({ mode: 'default', timeout: 240_000 });

const COMMAND = 'src/cli/main.js';

/** A change as contract-diff writes it, as far as these specs read it. */
interface WrittenChange {
  readonly rule: string;
  readonly level: string;
  readonly operation: { readonly method: string; readonly path: string; readonly label: string; readonly operationId?: string };
  readonly base?: string;
  readonly head?: string;
  readonly component?: string;
  readonly subject: Record<string, unknown>;
  readonly message: string;
}

interface WrittenChanges {
  readonly summary: { readonly breaking: number; readonly warning: number; readonly info: number };
  readonly changes: readonly WrittenChange[];
}

/** contract-diff --report's file, as far as these specs read it. */
interface WeighedChanges {
  readonly summary: WrittenChanges['summary'] & { readonly breakingExercised: number };
  readonly changes: readonly (WrittenChange & { readonly evidence: Record<string, unknown> })[];
}

/** affected --format json, as far as these specs read it. */
interface AffectedJson {
  readonly changes: readonly (WrittenChange & { readonly evidence: { readonly exercised: boolean } })[];
  readonly tests: readonly { readonly file: string; readonly line: number; readonly title: string }[];
  readonly untested: readonly { readonly label: string }[];
  readonly testsUnknown: readonly unknown[];
  readonly incomplete: readonly unknown[];
}

/** A test as these specs compare them: its file, line and title (the report's titles hold the file). */
const testKey = ({ file, line, title }: { readonly file: string; readonly line: number; readonly title: string }) =>
  `${file}:${line} ${title}`;

test.describe('the Petstore-expanded document, its server run locally, its suite recorded with the package', () => {
  let run: PetstoreSuiteRun;
  let report: QualityReport;
  let heads: string;

  test.beforeAll(async () => {
    run = await recordPetstoreSuite();
    expect(run.outcome.exitCode, run.outcome.stdout + run.outcome.stderr).toBe(0);
    report = await readReport(run.reportPath);
    heads = await createTemporaryFolder({}, 'petstore-heads');
  });

  /** The tests the report names for the endpoints labelled so: their union, sorted. */
  function testsOfEndpoints(labels: readonly string[]): string[] {
    const tests = report.endpoints.filter((endpoint) => labels.includes(endpoint.endpoint)).flatMap((endpoint) => endpoint.tests ?? []);
    return [...new Set(tests.map(testKey))].sort();
  }

  /** A copy of the run's document, edited, written as `<name>.yaml`: its path. */
  async function editedDocument(name: string, edit: (document: Document) => void): Promise<string> {
    const document = parseDocument(await readFile(run.documentPath, 'utf8'));
    edit(document);
    const path = join(heads, `${name}.yaml`);
    await writeFile(path, document.toString());
    return path;
  }

  async function contractDiff(head: string): Promise<WrittenChanges> {
    const output = `${head}.changes.json`;
    const outcome = await runProgram(COMMAND, { cwd: run.project, args: ['contract-diff', run.documentPath, head, '--output', output] });
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    return JSON.parse(await readFile(output, 'utf8')) as WrittenChanges;
  }

  /** contract-diff weighed by the suite's report: the file, and the line it printed. */
  async function weighedDiff(head: string): Promise<{ line: string; written: WeighedChanges }> {
    const output = `${head}.weighed.json`;
    const outcome = await runProgram(COMMAND, {
      cwd: run.project,
      args: ['contract-diff', run.documentPath, head, '--report', run.reportPath, '--output', output],
    });
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    return { line: outcome.stdout, written: JSON.parse(await readFile(output, 'utf8')) as WeighedChanges };
  }

  async function affected(head: string, format: 'files' | 'json' | 'grep') {
    const outcome = await runProgram(COMMAND, {
      cwd: run.project,
      args: ['affected', run.documentPath, head, '--report', run.reportPath, '--format', format],
    });
    expect(outcome.exitCode, outcome.stderr).toBe(0);
    return outcome;
  }

  test("the suite's report names the tests of each operation it called, and no test calls DELETE /pets/{id}", () => {
    expect(report.endpoints.map((endpoint) => [endpoint.endpoint, endpoint.executionCount, (endpoint.tests ?? []).map(testKey)])).toEqual([
      [
        'GET /pets',
        2,
        [
          'pets-list.spec.ts:3 pets-list.spec.ts › lists every pet',
          'pets-list.spec.ts:11 pets-list.spec.ts › lists the pets of a tag, at most one',
        ],
      ],
      [
        'GET /pets/{id}',
        2,
        [
          'pets-create.spec.ts:9 pets-create.spec.ts › adds a pet without a tag and reads it back',
          'pets-read.spec.ts:3 pets-read.spec.ts › reads a pet by its id',
        ],
      ],
      [
        'POST /pets',
        2,
        [
          'pets-create.spec.ts:3 pets-create.spec.ts › adds a pet with a tag',
          'pets-create.spec.ts:9 pets-create.spec.ts › adds a pet without a tag and reads it back',
        ],
      ],
    ]);
    expect(report.tests).toMatchObject({ total: 5, passed: 5 });
  });

  test('the server answers as the document says: every body checked conforms, every condition of the operations called is met', () => {
    expect(report.contract).toMatchObject({ validatedCount: 8, schemaViolationCount: 0, notValidatedCount: 0, unmatchedEndpoints: [] });
    expect(
      report.contract!.operations.map(({ endpoint, executionCount, conditions }) => [
        endpoint,
        executionCount,
        conditions.coveredConditionCount,
        conditions.conditionCount,
      ]),
    ).toEqual([
      ['GET /pets', 2, 6, 6],
      ['POST /pets', 2, 3, 3],
      ['GET /pets/{id}', 2, 3, 3],
      ['DELETE /pets/{id}', 0, 0, 2],
    ]);
  });

  test('name removed from the schema every pet answer carries: response-property-removed, breaking, for each operation answering a Pet', async () => {
    // `name` lives in NewPet, which Pet takes in through allOf; POST /pets also sends a NewPet.
    const head = await editedDocument('name-removed', (document) => {
      document.deleteIn(['components', 'schemas', 'NewPet', 'properties', 'name']);
      document.deleteIn(['components', 'schemas', 'NewPet', 'required']);
    });
    const written = await contractDiff(head);
    const removed = {
      base: '#/components/schemas/NewPet/properties/name',
      component: '#/components/schemas/NewPet',
    };
    expect(written.summary).toEqual({ breaking: 3, warning: 1, info: 0 });
    expect(written.changes).toEqual([
      {
        rule: 'response-property-removed',
        level: 'breaking',
        operation: { method: 'GET', path: '/pets', label: 'GET /pets', operationId: 'findPets' },
        ...removed,
        subject: { kind: 'responseProperty', status: '200', property: ['name'] },
        message: 'GET /pets: response 200: property name removed',
      },
      {
        rule: 'request-property-removed',
        level: 'warning',
        operation: { method: 'POST', path: '/pets', label: 'POST /pets', operationId: 'addPet' },
        ...removed,
        subject: { kind: 'requestProperty', property: ['name'] },
        message: 'POST /pets: request body: property name removed',
      },
      {
        rule: 'response-property-removed',
        level: 'breaking',
        operation: { method: 'POST', path: '/pets', label: 'POST /pets', operationId: 'addPet' },
        ...removed,
        subject: { kind: 'responseProperty', status: '200', property: ['name'] },
        message: 'POST /pets: response 200: property name removed',
      },
      {
        rule: 'response-property-removed',
        level: 'breaking',
        operation: { method: 'GET', path: '/pets/{id}', label: 'GET /pets/{id}', operationId: 'find pet by id' },
        ...removed,
        subject: { kind: 'responseProperty', status: '200', property: ['name'] },
        message: 'GET /pets/{id}: response 200: property name removed',
      },
    ]);
    // Every test of the suite reached an operation answering a Pet.
    expect((await affected(head, 'files')).stdout).toBe('pets-create.spec.ts\npets-list.spec.ts\npets-read.spec.ts\n');
  });

  test('name removed, weighed by the report: present in every response of each operation, the tests that called it named', async () => {
    const head = await editedDocument('name-removed-weighed', (document) => {
      document.deleteIn(['components', 'schemas', 'NewPet', 'properties', 'name']);
      document.deleteIn(['components', 'schemas', 'NewPet', 'required']);
      document.deleteIn(['paths', '/pets/{id}', 'delete']);
    });
    const { line, written } = await weighedDiff(head);
    expect(line).toBe(
      `quality-evidence contract-diff: 4 breaking changes: 3 exercised by 5 tests, 1 not exercised by any test; written to ${head}.weighed.json\n`,
    );
    expect(written.summary).toEqual({ breaking: 4, warning: 1, info: 0, breakingExercised: 3 });
    // Each operation's evidence is the report's: its calls, its tests; `name` is required, and every body conformed.
    const evidenceOf = (label: string, presence: object) => {
      const endpoint = report.endpoints.find((entry) => entry.endpoint === label)!;
      const tests = endpoint.tests!.map(({ file, line, title }) => ({ file, line, title }));
      return { exercised: true, calls: endpoint.executionCount, tests, unlistedTestCount: 0, presence };
    };
    expect(written.changes.map(({ rule, operation, evidence }) => [rule, operation.label, evidence])).toEqual([
      ['response-property-removed', 'GET /pets', evidenceOf('GET /pets', { direction: 'response', status: '200', of: 2, present: 2 })],
      ['request-property-removed', 'POST /pets', evidenceOf('POST /pets', { direction: 'request', of: 2, present: 2 })],
      ['response-property-removed', 'POST /pets', evidenceOf('POST /pets', { direction: 'response', status: '200', of: 2, present: 2 })],
      [
        'response-property-removed',
        'GET /pets/{id}',
        evidenceOf('GET /pets/{id}', { direction: 'response', status: '200', of: 2, present: 2 }),
      ],
      ['operation-removed', 'DELETE /pets/{id}', { exercised: false }],
    ]);
  });

  test("name removed: the suite's report judged with both documents breaches maxBreakingChangesExercised in check", async () => {
    const head = await editedDocument('name-removed-gated', (document) => {
      document.deleteIn(['components', 'schemas', 'NewPet', 'properties', 'name']);
      document.deleteIn(['components', 'schemas', 'NewPet', 'required']);
    });
    const budgets = join(heads, 'budgets.json');
    await writeFile(budgets, JSON.stringify({ maxBreakingChanges: 5, maxBreakingChangesExercised: 0 }));
    // The suite's report, judged as a run with both documents is: merge, the entry point that takes a report.
    const judged = join(heads, 'judged.json');
    const merged = await runProgram(COMMAND, {
      cwd: run.project,
      args: ['merge', run.reportPath, '-o', judged, '--formats', 'json', '--openapi', head, '--openapi-base', run.documentPath],
    });
    expect([merged.exitCode, merged.stderr]).toStrictEqual([0, '']);
    const checked = await runProgram(COMMAND, { cwd: run.project, args: ['check', judged, '--budgets', budgets] });
    expect([checked.exitCode, checked.stdout]).toStrictEqual([
      1,
      'pass maxBreakingChanges: 3 (limit ≤ 5)\n' +
        'FAIL maxBreakingChangesExercised: 3 (limit ≤ 0)\n' +
        'quality-evidence check: 1 of 2 budgets breached\n',
    ]);
    const changes = (JSON.parse(await readFile(judged, 'utf8')) as QualityReport).contract!.changes!;
    expect(
      changes.changes.filter((change) => change.level === 'breaking').map(({ operation, evidence }) => [operation.label, evidence]),
    ).toEqual(
      ['GET /pets', 'POST /pets', 'GET /pets/{id}'].map((label) => [
        label,
        expect.objectContaining({ exercised: true, presence: { direction: 'response', status: '200', of: 2, present: 2 } }),
      ]),
    );
  });

  test('tag, which only some pets have, removed: present in as many responses as carried it, sent by as many requests as sent it', async () => {
    // The suite: GET /pets lists Rex (dog) both times; POST /pets adds Felix with a tag, Polly without; GET /pets/{id} reads
    // Polly back and Rex.
    const head = await editedDocument('tag-removed', (document) => {
      document.deleteIn(['components', 'schemas', 'NewPet', 'properties', 'tag']);
    });
    const { written } = await weighedDiff(head);
    expect(
      written.changes.map(({ rule, operation, evidence }) => [rule, operation.label, (evidence as { presence?: unknown }).presence]),
    ).toEqual([
      ['response-property-removed', 'GET /pets', { direction: 'response', status: '200', of: 2, present: 2 }],
      ['request-property-removed', 'POST /pets', { direction: 'request', of: 2, present: 1 }],
      ['response-property-removed', 'POST /pets', { direction: 'response', status: '200', of: 2, present: 1 }],
      ['response-property-removed', 'GET /pets/{id}', { direction: 'response', status: '200', of: 2, present: 1 }],
    ]);
  });

  test('DELETE /pets/{id}, which no test calls, removed: operation-removed, breaking; affected names it untested and no file', async () => {
    const head = await editedDocument('delete-removed', (document) => {
      document.deleteIn(['paths', '/pets/{id}', 'delete']);
    });
    const written = await contractDiff(head);
    expect(written.summary).toEqual({ breaking: 1, warning: 0, info: 0 });
    expect(written.changes).toEqual([
      {
        rule: 'operation-removed',
        level: 'breaking',
        operation: { method: 'DELETE', path: '/pets/{id}', label: 'DELETE /pets/{id}', operationId: 'deletePet' },
        base: '#/paths/~1pets~1%7Bid%7D/delete',
        subject: { kind: 'operation' },
        message: expect.stringContaining('DELETE /pets/{id}') as unknown as string,
      },
    ]);
    const json = JSON.parse((await affected(head, 'json')).stdout) as AffectedJson;
    expect(json.changes.map((change) => [change.rule, change.operation.label, change.evidence])).toEqual([
      ['operation-removed', 'DELETE /pets/{id}', { exercised: false }],
    ]);
    expect(json.tests).toEqual([]);
    expect(json.untested.map((operation) => operation.label)).toEqual(['DELETE /pets/{id}']);
    expect(await affected(head, 'files')).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'quality-evidence: untested: DELETE /pets/{id} (1 change): no test in the report calls it\n',
    });
  });

  /**
   * Edits of the document, each one change: the rule and operation contract-diff finds for it (checked here by
   * reading the document: the operations that use what changed), and the report's labels of those operations
   * (the same labels, but for a renamed path parameter, which keeps the operation the report called), and the
   * changed operations no test called.
   */
  const CHANGES: readonly {
    readonly name: string;
    readonly edit: (document: Document) => void;
    readonly changes: readonly (readonly [rule: string, label: string])[];
    readonly reaches?: readonly string[];
    readonly untested?: readonly string[];
  }[] = [
    {
      name: 'limit made required',
      edit: (document) => {
        document.setIn(['paths', '/pets', 'get', 'parameters', 1, 'required'], true);
      },
      changes: [['request-parameter-made-required', 'GET /pets']],
    },
    {
      name: 'limit given a maximum',
      edit: (document) => {
        document.setIn(['paths', '/pets', 'get', 'parameters', 1, 'schema', 'maximum'], 100);
      },
      changes: [['bound-tightened', 'GET /pets']],
    },
    {
      name: 'a required header added to GET /pets/{id}',
      edit: (document) => {
        document.addIn(['paths', '/pets/{id}', 'get', 'parameters'], {
          name: 'X-Tenant',
          in: 'header',
          required: true,
          schema: { type: 'string' },
        });
      },
      changes: [['request-parameter-added-required', 'GET /pets/{id}']],
    },
    {
      // Pet answers holding a tag always are narrower answers: no change to a response.
      name: 'tag made required in NewPet',
      edit: (document) => {
        document.setIn(['components', 'schemas', 'NewPet', 'required'], ['name', 'tag']);
      },
      changes: [['request-property-made-required', 'POST /pets']],
    },
    {
      // A property added to an answer is no change.
      name: 'a required species added to NewPet',
      edit: (document) => {
        document.setIn(['components', 'schemas', 'NewPet', 'properties', 'species'], { type: 'string' });
        document.setIn(['components', 'schemas', 'NewPet', 'required'], ['name', 'species']);
      },
      changes: [['request-property-added-required', 'POST /pets']],
    },
    {
      // A format added to an answer is no change; to what a client sends, a narrower request.
      name: 'name given a format',
      edit: (document) => {
        document.setIn(['components', 'schemas', 'NewPet', 'properties', 'name', 'format'], 'email');
      },
      changes: [['format-changed', 'POST /pets']],
    },
    {
      name: "Pet's id made a string",
      edit: (document) => {
        document.setIn(['components', 'schemas', 'Pet', 'allOf', 1, 'properties', 'id'], { type: 'string' });
      },
      changes: [
        ['type-changed', 'GET /pets'],
        ['type-changed', 'POST /pets'],
        ['type-changed', 'GET /pets/{id}'],
      ],
    },
    {
      name: 'tag made nullable',
      edit: (document) => {
        document.setIn(['components', 'schemas', 'NewPet', 'properties', 'tag', 'nullable'], true);
      },
      changes: [
        ['response-property-made-nullable', 'GET /pets'],
        ['response-property-made-nullable', 'POST /pets'],
        ['response-property-made-nullable', 'GET /pets/{id}'],
      ],
    },
    {
      name: "GET /pets's default response removed",
      edit: (document) => document.deleteIn(['paths', '/pets', 'get', 'responses', 'default']),
      changes: [['response-status-removed', 'GET /pets']],
    },
    {
      name: 'a 404 added to GET /pets/{id}',
      edit: (document) => {
        document.setIn(['paths', '/pets/{id}', 'get', 'responses', '404'], { description: 'no such pet' });
      },
      changes: [['response-status-added', 'GET /pets/{id}']],
    },
    {
      name: "id made optional in Pet's answers",
      edit: (document) => document.deleteIn(['components', 'schemas', 'Pet', 'allOf', 1, 'required']),
      changes: [
        ['response-property-made-optional', 'GET /pets'],
        ['response-property-made-optional', 'POST /pets'],
        ['response-property-made-optional', 'GET /pets/{id}'],
      ],
    },
    {
      // Error is every operation's default answer: the change reaches DELETE /pets/{id} too, which no test calls.
      name: "Error's message removed",
      edit: (document) => {
        document.deleteIn(['components', 'schemas', 'Error', 'properties', 'message']);
        document.setIn(['components', 'schemas', 'Error', 'required'], ['code']);
      },
      changes: [
        ['response-property-removed', 'GET /pets'],
        ['response-property-removed', 'POST /pets'],
        ['response-property-removed', 'GET /pets/{id}'],
        ['response-property-removed', 'DELETE /pets/{id}'],
      ],
      untested: ['DELETE /pets/{id}'],
    },
    {
      name: 'tags held to an enum',
      edit: (document) => {
        document.setIn(['paths', '/pets', 'get', 'parameters', 0, 'schema', 'items', 'enum'], ['dog', 'cat', 'fish']);
      },
      changes: [['bound-tightened', 'GET /pets']],
    },
    {
      // The same schema, inlined where Pet referred to it: no change, no test affected.
      name: "NewPet inlined into Pet's allOf",
      edit: (document) => {
        const newPet = document.getIn(['components', 'schemas', 'NewPet']);
        if (!isMap(newPet)) throw new Error('the document has no NewPet');
        document.setIn(['components', 'schemas', 'Pet', 'allOf', 0], newPet.clone());
      },
      changes: [],
    },
    {
      name: '/pets/{id} renamed /pets/{petId}',
      edit: (document) => {
        const paths = document.get('paths');
        if (!isMap(paths)) throw new Error('the document has no paths');
        const pair = paths.items.find((item) => isScalar(item.key) && item.key.value === '/pets/{id}')!;
        (pair.key as { value: unknown }).value = '/pets/{petId}';
        for (const method of ['get', 'delete']) document.setIn(['paths', '/pets/{petId}', method, 'parameters', 0, 'name'], 'petId');
      },
      changes: [
        ['path-parameter-renamed', 'GET /pets/{petId}'],
        ['path-parameter-renamed', 'DELETE /pets/{petId}'],
      ],
      reaches: ['GET /pets/{id}', 'DELETE /pets/{id}'],
      untested: ['DELETE /pets/{petId}'],
    },
  ];

  test("affected's grep pattern makes Playwright select exactly the affected tests of the suite", async () => {
    const head = await editedDocument('tag-required', (document) => {
      document.setIn(['components', 'schemas', 'NewPet', 'required'], ['name', 'tag']);
    });
    const pattern = (await affected(head, 'grep')).stdout.trim();
    const listed = await runPlaywright(run.project, ['test', '--list', '--reporter', 'list', '--grep', pattern]);
    expect(listed.exitCode, listed.stderr).toBe(0);
    // `  pets-create.spec.ts:3:1 › adds a pet with a tag`, as the report keys it: `pets-create.spec.ts:3 pets-create.spec.ts › …`.
    const selected = listed.stdout
      .split('\n')
      .map((line) => /^(\S+\.spec\.ts):(\d+):\d+ › (.+)$/.exec(line.trim()))
      .filter((match) => match !== null)
      .map(([, file, line, title]) => `${file!}:${line!} ${file!} › ${title!}`)
      .sort();
    expect(selected).toEqual(testsOfEndpoints(['POST /pets']));
  });

  for (const change of CHANGES) {
    test(`affected names exactly the tests whose calls reached the operations changed: ${change.name}`, async () => {
      const head = await editedDocument(change.name.replace(/\W+/g, '-'), change.edit);
      const written = await contractDiff(head);
      expect(written.changes.map(({ rule, operation }) => [rule, operation.label])).toEqual(change.changes);
      const expected = testsOfEndpoints(change.reaches ?? change.changes.map(([, label]) => label));

      const json = JSON.parse((await affected(head, 'json')).stdout) as AffectedJson;
      const named = json.tests.map(testKey).sort();
      // Recall: every test the report names for a changed operation is named; and no test reaching only unchanged ones.
      expect(named).toEqual(expected);
      expect([json.testsUnknown, json.incomplete]).toEqual([[], []]);
      expect(json.untested.map((operation) => operation.label)).toEqual(change.untested ?? []);
      const files = [...new Set(expected.map((key) => key.split(':')[0]!))].sort();
      expect((await affected(head, 'files')).stdout).toBe(files.map((file) => `${file}\n`).join(''));
    });
  }
});
