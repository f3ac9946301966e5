// Readings of a live casino's answers against themselves (prober 65, cards):
//  - encoding: a deployment writing card values as numbers (blackjack `10`) or strings (hilo
//    `card1: "1"`) plays the same rule; read strictly by type every bet was "off the draw mapping",
//    the game fell to an empirical edge and hilo's real major (4% stated, 9.8–9.9% kept) vanished;
//  - an answer whose own facts contradict its own outcome or payout (a mine revealed and not hit,
//    keno matches that are not |picks ∩ drawn|, blackjack totals that are not its cards') is
//    critical where the game's other answers show afp reads the target's encoding, whatever rule
//    it plays; answers that read as contradicting throughout are an encoding afp does not read
//    (cards as deck indexes), minor; a consistent difference stays minor.
// Real loopback listeners: the in-process deployed stand-in (published rules, limits lifted, manual
// clock), behind a rewriting proxy where the wire differs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { betRewrite, proxiedHouseEdge, type Bet, type ProxiedRun } from '../../fixtures/proxied-house-edge.ts';
import type { LiveFinding } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-self-consistency-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const audit = (name: string, games: string, rewrite: Rewrite, bets = '40'): Promise<ProxiedRun> =>
  proxiedHouseEdge(DIR, name, games, rewrite, { bets, usdc: '2', funds: '50' });

const idsAbove = (findings: readonly LiveFinding[], severities: readonly string[]): string[] =>
  findings
    .filter((finding) => severities.includes(finding.severity))
    .map((finding) => `${finding.severity} ${finding.id}`);

describe('a number and the string that spells it are one value', () => {
  test('hilo cards as strings ("1"): the rule is followed, and its stated 4% against the 9.8–9.9% kept is major again', async () => {
    const run = await audit(
      'hilo-strings',
      'hilo',
      betRewrite('hilo', (bet) => {
        bet.result['card1'] = String(bet.result['card1']);
        bet.result['card2'] = String(bet.result['card2']);
      }),
    );
    const ids = run.findings.map((finding) => finding.id);
    expect(ids, run.text).not.toContain('rule:hilo:scheme');
    expect(idsAbove(run.findings, ['critical', 'major']), run.text).toEqual([
      'major edge:hilo:higher',
      'major edge:hilo:lower',
    ]);
  });

  test('blackjack cards as numbers (10 for "10"): the rule is followed', async () => {
    const asNumber = (card: unknown): unknown => (typeof card === 'string' && /^\d+$/.test(card) ? Number(card) : card);
    const run = await audit(
      'blackjack-numbers',
      'blackjack',
      betRewrite('blackjack', (bet) => {
        bet.result['player_cards'] = (bet.result['player_cards'] as unknown[]).map(asNumber);
        bet.result['dealer_cards'] = (bet.result['dealer_cards'] as unknown[]).map(asNumber);
      }),
    );
    expect(
      run.findings.map((finding) => finding.id),
      run.text,
    ).not.toContain('rule:blackjack:scheme');
    expect(idsAbove(run.findings, ['critical', 'major']), run.text).toEqual([]);
  });
});

/** The bet shows `multiplier` paid on its stake: its flag, multiplier and credit agree (no money finding). */
function pays(bet: Bet, multiplier: number): void {
  bet['won'] = multiplier > 0;
  bet['payout_multiplier'] = multiplier;
  bet['amount_won'] = Math.round((bet['amount_bet'] as number) * multiplier * 100) / 100;
}

const contradiction = (findings: readonly LiveFinding[], game: string): LiveFinding | undefined =>
  findings.find((finding) => finding.id === `fairness:${game}:contradiction`);

