// The pot probes of `afp audit money` (src/live/audit/pot-probes.ts) through the command a user
// runs, against real loopback serves: a tournament's prize pool must come from its creator, and a
// challenge must cost the two agents exactly the cut the target states. The deployed stand-in
// with the real casino's two defects (spec/NOTES.md: the pool minted, a losing challenger charged
// twice) is found out, critically, with evidence and a curl; the same stand-in without them, and
// the documents' style A, pass both probes with no finding (no false alarm).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { deployedLayout } from '../../src/server/deployed-layout.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { auditedServes, type AuditedFinding } from '../fixtures/money-audit.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const DIR = mkdtempSync(join(tmpdir(), 'afp-pots-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));
const SERVE = { trustedProxies: LOOPBACK_PROXIES, seed: '8', startMs: START_MS } as const;
const DEPLOYED = {
  ...SERVE,
  routes: DEPLOYED_ROUTES,
  layout: deployedLayout({ floatMoney: true, limitsLifted: true }),
};
const POT_DEFECTS: readonly DefectName[] = ['tournament-pool-minted', 'challenge-loser-charged-twice'];
const { audit } = auditedServes({ base: SERVE, deployed: DEPLOYED, defects: POT_DEFECTS, dir: DIR });

type Finding = AuditedFinding;

const potFindings = (findings: readonly Finding[]): Finding[] =>
  findings.filter((finding) => /^(money|rule):(tournament|challenge):/.test(finding.id));

describe('afp audit money: the pot probes', () => {
  test('the deployed stand-in with the real casino’s pot defects: the minted pool and the double charge, critical', async () => {
    const ran = await audit('defects');
    expect(ran.code, ran.text).toBe(3);
    const found = potFindings(ran.findings);
    expect(found.map((finding) => [finding.id, finding.severity, finding.kind]).sort()).toEqual([
      ['money:challenge:settlement', 'critical', 'money'],
      ['money:tournament:pool-minted', 'critical', 'money'],
    ]);
    const pool = found.find((finding) => finding.id === 'money:tournament:pool-minted') as Finding;
    expect(pool.title).toContain('prize pool of 0.10 was not taken from its creator');
    expect(pool.reproduce).toMatch(/^curl .*\/api\/v1\/tournaments\/create/);
    const challenge = found.find((finding) => finding.id === 'money:challenge:settlement') as Finding;
    // The challenger lost and paid its stake again: 0.05 beyond the stated 2% cut of the 0.10 pot.
    expect(challenge.title).toContain(
      'where the target states a house cut of 0.002: 0.05 went nowhere the target names',
    );
    expect(challenge.reproduce).toMatch(/\/api\/v1\/challenges' .*&& curl .*\/accept/s);
    expect(ran.text).toMatch(/^ran {5}tournament-pool: /m);
    expect(ran.text).toMatch(/^ran {5}challenge-settlement: /m);
  });

  test('the deployed stand-in (float money) and the documents’ style A without defects: both probes run, no finding', async () => {
    for (const serve of ['deployed', 'documents'] as const) {
      const ran = await audit(serve);
      expect(ran.code, ran.text).toBe(0);
      expect(potFindings(ran.findings)).toEqual([]);
      expect(ran.text).toMatch(/^ran {5}tournament-pool: tournament \S+ with a pool of 0\.10: the creator's balance /m);
      expect(ran.text).toMatch(
        /^ran {5}challenge-settlement: \d challenge\(s\) of 0\.05 accepted: .*the stated cuts 0\.002/m,
      );
    }
  });
});
