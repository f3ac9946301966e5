/**
 * The README's generated CLI parts: one usage block per command definition (its `--help` text,
 * between `<!-- usage:afp NAME:start -->` and `<!-- usage:afp NAME:end -->`) and the exit-code
 * table (between `<!-- exit-codes:start -->` and `<!-- exit-codes:end -->`). The prose around
 * the markers is written by hand and left alone. scripts/gen-docs.ts rewrites the blocks;
 * test/docs/readme.test.ts fails when one is stale or missing.
 */
import { commandName, helpText, type CommandDefinition } from './command-definition.ts';
import { exitTableMarkdown } from './exit-codes.ts';

export function usageMarkers(definition: CommandDefinition): { start: string; end: string } {
  const name = commandName(definition);
  return { start: `<!-- usage:${name}:start -->`, end: `<!-- usage:${name}:end -->` };
}

const EXIT_MARKERS = { start: '<!-- exit-codes:start -->', end: '<!-- exit-codes:end -->' };

/** `text` with the part between the markers replaced by `body`, or null when a marker is missing. */
function splice(text: string, markers: { start: string; end: string }, body: string): string | null {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) return null;
  return `${text.slice(0, start + markers.start.length)}\n${body}\n${text.slice(end)}`;
}

/** The README with every usage block and the exit-code table regenerated; `missing` names the commands whose markers are absent. */
export function spliceUsage(readme: string, definitions: readonly CommandDefinition[]): { text: string; missing: string[] } {
  let text = readme;
  const missing: string[] = [];
  for (const definition of definitions) {
    const next = splice(text, usageMarkers(definition), `\`\`\`text\n${helpText(definition)}\`\`\``);
    if (next === null) missing.push(commandName(definition));
    else text = next;
  }
  const withExits = splice(text, EXIT_MARKERS, `\n${exitTableMarkdown()}\n`);
  if (withExits === null) missing.push('exit codes');
  return { text: withExits ?? text, missing };
}
