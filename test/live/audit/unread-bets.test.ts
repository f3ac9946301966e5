// The house-edge audit's balance check judges only bets whose outcome it read. A target whose
// video-poker draw answers 200 with a body afp cannot read, or whose batch ran and answered 500,
// has placed (and settled) bets; the balance then moves by amounts no answer states, so the check
// says it is not judged (info) instead of calling the target's money wrong (critical); money's
// bets-balance probe reads the balance again after such a bet and goes on from it. Real
// loopback listeners: a deployed stand-in (published rules, limits lifted, manual clock) behind a
// small proxy that forwards every request and rewrites the answer.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseDeployedRulesFile } from '../../../src/cli/deployed-rules-file.ts';
import { parseHouseEdgeArgs } from '../../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../../src/cli/audit-house-edge-live.ts';
import { parseMoneyArgs, runMoney } from '../../../src/cli/audit-money.ts';
import { main as checkEnding } from '../../../src/cli/check.ts';
import { serveDeployedRules, type RulesServe } from '../../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../../fixtures/deployed-target.ts';
import { rewritingProxy, type Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { sink } from '../../fixtures/audit-sink.ts';
import { coded } from '../../cli/ending-code.ts';
import { codeOf } from '../../cli/ending-code.ts';

const checkMain = coded(checkEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-unread-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
}

/** A deployed stand-in (`rulesText`) whose casino is reached through a proxy rewriting its answers, as a target file; closed after `body`. */
async function throughProxy<T>(
  rulesText: string,
  rewrite: Rewrite,
  name: string,
  body: (file: string, served: RulesServe) => Promise<T>,
): Promise<T> {
  const rules = parseDeployedRulesFile(rulesText, `${name}-rules.yaml`);
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value);
  const proxy = await rewritingProxy(served.casino, rewrite);
  try {
    const file = join(DIR, `${name}.yaml`);
    writeFileSync(file, adminFundedTargetText(name, { casino: proxy.url }, served.casino));
    return await body(file, served);
  } finally {
    await proxy.close();
    await served.close();
  }
}

const findingsOf = (out: string): Finding[] =>
  (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] }).findings;

/** The house-edge audit (coin flip and video poker, 20 bets) of a published-rules stand-in behind `rewrite`. */
function auditThrough(rewrite: Rewrite, name: string): Promise<{ findings: Finding[]; text: string }> {
  return throughProxy('{}\n', rewrite, name, async (file, served) => {
    const out = join(DIR, name);
    const flags = parseHouseEdgeArgs(
      [
        ...['--target', file, '--key', await served.fundedKey('20'), '--games', 'coin_flip,video_poker'],
        ...['--bets', '20', '--usdc', '1', '--out', out, '--quiet'],
      ],
      () => '5',
    );
    if ('errors' in flags) throw new Error(flags.errors.join('; '));
    const printed = sink();
    await codeOf(runHouseEdgeLive(flags, printed.io, served.clock), printed.io);
    return { findings: findingsOf(out), text: printed.text() };
  });
}

function expectNotJudged({ findings, text }: { findings: Finding[]; text: string }): void {
  const ids = findings.map((finding) => finding.id);
  expect(ids, text).toContain('money:edge-audit:balance-delta-not-judged');
  expect(ids, text).not.toContain('money:edge-audit:balance-delta');
  expect(findings.find((finding) => finding.id === 'money:edge-audit:balance-delta-not-judged')?.severity).toBe('info');
}

