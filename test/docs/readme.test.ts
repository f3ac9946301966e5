// The user documentation's generated parts must be fresh: the endpoint list (from the route table),
// each command's usage block and the exit-code table (from the CLI's definitions), each in exactly
// one of README.md and docs/*.md. The README stays a front page (at most 300 lines, its two set-up
// commands, a quick start per job) and every relative link in the documentation resolves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-modules.ts';
import { docBlocks, readDocTexts, spliceDocs } from '../../src/cli/docs-usage.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const docs = readDocTexts(ROOT);
const blocks = docBlocks(
  COMMANDS.map((row) => row.definition),
  ALL_ROUTES,
);
/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

const readme = docs.find((doc) => doc.path === 'README.md')?.text ?? '';

describe('the documentation', () => {
  it('holds every usage block, the exit codes and the endpoint list once, as the code gives them (run `node scripts/gen-docs.ts` after changing src/cli/commands.ts or the routes)', () => {
    const result = spliceDocs(docs, blocks);
    expect(result.missing).toEqual([]);
    expect(result.duplicated).toEqual([]);
    for (const [index, doc] of result.docs.entries()) expect(doc.text, doc.path).toBe(docs[index]?.text);
    const all = docs.map((doc) => doc.text).join('\n');
    for (const route of ALL_ROUTES) expect(all).toContain(`\`${route.id}\``);
  });

  it('a stale usage block is caught', () => {
    const stale = docs.map((doc) => ({
      path: doc.path,
      text: doc.text.replace('afp run FILE [--seed N]', 'afp run FILE [--sed N]'),
    }));
    expect(stale.map((doc) => doc.text)).not.toEqual(docs.map((doc) => doc.text));
    expect(spliceDocs(stale, blocks).docs.map((doc) => doc.text)).toEqual(docs.map((doc) => doc.text));
  });

  it('every relative link of README.md, docs/*.md and docs/decisions/*.md names a file that exists, and a heading of it when it has an anchor', () => {
    const decisions = readdirSync(join(ROOT, 'docs', 'decisions')).map((name) => ({
      path: `docs/decisions/${name}`,
      text: readFileSync(join(ROOT, 'docs', 'decisions', name), 'utf8'),
    }));
    for (const doc of [...docs, ...decisions]) {
      for (const match of doc.text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue;
        const file = target === '' ? join(ROOT, doc.path) : join(ROOT, dirname(doc.path), target);
        expect(existsSync(file), `${doc.path} links to ${target}`).toBe(true);
        const anchor = match[2];
        if (anchor === undefined || !file.endsWith('.md')) continue;
        const slugs = [...readFileSync(file, 'utf8').matchAll(/^#+ (.*)$/gm)].map((heading) =>
          githubSlug(heading[1] ?? ''),
        );
        expect(slugs, `${doc.path} links to ${target}#${anchor}`).toContain(anchor);
      }
    }
  });
});

describe('README', () => {
  it('is a front page: at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('states the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });
});
