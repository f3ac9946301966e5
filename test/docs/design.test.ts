// The design lives in the repository (issue 72, part 6): docs/design.md holds who uses afp for what,
// the layers, the exit codes and the main decisions, and links docs/decisions/; nothing tracked
// cites a design or style document outside the repository; the documents afp implements are kept in
// docs/spec/, and where a checkout has the shared copy beside it (../shared/spec, as CI has), the
// two are equal, so a change of the documents is seen the day it lands, never read from outside.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_MEANINGS } from '../../src/core/exit-codes.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SPEC = join(ROOT, 'docs', 'spec');
const SHARED_SPEC = join(ROOT, '..', 'shared', 'spec');

/** `git grep` of a pattern over the tracked files (docs/spec aside): the lines, or '' when none (git grep exits 1). */
function trackedCites(pattern: string): string {
  try {
    return execFileSync('git', ['grep', '-n', '-I', '-E', pattern, '--', '.', ':!docs/spec'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
  } catch (error) {
    if ((error as { status?: number }).status === 1) return '';
    throw error;
  }
}

describe('the design in the repository', () => {
  const design = readFileSync(join(ROOT, 'docs', 'design.md'), 'utf8');

  it('docs/design.md names the users, the exit codes, the layers and links the decisions', () => {
    for (const job of ['platform engineer', 'agent developer', 'auditor', 'CI maintainer'])
      expect(design).toContain(job);
    for (const code of Object.keys(EXIT_MEANINGS)) expect(design).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    expect(design).toContain('(decisions/README.md)');
    expect(design).toContain('(layout.md)');
  });

  it('no tracked file cites a design or style document outside the repository', () => {
    expect(trackedCites('DESIGN\\.md|STYLE\\.md')).toBe('');
  });

  it('docs/spec holds every document afp implements', () => {
    for (const name of ['README.md', 'platform.md', 'wallet.md', 'casino.md', 'NOTES.md', 'DEPLOYED.md'])
      expect(existsSync(join(SPEC, name)), name).toBe(true);
  });

  it.skipIf(!existsSync(SHARED_SPEC))('docs/spec equals the shared documents beside this checkout', () => {
    const shared = readdirSync(SHARED_SPEC).filter((name) => name.endsWith('.md'));
    for (const name of shared) {
      const here = existsSync(join(SPEC, name)) ? readFileSync(join(SPEC, name), 'utf8') : null;
      expect(
        here,
        `docs/spec/${name} differs from ../shared/spec/${name}: copy it (cp ../shared/spec/*.md docs/spec/) and read what changed`,
      ).toBe(readFileSync(join(SHARED_SPEC, name), 'utf8'));
    }
  });
});
