// A target whose minimum bet is above the documents' (afp serve --dialect deployed --rules with
// `bets: { minimum: 0.05 }`, float money): the live audits measure the minimum from the target's
// own refusal ("Minimum bet is $0.05", DEPLOYED.md §2.4's words) and bet at it, each game's first
// refusal a minor rule finding. Before, they bet the documents' 0.01 and were refused every time:
// the house-edge audit verified nothing, money's bets-balance probe "ran" on no bet at all, and
// `afp check --target` exited 3 ("results [refused], expected [placed]") on a working target.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { drawSeed, parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { parseFairnessArgs, runFairness } from '../../../src/cli/audit-fairness.ts';
import { parseMoneyArgs, runMoney } from '../../../src/cli/audit-money.ts';
import { main as checkEnding } from '../../../src/cli/check.ts';
import { RULES_SERVE_START_MS as START_MS, serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';
import { coded } from '../../cli/ending-code.ts';
import { codeOf } from '../../cli/ending-code.ts';

const checkMain = coded(checkEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-minimum-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly evidence: string;
}
interface EdgeRow {
  readonly game: string;
  readonly variant: string;
  readonly placed: number;
  readonly verified: number;
  readonly refused: number;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const grave = (finding: Finding): boolean => finding.severity === 'critical' || finding.severity === 'major';

describe('a target whose minimum bet is 0.05: the audits bet at the minimum it states', () => {
  test('house-edge, money and fairness place and verify their bets at 0.05, each game’s minimum a minor rule finding', async () => {
    const rules = parseDeployedRulesFile('bets: { minimum: 0.05 }\nmoney: { float_noise: true }\n', 'min.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const key = await served.fundedKey('50');
      const out = join(DIR, 'edge');
      const flags = parseHouseEdgeArgs(
        [
          '--target',
          served.casino,
          '--key',
          key,
          '--games',
          'coin_flip,dice,video_poker',
          '--bets',
          '50',
          '--usdc',
          '5',
        ],
        drawSeed,
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const edge = sink();
      const code = await codeOf(
        runHouseEdgeLive({ ...flags, seed: '5', out, quiet: true }, edge.io, served.clock),
        edge.io,
      );
      expect(code, edge.text()).toBe(0);
      const rows = readJson<{ variants: EdgeRow[]; placed: number; refused: number }>(join(out, 'edges.json'));
      // Every bet placed (the refused ones were sent once more at the stated minimum) and verified.
      expect([rows.placed, rows.refused], edge.text()).toEqual([50, 0]);
      for (const row of rows.variants) expect(row.verified, JSON.stringify(row)).toBe(row.placed);
      const findings = readJson<{ findings: Finding[] }>(join(out, 'findings.json')).findings;
      expect(findings.filter(grave).map((finding) => finding.id)).toEqual([]);
      const minimums = findings.filter((finding) => finding.id.endsWith(':minimum-bet'));
      expect(minimums.map((finding) => [finding.id, finding.severity]).sort()).toEqual([
        ['rule:coin_flip:minimum-bet', 'minor'],
        ['rule:dice:minimum-bet', 'minor'],
        ['rule:video_poker:minimum-bet', 'minor'],
      ]);
      for (const finding of minimums) {
        expect(finding.title).toContain('is 0.05, not 0.01');
        expect(finding.evidence).toBe('Minimum bet is $0.05');
      }
      // No game is called "refused in a batch but accepted alone" for a minimum.
      expect(findings.filter((finding) => finding.id.endsWith(':not-in-batch'))).toEqual([]);
      // Every video-poker hand dealt was drawn: this target commits the minimum at the deal and
      // refuses the draw at 0.01, so the same hand is drawn again at 0.05 (dealing anew left the hand
      // for the next deal to settle unseen, and the balance check called the target's money wrong).
      const history = (await (
        await fetch(`${served.casino}/api/v1/bets/history?limit=200`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { pagination: { total: number } };
      expect(history.pagination.total).toBe(rows.placed);
      expect(findings.map((finding) => finding.id)).not.toContain('money:edge-audit:balance-delta-not-judged');

      const moneyFlags = parseMoneyArgs(
        ['--target', served.casino, '--key', await served.fundedKey('20'), '--out', join(DIR, 'money')],
        START_MS,
      );
      if ('errors' in moneyFlags) throw new Error(moneyFlags.errors.join('; '));
      const money = sink();
      expect(
        await codeOf(runMoney({ ...moneyFlags, quiet: true }, money.io, served.clock), money.io),
        money.text(),
      ).toBe(0);
      expect(money.text()).toMatch(/ran {5}batch-summary: 11 elements, 10 placed, summary compared/);
      expect(money.text()).toMatch(/ran {5}bets-balance: 10 bets of 0\.05,/);

      const fairFlags = parseFairnessArgs(
        ['--target', served.casino, '--key', key, '--out', join(DIR, 'fair')],
        START_MS,
      );
      if ('errors' in fairFlags) throw new Error(fairFlags.errors.join('; '));
      const fair = sink();
      expect(
        await codeOf(runFairness({ ...fairFlags, quiet: true }, fair.io, served.clock), fair.io),
        fair.text(),
      ).toBe(0);
      for (const probe of ['draw-replay', 'batch-replay', 'seed-nonce-reuse'])
        expect(fair.text()).toMatch(new RegExp(`replay ran {5}${probe}:`));
      expect(fair.text()).toMatch(/batch-replay: the same batch of 3 twice: 3 then 3 bets placed/);

      let checked = '';
      const checkCode = await checkMain(
        ['--target', served.casino, '--seed', '1', '--runs', '12', '--max-commands', '20', '--quiet'],
        { out: (text) => void (checked += text), err: (text) => void (checked += text) },
      );
      expect(checkCode, checked).toBe(0);
      expect(checked).toMatch(/^ {2}minor rule:coin_flip:minimum-bet: coin_flip's minimum bet on the target is 0\.05/m);
      expect(checked).toMatch(/^ok: 12 runs held/m);
    } finally {
      await served.close();
    }
  });

  test('a minimum above the whole USDC budget: nothing placed, nothing staked, and not a pass (exit 4)', async () => {
    const rules = parseDeployedRulesFile('bets: { minimum: 2 }\n', 'min2.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const { code, text, findings } = await liveHouseEdge(served, {
        args: ['--games', 'coin_flip,dice', '--bets', '20'],
        seed: '5',
        out: join(DIR, 'budget'),
      });
      expect(code, text).toBe(4);
      expect(text).toMatch(/bets: 0 placed, 0 verified, \d+ refused; staked 0\.00 USDC of a 0\.20 budget/);
      expect(text).toContain('no bet was placed: nothing is verified, so the audit is not a pass (exit 4)');
      const minimum = findings.find((finding) => finding.id === 'rule:coin_flip:minimum-bet');
      expect(minimum?.title).toContain('past what the USDC budget (--usdc) has left, so none is placed at it');
    } finally {
      await served.close();
    }
  });
});
