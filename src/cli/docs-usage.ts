/**
 * The generated parts of the user documentation (README.md and docs/*.md): one usage block per
 * command definition (its `--help` text, between `<!-- usage:afp NAME:start -->` and
 * `<!-- usage:afp NAME:end -->`), the exit-code table (between `<!-- exit-codes:start -->` and
 * `<!-- exit-codes:end -->`) and the endpoint list (src/http/endpoint-list.ts markers). Each block
 * lives in exactly one file, the page of the job it belongs to; the prose around the markers is
 * written by hand and left alone. Why pure functions over texts: scripts/gen-docs.ts rewrites the
 * files with them, and test/docs/readme.test.ts fails when a file differs from its regenerated
 * text (a stale block) or a block is missing or placed twice. The files are README.md and every
 * docs/*.md (docs/decisions/ holds no generated block).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endpointListMarkdown, ENDPOINTS_END, ENDPOINTS_START } from '../http/endpoint-list.ts';
import type { Route } from '../http/route.ts';
import { commandName, helpText, type CommandDefinition } from './command-definition.ts';
import { exitTableMarkdown } from '../core/exit-codes.ts';

interface Markers {
  readonly start: string;
  readonly end: string;
}

/** One documentation file: its path from the repository root and its text. */
export interface DocText {
  readonly path: string;
  readonly text: string;
}

/** A block to regenerate: its name (for messages), its markers and its body. */
export interface GeneratedBlock {
  readonly name: string;
  readonly markers: Markers;
  readonly body: string;
}

export function usageMarkers(definition: CommandDefinition): Markers {
  const name = commandName(definition);
  return { start: `<!-- usage:${name}:start -->`, end: `<!-- usage:${name}:end -->` };
}

const EXIT_MARKERS: Markers = { start: '<!-- exit-codes:start -->', end: '<!-- exit-codes:end -->' };

/** `text` with the part between the markers replaced by `body`, or null when a marker is missing. */
function splice(text: string, markers: Markers, body: string): string | null {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) return null;
  return `${text.slice(0, start + markers.start.length)}\n${body}\n${text.slice(end)}`;
}

/** Every command's usage block and the exit-code table, as blocks to splice. */
export function cliBlocks(definitions: readonly CommandDefinition[]): GeneratedBlock[] {
  const blocks: GeneratedBlock[] = definitions.map((definition) => ({
    name: commandName(definition),
    markers: usageMarkers(definition),
    body: `\`\`\`text\n${helpText(definition)}\`\`\``,
  }));
  blocks.push({ name: 'exit codes', markers: EXIT_MARKERS, body: `\n${exitTableMarkdown()}\n` });
  return blocks;
}

/** Every generated block of the documentation: the CLI's blocks and the endpoint list. */
export function docBlocks(definitions: readonly CommandDefinition[], routes: readonly Route[]): GeneratedBlock[] {
  return [
    ...cliBlocks(definitions),
    {
      name: 'endpoint list',
      markers: { start: ENDPOINTS_START, end: ENDPOINTS_END },
      body: `\n${endpointListMarkdown(routes)}`,
    },
  ];
}

/** README.md and docs/*.md of the repository at `root`, in name order. */
export function readDocTexts(root: string): DocText[] {
  const pages = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort();
  return ['README.md', ...pages.map((name) => `docs/${name}`)].map((path) => ({
    path,
    text: readFileSync(join(root, path), 'utf8'),
  }));
}

/**
 * The files with every block regenerated where its markers are; `missing` names the blocks no
 * file holds, `duplicated` the ones more than one file holds (a block has one home).
 */
export function spliceDocs(
  docs: readonly DocText[],
  blocks: readonly GeneratedBlock[],
): { docs: DocText[]; missing: string[]; duplicated: string[] } {
  const texts = docs.map((doc) => doc.text);
  const missing: string[] = [];
  const duplicated: string[] = [];
  for (const block of blocks) {
    let homes = 0;
    texts.forEach((text, index) => {
      const next = splice(text, block.markers, block.body);
      if (next === null) return;
      homes += 1;
      texts[index] = next;
    });
    if (homes === 0) missing.push(block.name);
    if (homes > 1) duplicated.push(block.name);
  }
  return { docs: docs.map((doc, index) => ({ path: doc.path, text: texts[index] ?? doc.text })), missing, duplicated };
}
