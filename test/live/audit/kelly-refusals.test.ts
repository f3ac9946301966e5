// A live house-edge audit from an account of 1 USDC against the deployment's stand-in: its Kelly
// limit (DEPLOYED.md §2.8) refuses even 0.01 on keno and the multiplier at that balance, and says its
// max_bet. That is the target's own rule at work, so each game's refusals are one info finding that
// names the limit and says to fund the account more; they were a minor rule finding whose expected
// was "the bet accepted", as if the target were at fault.
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { liveHouseEdge } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-kelly-refusals-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('an audit account too small for the Kelly limit', () => {
  test("refusals above the target's stated Kelly limit are an info finding naming the limit, not a rule fault", async () => {
    const rules = parseDeployedRulesFile('money: { float_noise: true }\n', 'kelly.yaml');
    if (!rules.ok) throw new Error(rules.message);
    const served = await serveDeployedRules(rules.value);
    try {
      const { findings } = await liveHouseEdge(served, {
        args: ['--games', 'coin_flip,keno,multiplier', '--bets', '40'],
        seed: '2',
        out: join(DIR, 'edge'),
        usdc: '1',
      });
      const refusals = findings.filter((finding) => finding.id.includes(':refused:'));
      expect(refusals.map((finding) => `${finding.severity} ${finding.id}`).sort()).toEqual([
        'info rule:keno:refused:kelly-limit',
        'info rule:multiplier:refused:kelly-limit',
      ]);
      for (const finding of refusals)
        expect(finding.title).toMatch(/refused above the Kelly limit .* \(max bet 0\.\d+\): fund the account more/);
    } finally {
      await served.close();
    }
  });
});
