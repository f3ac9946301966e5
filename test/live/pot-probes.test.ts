// The pot probes of `afp audit money` (src/audit/probes/pot-probes.ts) through the command a user
// runs, against real loopback serves: a tournament's prize pool must come from its creator, and a
// challenge must cost the two agents exactly the cut the target states. The deployed stand-in
// with the real casino's two defects (spec/NOTES.md: the pool minted, a losing challenger charged
// twice) is found out, critically, with evidence and a curl; the same stand-in without them, and
// the documents' style A, pass both probes with no finding (no false alarm). Where the accept states
// no cut (dropped on the wire by a proxy), the cut is measured: a 20% cut is the target's own rule
// (minor), and the double charge, a loss that differs with the winner, is still found (major).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { deployedLayout } from '../../src/server/deployed-layout.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { auditedServes, moneyAudit, type AuditedFinding, type MoneyAudit } from '../fixtures/money-audit.ts';
import { rewritingProxy, withoutFields } from '../fixtures/rewriting-proxy.ts';

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
const unstatedServes = {
  /** A house cut of 20% of the pot, not the documents' 2%. */
  'twenty-percent': manualServes({
    ...DEPLOYED,
    config: { ...DEFAULT_CONFIG, casino: { ...DEFAULT_CONFIG.casino, challengeCutBps: 2_000n } },
  }),
  'charged-twice': manualServes({ ...DEPLOYED, defects: ['challenge-loser-charged-twice'] }),
};
const proxies: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of proxies.splice(0)) await close();
});

/** `serve`'s casino behind a proxy that drops the accept's `house_cut` and `payout_to_winner`, audited through a target file. */
async function auditUnstatedCut(serve: keyof typeof unstatedServes): Promise<MoneyAudit> {
  const handle = await unstatedServes[serve]();
  const casino = handle.urls.casino as string;
  const proxy = await rewritingProxy(casino, withoutFields('house_cut', 'payout_to_winner'));
  proxies.push(proxy.close);
  const file = join(DIR, `unstated-${serve}.yaml`);
  writeFileSync(file, adminFundedTargetText(`unstated-${serve}`, { casino: proxy.url }, casino));
  return moneyAudit(file, join(DIR, `unstated-${serve}`), START_MS, casino);
}

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

  test('a cut no answer states: 20% of the pot is measured as the target’s own (minor), not money gone (before: major against the documents’ 2%)', async () => {
    const ran = await auditUnstatedCut('twenty-percent');
    expect(ran.code, ran.text).toBe(0);
    const found = potFindings(ran.findings);
    expect(found.map((finding) => [finding.id, finding.severity])).toEqual([['rule:challenge:house-cut', 'minor']]);
    expect(found[0]?.title).toContain(
      "stated by no answer, measured at 0.02 (the pair's loss, the same whoever won): above the documents' 2% (0.002)",
    );
    expect(found[0]?.evidence).toMatch(/won by the (challenger and the challenged|challenged and the challenger)/);
  });

  test('a cut no answer states and a losing challenger charged twice: the loss differs with the winner (major)', async () => {
    const ran = await auditUnstatedCut('charged-twice');
    const found = potFindings(ran.findings);
    expect(found.map((finding) => [finding.id, finding.severity])).toEqual([['money:challenge:settlement', 'major']]);
    expect(found[0]?.title).toMatch(
      /cost the two agents 0\.002 when the challenger won and 0\.052 when the challenged won: no house cut is the same loss whoever wins/,
    );
  });
});
