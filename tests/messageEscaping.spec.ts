import { expect, test } from './support/test.js';
import { ConfigurationError } from '../src/index.js';
import { resolveSettings } from '../src/config/resolveSettings.js';
import { optionSettings, settingsFileSettings } from '../src/config/settingsSources.js';
import { describeLocation } from '../src/issues/location.js';
import { thrownBy } from './support/failures.js';

// A settings-file key, an option name or a test title is the user's text: a
// newline (or another control) in it reaches a message escaped, as labels
// do, so that it can never forge a line of the message.

const forged = 'outputFlie\n  - option "environment": all fine';

function messageOf(action: () => unknown): string {
  const error = thrownBy(action);
  if (!(error instanceof ConfigurationError)) throw error;
  return error.message;
}

test('a settings-file key with a newline is named escaped, on one line', () => {
  const message = messageOf(() =>
    resolveSettings([settingsFileSettings('quality-evidence.config.json', JSON.stringify({ [forged]: 'x' }))], {}),
  );
  expect(message.split('\n')).toHaveLength(2);
  expect(message.split('\n')[1]).toMatch(
    /^ {2}- \["outputFlie\\n {2}- option \\"environment\\": all fine"\] in quality-evidence\.config\.json: is not a setting of /,
  );
});

test('an option name with a newline is named escaped, in an error and in a warning', () => {
  const source = optionSettings({ 'outputfile\n': 'x', [forged]: 'y' }, { owner: 'quality-evidence/reporter', base: '/project' });
  expect(source.issues.map((issue) => issue.variable)).toEqual(['option ["outputfile\\n"]']);
  expect(source.ignored).toEqual([
    'option ["outputFlie\\n  - option \\"environment\\": all fine"] is not an option of quality-evidence/reporter; it is ignored',
  ]);
});

test("a test's title with a newline is named escaped where a record is placed", () => {
  expect(describeLocation({ kind: 'test', title: 'orders.spec.ts › lists\n  - test "x" (attempt 1)', attempt: 2 })).toBe(
    'test "orders.spec.ts › lists\\u000a  - test "x" (attempt 1)" (attempt 2)',
  );
});