describe('an answer whose own facts contradict its own outcome or payout is critical', () => {
  test('mines: a lost bet rewritten to hit_mine false, revealed cells including a mine, paid payout_on_win', async () => {
    const run = await audit(
      'mines-hidden-hit',
      'mines',
      betRewrite('mines', (bet) => {
        const result = bet.result;
        if (result['hit_mine'] !== true) return;
        result['hit_mine'] = false;
        result['hit_at_cell'] = null;
        result['revealed_cells'] = Array.from({ length: result['reveals_count'] as number }, (_, cell) => cell);
        pays(bet, result['payout_on_win'] as number);
      }),
    );
    const found = contradiction(run.findings, 'mines');
    expect(found?.severity, run.text).toBe('critical');
    expect(found?.evidence).toMatch(
      /^bet bet_\S+ \(mines:[\d:]+\): revealed_cells \[[\d,]+\] include mine \d+ of mine_positions \[[\d,]+\], yet hit_mine is false/,
    );
    expect(found?.reproduce).toMatch(/^curl .*\/api\/v1\/(games\/mines|bets\/batch)/);
    expect(run.code).toBe(3);
  });

  test('keno: matches one more than |picks ∩ drawn|, paid on the miscount', async () => {
    const run = await audit(
      'keno-miscount',
      'keno',
      betRewrite('keno', (bet) => {
        const result = bet.result;
        const real = (result['picks'] as number[]).filter((pick) =>
          (result['drawn'] as number[]).includes(pick),
        ).length;
        const table = result['payout_table'] as Record<string, number>;
        const multiplier = table[String(real + 1)] ?? 0;
        if (multiplier <= (bet['payout_multiplier'] as number)) return;
        result['matches'] = real + 1;
        result['payout_multiplier'] = multiplier;
        pays(bet, multiplier);
      }),
    );
    const found = contradiction(run.findings, 'keno');
    expect(found?.severity, run.text).toBe('critical');
    expect(found?.evidence).toMatch(
      /^bet bet_\S+ \(keno:\d+\): matches \d+ where picks \[[\d,]+\] and drawn \[[\d,]+\] share \d+/,
    );
  });

  test('keno: the right count, paid another line than its own payout_table states for it', async () => {
    const run = await audit(
      'keno-off-table',
      'keno',
      betRewrite('keno', (bet) => {
        const result = bet.result;
        const table = result['payout_table'] as Record<string, number>;
        const next = table[String((result['matches'] as number) + 1)] ?? 0;
        if (next <= (bet['payout_multiplier'] as number)) return;
        result['payout_multiplier'] = next;
        pays(bet, next);
      }),
    );
    expect(contradiction(run.findings, 'keno')?.evidence, run.text).toMatch(
      /which its payout_table pays ×[\d.]+, yet the bet paid ×/,
    );
  });

  test('blackjack: the dealer’s first card swapped on the bets of even player total, totals unchanged: the totals contradict the cards', async () => {
    const run = await audit(
      'blackjack-swapped',
      'blackjack',
      betRewrite('blackjack', (bet) => {
        // The bets left alone show afp reads the target's cards; swapped on every bet, the answers
        // would read as an encoding afp does not know (minor), as the next test shows.
        if ((bet.result['player_total'] as number) % 2 === 1) return;
        const dealer = [...(bet.result['dealer_cards'] as string[])];
        dealer[0] = dealer[0] === 'K' ? 'Q' : 'K';
        bet.result['dealer_cards'] = dealer;
      }),
    );
    const found = contradiction(run.findings, 'blackjack');
    expect(found?.severity, run.text).toBe('critical');
    expect(found?.evidence).toMatch(/dealer_total \d+ where dealer_cards \[.*\] total \d+/);
  });

  test('roulette: every colour swapped (no encoding explains a colour): critical though no answer is honest', async () => {
    const run = await audit(
      'roulette-colours',
      'roulette',
      betRewrite('roulette', (bet) => {
        const colour = bet.result['color'];
        if (colour === 'red' || colour === 'black') bet.result['color'] = colour === 'red' ? 'black' : 'red';
      }),
    );
    const found = contradiction(run.findings, 'roulette');
    expect(found?.severity, run.text).toBe('critical');
    expect(found?.evidence).toMatch(/color "(red|black)" where number \d+ is (red|black)/);
  });

  test('blackjack cards written as their index in DEPLOYED.md’s list (2 … 10, J, Q, K, A = 0 … 12): no answer reads, a minor encoding finding, never critical', async () => {
    const order = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
    const index = (card: unknown): unknown => {
      const found = order.indexOf(String(card));
      return found === -1 ? card : found;
    };
    const run = await audit(
      'blackjack-indexes',
      'blackjack',
      betRewrite('blackjack', (bet) => {
        for (const hand of ['player_cards', 'dealer_cards'])
          bet.result[hand] = (bet.result[hand] as unknown[]).map(index);
      }),
    );
    const found = contradiction(run.findings, 'blackjack');
    expect(
      run.findings.filter((finding) => finding.severity === 'critical'),
      run.text,
    ).toEqual([]);
    if (found !== undefined) expect(found.severity).toBe('minor');
  });

  test('a consistent rule of its own (keno paying double its published table, stated in payout_table): no contradiction', async () => {
    const run = await audit(
      'keno-own-table',
      'keno',
      betRewrite('keno', (bet) => {
        const result = bet.result;
        const table = result['payout_table'] as Record<string, number>;
        result['payout_table'] = Object.fromEntries(Object.entries(table).map(([count, pay]) => [count, pay * 2]));
        const multiplier = (bet['payout_multiplier'] as number) * 2;
        result['payout_multiplier'] = multiplier;
        pays(bet, multiplier);
      }),
    );
    expect(contradiction(run.findings, 'keno'), run.text).toBeUndefined();
    // The proxy shows the doubled credit without moving the balance: the balance check objects, and
    // the doubled table's edge against the game list's word for 1 spot (its published −250%).
    expect(idsAbove(run.findings, ['critical', 'major']), run.text).toEqual([
      'critical money:edge-audit:balance-delta',
      'critical edge:keno:1',
    ]);
  });
});
