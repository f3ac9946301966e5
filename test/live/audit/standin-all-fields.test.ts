// The live audits against the deployed stand-in now that it writes every result field DEPLOYED.md
// §2.5 lists (win_probability, colours, labels, notes, payout tables): at 20 bets a variant over all
// 17 games the house-edge audit raises, above info, only the published rules' contradictions of the
// target's own word (the wheel's 9.5% and hilo's 4% house_edge_pct), and the fairness audit of the
// same history nothing. The stated chances are measured against the rule the bets followed: info.
// Real loopback listeners: the in-process deployed stand-in (published rules, limits lifted, manual clock).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseFairnessArgs, runFairness } from '../../../src/cli/audit-fairness.ts';
import { parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { documentVariants } from '../../../src/audit/fairness/document-variants.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import type { LiveFinding } from '../../fixtures/live-house-edge.ts';
import { codeOf } from '../../cli/ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-all-fields-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const findingsIn = (out: string): LiveFinding[] =>
  (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: LiveFinding[] }).findings;
const aboveInfo = (findings: readonly LiveFinding[]): string[] =>
  findings.filter((finding) => finding.severity !== 'info').map((finding) => `${finding.severity} ${finding.id}`);

describe('the stand-in with every §2.5 result field', () => {
  test('house-edge at 20 bets a variant, then fairness over the same history: only the target’s own contradictions', async () => {
    const variants = documentVariants().reduce((total, game) => total + game.variants.length, 0);
    const served = await serveDeployedRules(PUBLISHED_DEPLOYED_RULES);
    try {
      const file = join(DIR, 'target.yaml');
      writeFileSync(file, adminFundedTargetText('all-fields', { casino: served.casino }, served.casino));
      const key = await served.fundedKey('60');
      const edgeOut = join(DIR, 'edge');
      const flags = parseHouseEdgeArgs(
        [
          ...['--target', file, '--key', key, '--bets', String(20 * variants)],
          ...['--usdc', '40', '--out', edgeOut, '--quiet'],
        ],
        () => '7',
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const printed = sink();
      const code = await codeOf(runHouseEdgeLive(flags, printed.io, served.clock), printed.io);
      const edge = findingsIn(edgeOut);
      // Its game list states what the published rules play (the fixture's own words); above that,
      // only what the target's own house_edge_pct contradicts, and its keno's draw of 5–8 numbers
      // where its answers say 20 are drawn (minor).
      const grave = aboveInfo(edge).filter((id) => !id.startsWith('minor edge:'));
      expect(grave, printed.text()).toEqual([
        'critical edge:wheel',
        'major edge:hilo:higher',
        'major edge:hilo:lower',
        'minor rule:keno:draw',
      ]);
      expect(code).toBe(3);
      const hilo = edge.find((finding) => finding.id === 'edge:hilo:higher');
      expect(hilo?.title).toMatch(/where 4% \(house_edge_pct in \d+ of its answers\) is advertised/);
      // The stated chances, measured: blackjack's 0.42 and the crash point's 0.995/T, info stating both.
      const chances = edge.filter((finding) => finding.id.endsWith(':stated-chance'));
      expect(chances.every((finding) => finding.severity === 'info')).toBe(true);
      expect(chances.map((finding) => finding.id)).toEqual(
        expect.arrayContaining(['rule:blackjack:stand:stated-chance', 'rule:multiplier:2:stated-chance']),
      );
      expect(chances.find((finding) => finding.id === 'rule:blackjack:stand:stated-chance')).toMatchObject({
        expected: '0.42',
        seen: '0.325200',
      });
      // Roulette, dice and mines state what their rules give at the places written: nothing.
      expect(chances.filter((finding) => /^rule:(roulette|dice|mines):/.test(finding.id))).toEqual([]);

      const fairOut = join(DIR, 'fair');
      const fairFlags = parseFairnessArgs(['--target', file, '--key', key, '--out', fairOut], 0);
      if ('errors' in fairFlags) throw new Error(fairFlags.errors.join('; '));
      const fairPrinted = sink();
      const fairCode = await codeOf(runFairness(fairFlags, fairPrinted.io, served.clock), fairPrinted.io);
      expect(aboveInfo(findingsIn(fairOut)), fairPrinted.text()).toEqual([]);
      expect(fairCode).toBe(0);
    } finally {
      await served.close();
    }
  }, 600_000);
});
