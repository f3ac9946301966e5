// A deployment whose crash and multiplier games use another edge factor (afp serve --dialect
// deployed --rules with `crash: { edge_factor: 0.97 }`, `multiplier: { edge_factor: 0.97 }`): the
// crash point is the roll through the edge factor, a payout rule a deployment may change. `afp
// audit fairness` reports it as the rule it is (minor `rule:<game>:payout`, the draw follows the
// published rule and the hashes verify), not as an outcome that breaks the rule: before, it raised
// a major `rule:crash:outcome` and exited 3 on a working target. The house-edge audit still measures
// those games empirically (the crash point moves which bets win). A target whose roll itself does
// not follow the rule (a proxy that shifts every `roll` it reads back) is still an outcome finding
// (minor on the deployed scheme, as house-edge's on the same bets: its answers agree with themselves).
// In-process: real loopback listeners, the deployment's wire, the limits lifted, a manual clock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { drawSeed, parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { parseFairnessArgs, runFairness } from '../../../src/cli/audit-fairness.ts';
import { RULES_SERVE_START_MS as START_MS, serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { rewritingProxy } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import type { AuditedFinding } from '../../fixtures/money-audit.ts';
import { codeOf } from '../../cli/ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-crash-edge-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const RULES =
  'casino:\n  crash: { edge_factor: 0.97 }\n  multiplier: { edge_factor: 0.97 }\nmoney: { float_noise: true }\n';

async function fairness(target: string, key: string, out: string, clock: Parameters<typeof runFairness>[2]) {
  const flags = parseFairnessArgs(['--target', target, '--key', key, '--out', out], START_MS);
  if ('errors' in flags) throw new Error(flags.errors.join('; '));
  const printed = sink();
  const code = await codeOf(runFairness({ ...flags, quiet: true }, printed.io, clock), printed.io);
  const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: AuditedFinding[] })
    .findings;
  return { code, text: printed.text(), findings };
}

describe('a crash edge factor of the target’s own', () => {
  test('fairness: a minor payout rule finding, no outcome finding, exit 0; a shifted roll is still an outcome finding', async () => {
    const rules = parseDeployedRulesFile(RULES, 'crash.yaml');
    if (!rules.ok) throw new Error(rules.message);
    // Its game list states the edges it plays: the house-edge run reads the factor from its answers
    // (restated-rule.ts) and finds it keeps its word; the test is of the fairness audit's reading.
    const served = await serveDeployedRules(rules.value, '4', 'played');
    try {
      const key = await served.fundedKey('20');
      const flags = parseHouseEdgeArgs(
        ['--target', served.casino, '--key', key, '--games', 'crash,multiplier', '--bets', '60', '--usdc', '5'],
        drawSeed,
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const edge = sink();
      expect(
        await codeOf(
          runHouseEdgeLive({ ...flags, seed: '3', out: join(DIR, 'edge'), quiet: true }, edge.io, served.clock),
          edge.io,
        ),
      ).toBe(0);

      const fair = await fairness(served.casino, key, join(DIR, 'fair'), served.clock);
      expect(fair.code, fair.text).toBe(0);
      const ids = fair.findings.map((finding) => `${finding.severity} ${finding.id}`);
      expect(ids).not.toContain('major rule:crash:outcome');
      expect(ids).not.toContain('major rule:multiplier:outcome');
      const payout = fair.findings.find((finding) => finding.id === 'rule:crash:payout');
      expect(payout?.severity, ids.join('\n')).toBe('minor');
      expect(payout?.title).toMatch(/crash_point \d+(\.\d+)? where the rule gives \d+(\.\d+)?/);

      // Control: every roll read back one point higher is a draw that does not follow the rule (the
      // serve's own address in its mounts answer is the proxy's, so every call goes through it).
      let proxyUrl = '';
      const proxy = await rewritingProxy(served.casino, (_request, answer) =>
        answer.text
          .replaceAll(served.casino, proxyUrl)
          .replace(/"roll": *(\d+(?:\.\d+)?)/g, (_whole, roll: string) => `"roll":${Number(roll) + 1}`),
      );
      proxyUrl = proxy.url;
      try {
        // An outcome finding, not a payout one; minor on the deployed scheme (a changed mapping, as
        // house-edge's rule:<game>:scheme says of the same bets): its answers do not contradict themselves.
        const shifted = await fairness(proxy.url, key, join(DIR, 'shifted'), served.clock);
        expect(shifted.findings.map((finding) => `${finding.severity} ${finding.id}`)).toContain(
          'minor rule:crash:outcome',
        );
      } finally {
        await proxy.close();
      }
    } finally {
      await served.close();
    }
  });
});
