// A bet the target refuses stakes nothing: the live house-edge audit gives its reservation under
// --usdc back. Before, a target whose minimum is 0.05 (DEPLOYED.md §2.4's "Minimum bet is $0.05")
// had every refused 0.01 charged: `--bets 40 --usdc 0.5` placed 2 bets (7 at --concurrency 1), and
// with a funded key at 16 calls in flight none at all ("no bet was placed", exit 4). Also: the
// game's first call goes out alone, so the others go out at the minimum it teaches, and the bets of
// a batch refused below the minimum go out again as one batch at it (not each alone, twice).
// In-process: the deployed stand-in with its limits lifted and a manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-refused-stakes-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('refused bets stake nothing under --usdc', () => {
  test.each([
    { concurrency: '4', bets: '40', usdc: '0.5', placed: 10 },
    { concurrency: '1', bets: '40', usdc: '0.5', placed: 10 },
    { concurrency: '16', bets: '30', usdc: '0.3', placed: 6 },
  ])(
    'a 0.05 minimum, --bets $bets --usdc $usdc --concurrency $concurrency: $placed bets at 0.05 fill the budget',
    async ({ concurrency, bets, usdc, placed }) => {
      const rules = parseDeployedRulesFile('bets: { minimum: 0.05 }\n', 'min.yaml');
      if (!rules.ok) throw new Error(rules.message);
      const served = await serveDeployedRules(rules.value);
      try {
        const { code, text, key } = await liveHouseEdge(served, {
          args: ['--games', 'coin_flip', '--bets', bets, '--usdc', usdc, '--concurrency', concurrency],
          seed: '5',
          out: join(DIR, `c${concurrency}`),
        });
        expect(code, text).toBe(0);
        const budget = Number(usdc).toFixed(2);
        expect(text).toMatch(
          new RegExp(
            `bets: ${placed} placed, ${placed} verified, \\d+ refused; staked ${budget} USDC of a ${budget} budget`,
          ),
        );
        expect(text).toContain('stopped: the USDC budget was spent');
        // What the target placed: every bet at its minimum, and only the first batch was refused
        // (its bets went out again together at 0.05; the others waited for its answer).
        const history = (await (
          await fetch(`${served.casino}/api/v1/bets/history?limit=200`, { headers: { authorization: `Bearer ${key}` } })
        ).json()) as { bets: Array<{ amount: number }> };
        expect(history.bets.map((bet) => bet.amount)).toEqual(Array.from({ length: placed }, () => 0.05));
        const refused = /(\d+) refused/.exec(text)?.[1];
        expect(Number(refused) + placed, text).toBe(20);
      } finally {
        await served.close();
      }
    },
  );
});
