// afp serve's --defect takes a comma list as afp run and afp check do (`--defect a,b`), or the
// flag again; serve refused `a,b` as one unknown name (found by a probe). A defect that acts in one
// dialect only (DEFECT_DIALECTS) is refused in the other, saying which it needs: serve took
// `--defect mcp-release-credits-nobody` on the documents dialect and it changed nothing (found by a
// probe); every other defect is taken in both.
import { expect, test } from 'vitest';
import { SERVE_DIALECTS, parseServeArgs } from '../../src/cli/serve-flags.ts';
import { inProcessDefects } from '../../src/cli/defect-flag.ts';
import { DEFECT_DIALECTS, DEFECT_NAMES, type DefectName } from '../../src/services/shared/context.ts';

test('--defect takes a comma list or the flag again; an unknown name in the list is named', () => {
  const draw = (): string => '1';
  const both = ['escrow-fee-2pct', 'mint-on-claim'];
  expect(parseServeArgs(['--defect', both.join(',')], 0, draw)).toMatchObject({ defects: both });
  expect(parseServeArgs(['--defect', both[0] as string, '--defect', both[1] as string], 0, draw)).toMatchObject({
    defects: both,
  });
  const refused = parseServeArgs(['--defect', 'escrow-fee-2pct,nope'], 0, draw);
  expect(refused).toMatchObject({ errors: [expect.stringContaining("unknown --defect 'nope'")] });
});

test('a defect that acts in one dialect only is refused in the other, naming the dialect it needs', () => {
  const draw = (): string => '1';
  for (const name of DEFECT_NAMES)
    for (const dialect of SERVE_DIALECTS) {
      const parsed = parseServeArgs(['--dialect', dialect, '--defect', name], 0, draw);
      const needs = DEFECT_DIALECTS[name as DefectName]?.dialect ?? dialect;
      if (needs === dialect) expect(parsed, `${name} on ${dialect}`).toMatchObject({ defects: [name] });
      else
        expect(parsed, `${name} on ${dialect}`).toEqual({
          errors: [
            expect.stringMatching(new RegExp(`^--defect ${name} acts on .+ only: it needs --dialect ${needs} `)),
          ],
        });
    }
});

test('the in-process commands (the documents platform) refuse exactly the deployed-only defects, by the same table', () => {
  for (const name of DEFECT_NAMES) {
    const errors: string[] = [];
    const taken = inProcessDefects(name, 'a run', errors);
    const deployedOnly = DEFECT_DIALECTS[name as DefectName]?.dialect === 'deployed';
    expect(taken, name).toEqual(deployedOnly ? [] : [name]);
    expect(errors.length, name).toBe(deployedOnly ? 1 : 0);
  }
});
