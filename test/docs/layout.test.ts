// docs/layout.md "Where each rule lives" names one file for every rule of the documents' tables
// (issue 72, part 6): each named file exists and mentions its rule's word, so the table cannot point
// at a file that moved or no longer holds the rule. Rows are read from the table itself.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The table's rows: rule, word, file (the section's `| rule | word | file |` table). */
function ruleRows(): { rule: string; word: string; file: string }[] {
  const text = readFileSync(join(ROOT, 'docs', 'layout.md'), 'utf8');
  const section = text.split('## Where each rule lives')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .map((line) => /^\| (.+?) \| (\w+) \| `([^`]+)` \|$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ rule: match[1] ?? '', word: match[2] ?? '', file: match[3] ?? '' }));
}

describe('docs/layout.md: where each rule lives', () => {
  const rows = ruleRows();

  it('names the rules of the documents: expiry, cooldown, tiers, Kelly, referral, fees, each fairness scheme', () => {
    const rules = rows.map((row) => row.rule).join('\n');
    for (const rule of [
      'expiry',
      'cooldown',
      'tiers',
      'Kelly',
      'referral',
      'fee',
      "fairness scheme: afp's",
      'fairness scheme: the deployed',
    ])
      expect(rules).toContain(rule);
  });

  it.each(rows.map((row) => [row.file, row.word, row.rule] as const))(
    '%s exists and mentions %s (%s)',
    (file, word) => {
      const path = join(ROOT, file);
      expect(existsSync(path)).toBe(true);
      expect(readFileSync(path, 'utf8').toLowerCase()).toContain(word.toLowerCase());
    },
  );
});