describe('bets whose outcome afp did not read', () => {
  test('a draw answered with a body afp cannot read: the balance check is not judged (info), never a critical', async () => {
    // The draw is sent on and placed; its answer replaced by one afp cannot read.
    const audited = await auditThrough(
      (request, answer) =>
        request.path.endsWith('/games/video-poker/draw') && answer.status < 300 ? '{"ok":true}' : answer.text,
      'unread-draws',
    );
    expectNotJudged(audited);
    // The coin flips it did read were verified as usual.
    expect(audited.text).toMatch(/coin_flip +heads/);
  });

  test('a batch run and answered 500: its bets’ outcomes unknown, the balance check is not judged', async () => {
    let batches = 0;
    const audited = await auditThrough((request, answer) => {
      if (!request.path.endsWith('/bets/batch') || answer.status >= 300) return answer.text;
      batches += 1;
      return batches === 1 ? { status: 500, text: '{"error":"internal_error","message":"boom"}' } : answer.text;
    }, 'server-errors');
    expect(batches).toBeGreaterThan(0);
    expectNotJudged(audited);
  });

  test('money’s bets-balance probe: bets answered 500 after they ran; the model starts again from the balance, no money finding', async () => {
    let flips = 0;
    const answered: Rewrite = (request, answer) => {
      if (!request.path.endsWith('/games/coin-flip') || answer.status >= 300) return answer.text;
      flips += 1;
      return flips % 3 === 0 ? { status: 500, text: '{"error":"internal_error","message":"boom"}' } : answer.text;
    };
    await throughProxy('{}\n', answered, 'money-errors', async (file, served) => {
      const out = join(DIR, 'money-errors');
      const flags = parseMoneyArgs(['--target', file, '--key', await served.fundedKey('20'), '--out', out], 0);
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const printed = sink();
      expect(
        await codeOf(runMoney({ ...flags, quiet: true }, printed.io, served.clock), printed.io),
        printed.text(),
      ).toBe(0);
      expect(flips).toBeGreaterThanOrEqual(3);
      expect(printed.text()).toMatch(
        /ran {5}bets-balance: \d+ bets of 0\.01, .*\(balance read again after \d+ bets whose effect no answer stated\)/,
      );
      expect(
        findingsOf(out)
          .map((finding) => finding.id)
          .filter((id) => id.startsWith('money:bet:')),
      ).toEqual([]);
    });
  });

  test('no payout_multiplier beside a rounded amount_won: the credit is known to its rounding, a minor shape finding, no money finding', async () => {
    const strip: Rewrite = (_request, answer) => answer.text.replace(/"payout_multiplier":[-\d.e+]+,/g, '');
    const audited = await auditThrough(strip, 'no-multiplier');
    // The wire finding says the field is missing (major: the edge then rests on rounded credits); no money finding.
    const money = audited.findings.filter((finding) => finding.id.startsWith('money:'));
    expect(money, audited.text).toEqual([]);
    expect(audited.findings).toContainEqual(
      expect.objectContaining({ id: 'shape:casino.batch:missing:results[].payout_multiplier', severity: 'major' }),
    );
    expect(audited.findings).toContainEqual(
      expect.objectContaining({ id: 'shape:coin_flip:credit-unstated', severity: 'minor' }),
    );
    expect(audited.findings.map((finding) => finding.id)).not.toContain('money:edge-audit:balance-delta');

    await throughProxy('money: { float_noise: true }\n', strip, 'no-multiplier-check', async (file, served) => {
      // --fail-on critical: the wire's major finding (the missing field) aside, the runs hold.
      const argv = ['--target', file, '--seed', '3', '--runs', '10', '--max-commands', '30', '--fail-on', 'critical'];
      const checked = sink();
      expect(await checkMain([...argv, '--quiet'], checked.io), checked.text()).toBe(0);
      expect(checked.text()).toMatch(/^ok: 10 runs held/m);
      const flags = parseMoneyArgs(
        ['--target', file, '--key', await served.fundedKey('20'), '--out', join(DIR, 'nm'), '--fail-on', 'critical'],
        0,
      );
      if ('errors' in flags) throw new Error(flags.errors.join('; '));
      const money = sink();
      expect(await codeOf(runMoney({ ...flags, quiet: true }, money.io, served.clock), money.io), money.text()).toBe(0);
      expect(money.text()).toMatch(/minor shape:bet:credit-unstated/);
      expect(money.text()).not.toMatch(/ money:bet:/);
    });
  });
});
