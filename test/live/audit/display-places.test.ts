// A target that rounds its display fields to fewer places than the documents publish (afp serve
// --dialect deployed --rules with `display: { amount_won_places: 0, new_balance_places: 1 }`, float
// money): a won 0.0199 shows amount_won 0 and the balance still moves 0.0199. The live audits judge
// each shown figure by the places it shows (core/live-amount.ts withinRounding), so the target is
// not called wrong, and the house-edge audit says what it measured: an info finding that amount_won
// is rounded to fewer decimals, with a bet as evidence. Before, every live command exited 3 with
// critical and major money findings ("the amount credited is not the stake times the multiplier",
// "pays 0× where it publishes 1.99×", the batch summary "disagrees with its results").
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { parseFairnessArgs, runFairness } from '../../../src/cli/audit-fairness.ts';
import { parseMoneyArgs, runMoney } from '../../../src/cli/audit-money.ts';
import { main as checkEnding } from '../../../src/cli/check.ts';
import { RULES_SERVE_START_MS as START_MS, serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';
import { coded } from '../../cli/ending-code.ts';
import { codeOf } from '../../cli/ending-code.ts';

const checkMain = coded(checkEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-display-places-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly expected: string | null;
  readonly seen: string | null;
}

const readFindings = (out: string): Finding[] =>
  (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] }).findings;
const graveOrMinor = (findings: readonly Finding[]): string[] =>
  findings.filter((finding) => finding.severity !== 'info').map((finding) => `${finding.severity} ${finding.id}`);

describe('a target that shows amount_won to 0 places and new_balance to 1', () => {
  test('house-edge, money, fairness and check find nothing wrong; house-edge says amount_won is rounded to fewer places', async () => {
    const rules = parseDeployedRulesFile(
      'display: { amount_won_places: 0, new_balance_places: 1 }\nmoney: { float_noise: true }\n',
      'display.yaml',
    );
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const edge = await liveHouseEdge(served, {
        args: ['--games', 'coin_flip,dice,multiplier', '--bets', '60'],
        seed: '4',
        out: join(DIR, 'edge'),
      });
      expect(edge.code, edge.text).toBe(0);
      const edgeFindings = edge.findings;
      expect(graveOrMinor(edgeFindings)).toEqual([]);
      const fewer = edgeFindings.find((finding) => finding.id === 'shape:casino.bet:amount_won:places-fewer');
      expect(fewer?.seen).toBe('0');
      // With the request that placed the bet, as a curl line (the key from $AFP_KEY, never in the line).
      expect(fewer?.reproduce).toMatch(
        /^curl -sS -X POST 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/(games|bets)\/.*\$AFP_KEY/,
      );
      expect(fewer?.expected).toMatch(/^stake × payout_multiplier = 0\.0\d+ rounded to 2 decimals: 0\.0\d$/);

      const moneyOut = join(DIR, 'money');
      const moneyFlags = parseMoneyArgs(
        ['--target', served.casino, '--key', await served.fundedKey('20'), '--out', moneyOut],
        START_MS,
      );
      if ('errors' in moneyFlags) throw new Error(moneyFlags.errors.join('; '));
      const money = sink();
      expect(
        await codeOf(runMoney({ ...moneyFlags, quiet: true }, money.io, served.clock), money.io),
        money.text(),
      ).toBe(0);
      expect(money.text()).toMatch(/ran {5}batch-summary: \d+ elements, \d+ placed, summary compared/);
      expect(graveOrMinor(readFindings(moneyOut)).filter((finding) => !finding.startsWith('minor rule:'))).toEqual([]);

      const fairFlags = parseFairnessArgs(
        ['--target', served.casino, '--key', edge.key, '--out', join(DIR, 'fair')],
        START_MS,
      );
      if ('errors' in fairFlags) throw new Error(fairFlags.errors.join('; '));
      const fair = sink();
      expect(
        await codeOf(runFairness({ ...fairFlags, quiet: true }, fair.io, served.clock), fair.io),
        fair.text(),
      ).toBe(0);

      let checked = '';
      const checkCode = await checkMain(
        ['--target', served.casino, '--seed', '3', '--runs', '8', '--max-commands', '20', '--quiet'],
        { out: (text) => void (checked += text), err: (text) => void (checked += text) },
      );
      expect(checkCode, checked).toBe(0);
      expect(checked).toMatch(/^ok: 8 runs held/m);
    } finally {
      await served.close();
    }
  });
});

describe('a target that changed a payout and shows amount_won to 1 place', () => {
  // Found by a probe: 0.01 × 1.97 = 0.0197 shows as 0.0, so the tier read "pays 0×" (a 100% edge)
  // and the returns check called its own observed law broken (major, exit 3), though the answer
  // says won, payout_multiplier 1.97, and the balance moves 0.0197.
  test('house-edge measures the changed payout (1.97×) as a minor rule finding, nothing above it', async () => {
    const rules = parseDeployedRulesFile(
      'casino:\n  coin_flip: { payout: 1.97 }\ndisplay: { amount_won_places: 1 }\n',
      'changed.yaml',
    );
    if (!rules.ok) throw new Error(rules.message);
    // Its game list states what it plays (1.5%, 1.97x): the test is of the display, not of its words.
    const served = await serveDeployedRules(rules.value, '4', 'played');
    try {
      const edge = await liveHouseEdge(served, {
        args: ['--games', 'coin_flip', '--bets', '40'],
        seed: '5',
        out: join(DIR, 'changed'),
      });
      expect(edge.code, edge.text).toBe(0);
      // The 1.97 every answer shows, won or lost, is one rule all its bets follow (restated-rule.ts).
      expect(graveOrMinor(edge.findings)).toEqual(['minor rule:coin_flip:heads:restated']);
      expect(edge.text).toMatch(
        /coin_flip:heads: the answers state a rule of their own \(coin_flip payout 1\.97\): exact edge 1\.500%/,
      );
    } finally {
      await served.close();
    }
  });
});
