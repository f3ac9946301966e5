// A target whose revealed seeds do not hash to their commitments, and whose rotation and seed list
// reveal different seeds for one commitment: the house-edge audit says so (critical commitment, a
// major finding naming both calls, the commitment's curl the GET that shows the seed), counts no
// bet as verified, and rests no rule or edge finding on those bets (the old audit added a minor
// rule:<game>:scheme "the hashes verify" and a table of "verified" bets). Real loopback listeners:
// a deployed stand-in (published rules, limits lifted, manual clock) behind a rewriting proxy.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { parseFairnessArgs, runFairness } from '../../../src/cli/audit-fairness.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import { rewritingProxy } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { codeOf } from '../../cli/ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-bad-seed-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly endpoint: string | null;
  readonly reproduce: string | null;
}

/** Each revealed seed's hex turned into another 64-hex text: `prefix` then the seed without its first two digits. */
const falseSeeds = (text: string, prefix: string): string =>
  text.replace(/"seed":"([0-9a-f]{64})"/g, (_whole, seed: string) => `"seed":"${prefix}${seed.slice(2)}"`);

describe('revealed seeds that do not hash to their commitments', () => {
  test('critical commitment with the seed GET as its curl, the two reveals named, nothing verified, no rule finding', async () => {
    const served = await serveDeployedRules(PUBLISHED_DEPLOYED_RULES);
    const proxy = await rewritingProxy(served.casino, (request, answer) => {
      if (request.path.endsWith('/fairness/rotate')) return falseSeeds(answer.text, 'aa');
      if (request.path.endsWith('/fairness/seeds')) return falseSeeds(answer.text, 'bb');
      return answer.text;
    });
    try {
      const file = join(DIR, 'bad-seed.yaml');
      writeFileSync(file, adminFundedTargetText('bad-seed', { casino: proxy.url }, served.casino));
      const out = join(DIR, 'bad-seed');
      const key = await served.fundedKey('20');
      const flags = parseHouseEdgeArgs(
        [
          ...['--target', file, '--key', key, '--games', 'coin_flip'],
          ...['--bets', '40', '--usdc', '1', '--out', out, '--quiet'],
        ],
        () => '9',
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const printed = sink();
      const code = await codeOf(runHouseEdgeLive(flags, printed.io, served.clock), printed.io);
      const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] })
        .findings;
      const grave = findings.filter((finding) => finding.severity !== 'info').map((f) => `${f.severity} ${f.id}`);
      expect(code, printed.text()).toBe(3);
      expect(grave.sort(), printed.text()).toEqual([
        'critical fairness:coin_flip:commitment',
        'critical fairness:coin_flip:result-hash',
        'major fairness:seeds:reveal-differs',
      ]);
      const commitment = findings.find((finding) => finding.id === 'fairness:coin_flip:commitment');
      expect(commitment?.endpoint).toMatch(/^casino\.seeds \(GET \/api\/v1\/fairness\/seeds\)$/);
      expect(commitment?.reproduce).toMatch(/^curl .*\/api\/v1\/fairness\/seeds'/);
      expect(findings.some((finding) => finding.id.startsWith('rule:') || finding.id.startsWith('edge:'))).toBe(false);
      // placed/verified/followed: none verified.
      expect(printed.text()).toMatch(/coin_flip +heads .* 40\/0\/0 /);

      // The fairness audit of the same bets: none verified, no rule finding, the commitment's curl the call that revealed the seed.
      const fairOut = join(DIR, 'bad-seed-fair');
      const fairFlags = parseFairnessArgs(['--target', file, '--key', key, '--out', fairOut], 0);
      if ('errors' in fairFlags) throw new Error(fairFlags.errors.join('; '));
      const fair = sink();
      expect(
        await codeOf(runFairness({ ...fairFlags, quiet: true }, fair.io, served.clock), fair.io),
        fair.text(),
      ).toBe(3);
      const fairFindings = (JSON.parse(readFileSync(join(fairOut, 'findings.json'), 'utf8')) as { findings: Finding[] })
        .findings;
      const fairCommitment = fairFindings.find((finding) => finding.id === 'fairness:coin_flip:commitment');
      expect(fairCommitment?.endpoint, fair.text()).toMatch(
        /^casino\.(rotate|seeds) \((POST|GET) \/api\/v1\/fairness\/(rotate|seeds)\)$/,
      );
      expect(fairCommitment?.reproduce).toMatch(/^curl .*\/api\/v1\/fairness\/(rotate|seeds)'/);
      // (The info rule:<variant>:documents compares the published rule with the documents, not these bets.)
      expect(fairFindings.filter((finding) => finding.id.startsWith('rule:') && finding.severity !== 'info')).toEqual(
        [],
      );
      expect(fair.text()).toMatch(/0 verified under the deployed scheme/);
    } finally {
      await proxy.close();
      await served.close();
    }
  });
});
