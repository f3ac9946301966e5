// afp serve's --defect takes a comma list as afp run and afp check do (`--defect a,b`), or the
// flag again; serve refused `a,b` as one unknown name (found by a probe).
import { expect, test } from 'vitest';
import { parseServeArgs } from '../../src/cli/serve.ts';

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
