import { SETTINGS, type SettingDefinition, type SettingKey } from '../config/settings.js';

/** The column where an option's text starts in every command's help. */
const TEXT_COLUMN = 39;

/** The widest a help line grows before its text continues on the next line, under itself. */
const LINE_WIDTH = 150;

/**
 * One help line: `  -o, --output <path>    the report file`, the text at
 * the same column in every command, continued under itself past the width.
 */
export function optionHelpLine(flag: string, text: string): string {
  const indent = ' '.repeat(TEXT_COLUMN);
  const head = `  ${flag}`;
  const fits = head.length < TEXT_COLUMN - 1;
  const lines: string[] = fits ? [] : [head];
  let line = fits ? head.padEnd(TEXT_COLUMN) : indent;
  let empty = true;
  for (const word of text.split(' ')) {
    if (!empty && line.length + 1 + word.length > LINE_WIDTH) {
      lines.push(line);
      line = indent;
      empty = true;
    }
    line += `${empty ? '' : ' '}${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

/** The default as the help states it: its own text, or none for a switch, a list or an object. */
function defaultText(definition: SettingDefinition): string | undefined {
  if (definition.flag?.helpDefault !== undefined) return definition.flag.helpDefault;
  const fallback = definition.default;
  return typeof fallback === 'string' || typeof fallback === 'number' ? String(fallback) : undefined;
}

/**
 * The help lines of these settings' flags, in the settings table's order,
 * each made from its row: the flag, its argument, its text, its variable and
 * its default. A setting's help is written once, in the table, for every
 * command that takes it.
 */
export function settingHelpLines(keys: readonly SettingKey[]): string {
  return keys
    .flatMap((key) => {
      const definition = SETTINGS[key] as SettingDefinition;
      const { flag, variable } = definition;
      if (flag === undefined) return [];
      const name = `${flag.short === undefined ? '' : `-${flag.short}, `}--${flag.name}${flag.argument === undefined ? '' : ` ${flag.argument}`}`;
      const fallback = defaultText(definition);
      const sources = [variable, fallback === undefined ? undefined : `default ${fallback}`].filter((part) => part !== undefined);
      return [optionHelpLine(name, sources.length === 0 ? flag.help : `${flag.help} (${sources.join('; ')})`)];
    })
    .join('\n');
}
