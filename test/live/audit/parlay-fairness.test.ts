// The fairness audit of deployed parlays (DEPLOYED.md §2.5): a parlay is one bet of nonce 0 whose
// legs each draw their own nonce; the deployed scheme replays every leg from the revealed seed, the
// client seed and the leg's nonce, and the parlay's all_won, legs_won and combined multiplier from
// the legs. Against the stand-in nothing is above info (the stored nonce 0 is no reuse of the single
// bet that drew nonce 0); a target whose audit trail shows one leg's roll other than its committed
// draw, where the other legs record theirs exactly, is critical `fairness:parlay:draw`; one whose
// all_won denies its legs is critical `fairness:parlay:contradiction`.
// Real loopback listeners: the deployed stand-in (published rules, limits lifted, manual clock),
// behind a rewriting proxy for the audit's reads.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Rewrite } from '../../fixtures/rewriting-proxy.ts';
import type { LiveFinding } from '../../fixtures/live-house-edge.ts';
import { parlaysAudited } from '../../fixtures/proxied-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-parlay-fairness-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const LEGS = [
  { game: 'coin_flip', params: { side: 'heads' } },
  { game: 'dice', params: { direction: 'under', threshold: 70, client_seed: 'leg-dice' } },
  { game: 'multiplier', params: { target_multiplier: 1.2 } },
  { game: 'simple_dice', params: { guess: 4 } },
  { game: 'coin_flip', params: { side: 'tails', client_seed: 'leg-coin' } },
];

async function audit(name: string, rewrite: Rewrite): Promise<{ code: number; text: string; findings: LiveFinding[] }> {
  return parlaysAudited(DIR, name, LEGS, rewrite);
}

/** A rewrite of the first parlay audit trail read (`GET /fairness/audit/:id`): its result changed by `change`. */
function firstParlayTrail(
  change: (result: { legs: Record<string, unknown>[] } & Record<string, unknown>) => void,
): Rewrite {
  let done = false;
  return (request, answer) => {
    if (done || answer.status !== 200 || !request.path.includes('/fairness/audit/')) return answer.text;
    const body = JSON.parse(answer.text) as { game?: string; result?: { legs: Record<string, unknown>[] } };
    if (body.game !== 'parlay' || body.result === undefined) return answer.text;
    done = true;
    change(body.result);
    return JSON.stringify(body);
  };
}

const above = (findings: readonly LiveFinding[]): string[] =>
  findings.filter((finding) => finding.severity !== 'info').map((finding) => `${finding.severity} ${finding.id}`);

describe('the fairness audit of deployed parlays', () => {
  test('the stand-in’s parlays verify leg by leg: nothing above info, exit 0', async () => {
    const run = await audit('parlay-clean', (_request, answer) => answer.text);
    expect(above(run.findings), run.text).toEqual([]);
    expect(run.code, run.text).toBe(0);
    // game, audited, verified, rule ok, paid ok, not checked, not revealed
    expect(run.text).toMatch(/\nparlay +6 +6 +6 +6 +0 +0\n/);
    expect(run.text).toMatch(/7 verified under the deployed scheme/);
  });

  test('one leg’s roll rewritten in the audit trail: critical fairness:parlay:draw naming the leg', async () => {
    const run = await audit(
      'parlay-leg-roll',
      firstParlayTrail((result) => {
        const leg = result.legs[1] as { roll: number };
        leg.roll = Math.round(((leg.roll + 50) % 100) * 100) / 100;
      }),
    );
    const draw = run.findings.find((finding) => finding.id === 'fairness:parlay:draw');
    expect(draw?.severity, run.text).toBe('critical');
    expect(draw?.evidence).toMatch(
      /^bet bet_\S+: recorded legs\[1\]\.roll \S+, the committed draw \S+ \(server seed [0-9a-f]{64}, client seed leg-dice, nonce \d+\)/,
    );
    expect(run.code).toBe(3);
  });

  test('all_won that denies its legs: critical fairness:parlay:contradiction', async () => {
    const run = await audit(
      'parlay-all-won',
      firstParlayTrail((result) => {
        result['all_won'] = !(result['all_won'] as boolean);
      }),
    );
    expect(above(run.findings), run.text).toContain('critical fairness:parlay:contradiction');
    expect(run.code).toBe(3);
  });
});
