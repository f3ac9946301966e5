// Three honest encodings of DEPLOYED.md a prober's casino wrote, each of which afp's live audits
// read as a changed rule (minor `rule:<game>:scheme`, "N of M verified bets off the draw mapping",
// the variants demoted to the empirical tier; in `audit fairness` the bets "not checked"):
//  - blackjack: after the player busts the dealer draws no more (real blackjack), where the
//    deployed rule draws on to 17; DEPLOYED.md does not say which, and the payout is the same;
//  - plinko: `path` written as the string "LRRL…" where the rule writes ["L","R",…];
//  - upper-case labels: `outcome: "HEADS"`, `side_chosen: "HEADS"`, `direction: "OVER"`.
// Each is read as the same outcome now, and a real difference in the same encoding (a total not of
// the cards shown, a wrong letter, the other side) is still found.
// Real loopback listeners: the in-process deployed stand-in (published rules, limits lifted, manual
// clock), behind a rewriting proxy that writes its answers in the honest encoding.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseFairnessArgs, runFairness } from '../../../src/cli/audit-fairness.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import { rewritingProxy, type Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { proxiedHouseEdge, resultRewrite, type ProxiedRun } from '../../fixtures/proxied-house-edge.ts';
import type { LiveFinding } from '../../fixtures/live-house-edge.ts';
import { codeOf } from '../../cli/ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-honest-encodings-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const audit = (name: string, games: string, rewrite: Rewrite, bets = '60'): Promise<ProxiedRun> =>
  proxiedHouseEdge(DIR, name, games, rewrite, { bets, usdc: '1', funds: '50' });

const ids = (run: ProxiedRun): string[] => run.findings.map((finding) => finding.id);

/** The lines of the audit's table whose tier is `empirical` (a game afp could not verify). */
const empiricalLines = (run: ProxiedRun): string[] => run.text.split('\n').filter((line) => / empirical /.test(line));

/** Two dealt cards' blackjack total, written here apart from afp's own (an ace 11, or 1 beside another). */
function twoCardTotal(cards: readonly string[]): number {
  const values = cards.map((card) => (card === 'A' ? 11 : ['J', 'Q', 'K'].includes(card) ? 10 : Number(card)));
  const total = values.reduce((sum, value) => sum + value, 0);
  return total > 21 ? total - 10 : total;
}

/** Every blackjack answer whose player busted with a dealer of more than two cards, cut to the two dealt; `total` writes its dealer_total. */
function dealerStopsAtBust(cut: { count: number }, total: (shown: string[], full: number) => number): Rewrite {
  return resultRewrite('blackjack', (result) => {
    const dealer = result['dealer_cards'] as string[];
    if ((result['player_total'] as number) <= 21 || dealer.length <= 2) return;
    cut.count += 1;
    const shown = dealer.slice(0, 2);
    result['dealer_total'] = total(shown, result['dealer_total'] as number);
    result['dealer_cards'] = shown;
  });
}

describe('blackjack: the dealer stops when the player busts', () => {
  test('two dealt cards and their total after a bust: the rule is followed, no variant empirical', async () => {
    const cut = { count: 0 };
    const run = await audit(
      'bj-stops',
      'blackjack',
      dealerStopsAtBust(cut, (shown) => twoCardTotal(shown)),
    );
    expect(cut.count, run.text).toBeGreaterThanOrEqual(3);
    expect(ids(run), run.text).not.toContain('rule:blackjack:scheme');
    expect(empiricalLines(run), run.text).toEqual([]);
  });

  test('the dealer cut to two cards but its total left at the drawn hand’s: still off the mapping', async () => {
    const cut = { count: 0 };
    const run = await audit(
      'bj-stops-wrong-total',
      'blackjack',
      dealerStopsAtBust(cut, (_shown, full) => full),
    );
    expect(cut.count, run.text).toBeGreaterThanOrEqual(3);
    expect(ids(run), run.text).toContain('rule:blackjack:scheme');
  });

  test('the dealer cut to two cards, the second another rank (its total fitted): still off the mapping', async () => {
    const run = await audit(
      'bj-stops-wrong-card',
      'blackjack',
      resultRewrite('blackjack', (result) => {
        const dealer = result['dealer_cards'] as string[];
        if ((result['player_total'] as number) <= 21 || dealer.length <= 2) return;
        const shown = [dealer[0] as string, dealer[1] === '2' ? '3' : '2'];
        result['dealer_cards'] = shown;
        result['dealer_total'] = twoCardTotal(shown);
      }),
    );
    expect(ids(run), run.text).toContain('rule:blackjack:scheme');
  });
});

