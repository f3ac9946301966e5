// The house-edge audit's balance check is as tight as the target's own rounding: a target whose
// balance loses a tenth of a cent a bet that no answer names (a skim, 10% of a minimum stake) is a
// critical money finding, where the old allowance (a cent plus half a cent per bet) passed it. The
// controls are the same stand-in with float-noise money, and with its balance shown rounded to
// 2 dp: neither may draw a money finding. Real loopback listeners: a deployed stand-in (published
// rules, limits lifted, manual clock) behind a proxy that rewrites the balance answer.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { parseMoneyArgs, runMoney } from '../../../src/cli/audit-money.ts';
import { serveDeployedRules } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import { rewritingProxy, type Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { codeOf } from '../../cli/ending-code.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-skim-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly field: string | null;
  readonly evidence: string;
  readonly reproduce: string | null;
}

/** Bets the proxy saw placed: one per single bet, one per element of a batch. */
function placedIn(path: string, text: string): number {
  if (path.endsWith('/bets/batch')) return (text.match(/"bet_id"/g) ?? []).length;
  return /\/games\/[a-z-]+$/.test(path) && text.includes('"bet_id"') ? 1 : 0;
}

/** A rewrite of the balance answer's `balance_usd` by `change(balance, bets placed so far)`. */
function balanceRewrite(change: (balance: number, placed: number) => number): Rewrite {
  let placed = 0;
  return (request, answer) => {
    if (answer.status >= 300) return answer.text;
    placed += placedIn(request.path, answer.text);
    if (!request.path.endsWith('/auth/balance')) return answer.text;
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    return JSON.stringify({ ...body, balance_usd: change(body['balance_usd'] as number, placed) });
  };
}

/** A coin-flip and dice audit of 60 bets (or `afp audit money`) of a stand-in (`rulesText`) behind `rewrite`. */
async function audit(
  rulesText: string,
  rewrite: Rewrite,
  name: string,
  command: 'house-edge' | 'money' = 'house-edge',
): Promise<{ findings: Finding[]; text: string }> {
  const rules = parseDeployedRulesFile(rulesText, `${name}-rules.yaml`);
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value);
  const proxy = await rewritingProxy(served.casino, rewrite);
  try {
    const file = join(DIR, `${name}.yaml`);
    writeFileSync(file, adminFundedTargetText(name, { casino: proxy.url }, served.casino));
    const out = join(DIR, name);
    const printed = sink();
    if (command === 'money') {
      const money = parseMoneyArgs(['--target', file, '--key', await served.fundedKey('20'), '--out', out], 0);
      if ('errors' in money) throw new Error(money.errors.join('; '));
      await codeOf(runMoney({ ...money, quiet: true }, printed.io, served.clock), printed.io);
      return { findings: findingsIn(out), text: printed.text() };
    }
    const flags = parseHouseEdgeArgs(
      [
        ...['--target', file, '--key', await served.fundedKey('20'), '--games', 'coin_flip,dice'],
        ...['--bets', '60', '--usdc', '1', '--out', out, '--quiet'],
      ],
      () => '7',
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    await codeOf(runHouseEdgeLive(flags, printed.io, served.clock), printed.io);
    return { findings: findingsIn(out), text: printed.text() };
  } finally {
    await proxy.close();
    await served.close();
  }
}

const findingsIn = (out: string): Finding[] =>
  (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] }).findings;

const moneyIds = (findings: readonly Finding[]): string[] =>
  findings.filter((finding) => finding.id.startsWith('money:')).map((finding) => `${finding.severity} ${finding.id}`);

describe('the house-edge balance check holds the target to its own rounding', () => {
  test('a balance 0.001 short per bet, no answer naming it: critical balance-delta with its evidence', async () => {
    const skimmed = await audit(
      '{}\n',
      balanceRewrite((balance, placed) => Math.round((balance - 0.001 * placed) * 1e6) / 1e6),
      'skim',
    );
    expect(moneyIds(skimmed.findings), skimmed.text).toContain('critical money:edge-audit:balance-delta');
    const finding = skimmed.findings.find((found) => found.id === 'money:edge-audit:balance-delta');
    expect(finding?.evidence).toMatch(/60 bets, .*the difference is 0\.06 \(0\.001 a bet\)/);
    expect(finding?.reproduce).toMatch(/^curl .*\/api\/v1\/auth\/balance/);
  });

  test('float-noise money, and a balance shown rounded to 2 dp: no money finding', async () => {
    const noisy = await audit(
      'money: { float_noise: true }\n',
      balanceRewrite((balance) => balance),
      'noise',
    );
    expect(moneyIds(noisy.findings), noisy.text).toEqual([]);
    const rounded = await audit(
      'money: { float_noise: true }\n',
      balanceRewrite((balance) => Math.round(balance * 100) / 100),
      'rounded',
    );
    expect(moneyIds(rounded.findings), rounded.text).toEqual([]);
  });

  test('afp audit money: the same skim is a critical balance-delta naming its bets, the balance seen and expected, and the balance GET', async () => {
    const skimmed = await audit(
      '{}\n',
      balanceRewrite((balance, placed) => Math.round((balance - 0.001 * placed) * 1e6) / 1e6),
      'skim-money',
      'money',
    );
    const finding = skimmed.findings.find((found) => found.id === 'money:bet:balance-delta');
    expect(finding?.severity, skimmed.text).toBe('critical');
    expect(finding?.field).toBe('balance');
    expect(finding?.evidence).toMatch(
      /then 10 bets: bet_\S+ \(staked 0\.01, credited [\d.]+\), .*, 0\.01 short of what they give/,
    );
    expect(finding?.reproduce).toMatch(/^curl .*'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/auth\/balance'/);
    expect(finding?.reproduce).toContain('$AFP_KEY');
  });
});
