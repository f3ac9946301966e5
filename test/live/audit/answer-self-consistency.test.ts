// Readings of a live casino's answers against themselves (prober 65, cards):
//  - encoding: a deployment writing card values as numbers (blackjack `10`) or strings (hilo
//    `card1: "1"`) plays the same rule; read strictly by type every bet was "off the draw mapping",
//    the game fell to an empirical edge and hilo's real major (4% stated, 9.8–9.9% kept) vanished;
//  - an answer whose own facts contradict its own outcome or payout (a mine revealed and not hit,
//    keno matches that are not |picks ∩ drawn|, blackjack totals that are not its cards') is
//    critical, whatever rule the target plays; a consistent difference stays minor;
//  - an edge is not "published" (measured as the documents pay) before a paying outcome was seen.
// Real loopback listeners: the in-process deployed stand-in (published rules, limits lifted, manual
// clock), behind a rewriting proxy where the wire differs.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import { rewritingProxy, type Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import type { LiveFinding } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-self-consistency-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

type Bet = Record<string, unknown> & { result: Record<string, unknown> };

/** A rewrite of every bet answer (single bets and batch elements) of `game`: its result and its money fields. */
function betRewrite(game: string, change: (bet: Bet) => void): Rewrite {
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (record['game'] === game && typeof record['result'] === 'object' && record['result'] !== null) {
        change(record as Bet);
        return;
      }
      for (const child of Object.values(record)) if (typeof child === 'object') visit(child);
    }
  };
  return (request, answer) => {
    if (answer.status >= 300 || !/\/games\/|\/bets\/batch/.test(request.path)) return answer.text;
    const body = JSON.parse(answer.text) as unknown;
    visit(body);
    return JSON.stringify(body);
  };
}

async function audit(
  name: string,
  games: string,
  rewrite: Rewrite,
  bets = '40',
): Promise<{ code: number; text: string; findings: LiveFinding[] }> {
  const served = await serveDeployedRules(PUBLISHED_DEPLOYED_RULES);
  const proxy = await rewritingProxy(served.casino, rewrite);
  try {
    const file = join(DIR, `${name}.yaml`);
    writeFileSync(file, adminFundedTargetText(name, { casino: proxy.url }, served.casino));
    const out = join(DIR, name);
    const printed = sink();
    const flags = parseHouseEdgeArgs(
      [
        ...['--target', file, '--key', await served.fundedKey('50'), '--games', games],
        ...['--bets', bets, '--usdc', '2', '--out', out, '--quiet'],
      ],
      () => '7',
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const code = await runHouseEdgeLive(flags, printed.io, served.clock);
    const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: LiveFinding[] })
      .findings;
    return { code, text: printed.text(), findings };
  } finally {
    await proxy.close();
    await served.close();
  }
}

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