describe('plinko: the path written as one string', () => {
  test('"LRRL…" for ["L","R","R","L",…]: the rule is followed, no variant empirical', async () => {
    const run = await audit(
      'plinko-string',
      'plinko',
      resultRewrite('plinko', (result) => {
        result['path'] = (result['path'] as string[]).join('');
      }),
      '45',
    );
    expect(ids(run), run.text).not.toContain('rule:plinko:scheme');
    expect(empiricalLines(run), run.text).toEqual([]);
  });

  test('the string with its first step the other way: off the mapping', async () => {
    const run = await audit(
      'plinko-string-flipped',
      'plinko',
      resultRewrite('plinko', (result) => {
        const path = result['path'] as string[];
        result['path'] = [path[0] === 'L' ? 'R' : 'L', ...path.slice(1)].join('');
      }),
      '45',
    );
    expect(ids(run), run.text).toContain('rule:plinko:scheme');
  });
});

const LABELS = ['outcome', 'side_chosen', 'direction'];

/** Every JSON answer's coin-flip and dice results, wherever they sit (bets, batches, history, audit trails), with `change`. */
function labelRewrite(change: (result: Record<string, unknown>, index: number) => void): Rewrite {
  let index = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      const result = record['result'];
      if (
        (record['game'] === 'coin_flip' || record['game'] === 'dice') &&
        typeof result === 'object' &&
        result !== null
      ) {
        change(result as Record<string, unknown>, index);
        index += 1;
      }
      for (const child of Object.values(record)) visit(child);
    }
  };
  return (_request, answer) => {
    if (answer.status >= 300 || !answer.text.startsWith('{')) return answer.text;
    const body = JSON.parse(answer.text) as unknown;
    visit(body);
    return JSON.stringify(body);
  };
}

const upperCase = labelRewrite((result) => {
  for (const label of LABELS) if (typeof result[label] === 'string') result[label] = result[label].toUpperCase();
});

describe('labels in upper case (HEADS, OVER)', () => {
  test('house-edge: the rule is followed, no variant empirical', async () => {
    const run = await audit('upper', 'coin_flip,dice', upperCase, '80');
    expect(ids(run), run.text).not.toContain('rule:coin_flip:scheme');
    expect(ids(run), run.text).not.toContain('rule:dice:scheme');
    expect(empiricalLines(run), run.text).toEqual([]);
  });

  test('house-edge: the other side shown on every fourth coin flip, in upper case too: off the mapping', async () => {
    const run = await audit(
      'upper-other-side',
      'coin_flip',
      labelRewrite((result, index) => {
        const outcome = result['outcome'] as string;
        result['outcome'] = (index % 4 === 0 ? (outcome === 'heads' ? 'tails' : 'heads') : outcome).toUpperCase();
        result['side_chosen'] = (result['side_chosen'] as string).toUpperCase();
      }),
    );
    expect(ids(run), run.text).toContain('rule:coin_flip:scheme');
  });

  test('fairness: the parameters are read back from the upper-case echoes, every bet checked and ok', async () => {
    const served = await serveDeployedRules(PUBLISHED_DEPLOYED_RULES);
    const proxy = await rewritingProxy(served.casino, upperCase);
    try {
      const key = await served.fundedKey('20');
      const bets = [
        ['coin-flip', { side: 'heads' }],
        ['coin-flip', { side: 'tails' }],
        ['dice', { direction: 'over', threshold: 40 }],
        ['dice', { direction: 'under', threshold: 60 }],
      ] as const;
      for (const [path, params] of bets)
        for (let round = 0; round < 3; round += 1) {
          const answer = await fetch(`${served.casino}/api/v1/games/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: JSON.stringify({ amount: 0.05, ...params }),
          });
          expect(answer.status, await answer.text()).toBe(200);
        }
      const file = join(DIR, 'upper-fairness.yaml');
      writeFileSync(file, adminFundedTargetText('upper-fairness', { casino: proxy.url }, served.casino));
      const out = join(DIR, 'upper-fairness');
      const flags = parseFairnessArgs(['--target', file, '--key', key, '--out', out], 0);
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const printed = sink();
      const code = await codeOf(runFairness({ ...flags, quiet: true }, printed.io, served.clock), printed.io);
      const text = printed.text();
      const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: LiveFinding[] })
        .findings;
      // game, audited, verified, rule ok, paid ok, not checked, not revealed
      expect(text).toMatch(/\ncoin_flip +6 +6 +6 +6 +0 +0\n/);
      expect(text).toMatch(/\ndice +6 +6 +6 +6 +0 +0\n/);
      expect(
        findings.filter((finding) => finding.id.startsWith('rule:') && finding.severity !== 'info'),
        text,
      ).toEqual([]);
      expect(code, text).toBe(0);
    } finally {
      await proxy.close();
      await served.close();
    }
  });
});
