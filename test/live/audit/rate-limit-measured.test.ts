// A target whose rate limit is stricter than its target file claims: the session waits its 429s
// out as before, and the audit now says so, a minor `limit:<op>:rate-limited` finding with the
// 429's body, the calls sent in the minute before it and the curl of the refused request, and a
// summary line (the old audit absorbed them silently: planned for 9 s, it took 90 s). Real
// loopback listeners: a deployed stand-in (published rules, manual clock) behind a proxy that
// answers the first two seed-list reads with 429 (a read: the stand-in's answer it replaces moved
// nothing, as a real target's refused call moves nothing).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import { rewritingProxy } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../../src/services/casino/deployed/deployed-casino-rules.ts';
import { codeOf } from '../../cli/ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-rate-limit-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly kind: string;
  readonly evidence: string;
  readonly reproduce: string | null;
}

const REFUSAL = JSON.stringify({ error: 'rate_limit_exceeded', message: 'Max 4 game requests/min' });

describe('a rate limit stricter than the target file claims', () => {
  test('the 429s are waited out and reported: a minor limit finding with the body and a curl, and a summary line', async () => {
    const served = await serveDeployedRules(PUBLISHED_DEPLOYED_RULES);
    let reads = 0;
    const proxy = await rewritingProxy(served.casino, (request, answer) => {
      if (!request.path.endsWith('/fairness/seeds')) return answer.text;
      reads += 1;
      return reads <= 2 ? { status: 429, text: REFUSAL } : answer.text;
    });
    try {
      const file = join(DIR, 'strict.yaml');
      writeFileSync(
        file,
        `${adminFundedTargetText('strict', { casino: proxy.url }, served.casino)}limits:\n  casino.batch: { per_minute: 120 }\n  casino.bet: { per_minute: 600 }\n  casino.seeds: { per_minute: 60 }\n`,
      );
      const out = join(DIR, 'strict');
      const flags = parseHouseEdgeArgs(
        [
          ...['--target', file, '--key', await served.fundedKey('20'), '--games', 'coin_flip'],
          ...['--bets', '200', '--usdc', '2', '--out', out, '--concurrency', '1'],
        ],
        () => '11',
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const printed = sink();
      await codeOf(runHouseEdgeLive(flags, printed.io, served.clock), printed.io);
      const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] })
        .findings;
      const limited = findings.filter((finding) => finding.id.endsWith(':rate-limited'));
      expect(
        limited.map((finding) => `${finding.severity} ${finding.kind} ${finding.id}`),
        printed.text(),
      ).toEqual(['minor limit limit:casino.seeds:rate-limited']);
      expect(limited[0]?.evidence).toContain('Max 4 game requests/min');
      expect(limited[0]?.evidence).toMatch(/2 refusals with 429 waited out/);
      // The refused reads moved nothing: the money still balances.
      expect(findings.filter((finding) => finding.id.startsWith('money:'))).toEqual([]);
      expect(limited[0]?.reproduce).toMatch(/^curl .*\/api\/v1\/fairness\/seeds'/);
      expect(printed.text()).toMatch(
        /rate limited: casino\.seeds: 2 refusals with 429 waited out \(\d+ s of waiting in all\); the target file claims 60\/min/,
      );
    } finally {
      await proxy.close();
      await served.close();
    }
  });
});
