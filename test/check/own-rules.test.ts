// `afp check --target` judges a value that neither the documents nor the target's dialect give as
// the target's own rule (a minor `rule:` finding, the run holds), not as a broken target, unless the
// value is another state of the same record. Real loopback listeners: a deployed stand-in (manual
// clock) whose escrow service is reached through a proxy that rewrites one field of its answers:
//   - every `"status":"funded"` shown as `"active"`: a name of the target's own → exit 0, minor;
//   - a held escrow read back as `"released"`: the escrow in another state → exit 3, shrunk;
//   - a stand-in whose escrow fee is 5% and whose answers state none: the release measures the fee from
//     the counterparty's balance → exit 0, minor (before, the documents' 1% was assumed: exit 3);
//   - limits a stand-in states in its refusals (an escrow minimum, a batch maximum, a Kelly limit, a
//     per-agent domain maximum): learned or taken as the target's rule → exit 0, minor.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { main as checkEnding } from '../../src/cli/check.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { PUBLISHED_DEPLOYED_RULES } from '../../src/services/casino/deployed/deployed-casino-rules.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { manualServes } from '../fixtures/manual-serves.ts';
import { ESCROW_FEE_UNSTATED, rewritingProxy, type Rewrite } from '../fixtures/rewriting-proxy.ts';
import { DEFAULT_CONFIG } from '../../src/services/shared/config.ts';
import { coded } from '../cli/ending-code.ts';

const main = coded(checkEnding);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const SERVE = {
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '5',
  startMs: Date.parse('2025-01-01T00:00:00.000Z'),
} as const;
const serve = manualServes(SERVE);
/** The stand-in with an escrow minimum of 0.50, above every amount the check draws (0.10 to 0.25). */
const raisedMinimumServe = manualServes({
  ...SERVE,
  config: { ...DEFAULT_CONFIG, escrow: { ...DEFAULT_CONFIG.escrow, minimumMicro: 500_000n } },
});
/** The stand-in whose batches hold at most 2 bets (the check sends up to 4 elements). */
const smallBatchServe = manualServes({
  ...SERVE,
  config: { ...DEFAULT_CONFIG, casino: { ...DEFAULT_CONFIG.casino, batchMax: 2 } },
});
/** The stand-in whose default Kelly risk factor is 0.02, not the documents' 0.25 (its limits bind below a twentieth of the balance). */
const lowKellyServe = manualServes({
  ...SERVE,
  config: { ...DEFAULT_CONFIG, casino: { ...DEFAULT_CONFIG.casino, kellyRiskPercentDefault: 2 } },
});
/** The stand-in with a Kelly risk factor of 1% and a minimum bet of 0.10: its limit (a fifth of 1% of the balance) falls below the minimum. */
const kellyBelowMinimumServe = manualServes({
  ...SERVE,
  config: {
    ...DEFAULT_CONFIG,
    casino: {
      ...DEFAULT_CONFIG.casino,
      kellyRiskPercentDefault: 1,
      deployedRules: { ...PUBLISHED_DEPLOYED_RULES, bets: { minimum: 0.1 } },
    },
  },
});
/** The stand-in with an escrow fee of 5%, not the documents' 1%. */
const fivePercentServe = manualServes({
  ...SERVE,
  config: { ...DEFAULT_CONFIG, escrow: { ...DEFAULT_CONFIG.escrow, feeBps: 500n } },
});

/** The stand-in that lets an agent hold one domain (the check's d0 and d1 keep their names from run to run). */
const oneDomainServe = manualServes({
  ...SERVE,
  config: { ...DEFAULT_CONFIG, domains: { ...DEFAULT_CONFIG.domains, domainsPerAgentMax: 1 } },
});

async function checkThrough(
  rewrite: Rewrite,
  started = serve,
  runs = 8,
  proxied: 'escrow' | 'casino' = 'escrow',
): Promise<{ code: number; text: string }> {
  const handle = await started();
  const casino = handle.urls.casino as string;
  const proxy = await rewritingProxy(handle.urls[proxied] as string, rewrite);
  closers.push(proxy.close);
  const directory = await mkdtemp(join(tmpdir(), 'afp-own-rules-'));
  const file = join(directory, 'target.yaml');
  // The admin funding goes straight to the stand-in's casino; the check's calls to the proxied service through the proxy.
  const services = { casino, escrow: handle.urls.escrow as string, [proxied]: proxy.url };
  await writeFile(file, adminFundedTargetText('own-rules', services, casino));
  let text = '';
  const code = await main(
    ['--target', file, '--seed', '7', '--runs', String(runs), '--max-commands', '30', '--out', directory, '--quiet'],
    { out: (chunk) => void (text += chunk), err: (chunk) => void (text += chunk) },
  );
  return { code, text };
}

describe('a value of the target’s own', () => {
  test('an escrow status no document names is a minor rule finding, and the run holds (exit 0)', async () => {
    const { code, text } = await checkThrough((_request, answer) =>
      answer.text.replaceAll('"status":"funded"', '"status":"active"'),
    );
    expect(code, text).toBe(0);
    expect(text).toMatch(
      /^ {2}minor rule:escrow\.status\.created: the status of a new escrow: 'active', expected 'locked' \(documents\) or 'funded' \(dialect deployed\): a rule of the target's own( \(×\d+\))?$/m,
    );
    expect(text).toMatch(/^ok: 8 runs held/m);
  });

  test('a held escrow read back as released contradicts the run (exit 3)', async () => {
    const { code, text } = await checkThrough((request, answer) =>
      request.method === 'GET' ? answer.text.replaceAll('"status":"funded"', '"status":"released"') : answer.text,
    );
    expect(code, text).toBe(3);
    expect(text).toContain("the status of a new escrow: 'released', expected 'locked' (documents) or 'funded'");
  });

  test('an escrow fee of 5% that no answer states: measured at the release, a minor rule finding, and the run holds (exit 0)', async () => {
    const { code, text } = await checkThrough(ESCROW_FEE_UNSTATED, fivePercentServe, 12);
    expect(code, text).toBe(0);
    expect(text).toMatch(
      /^ {2}minor rule:escrow:fee-unstated: an escrow's creation stated no fee, and its release kept \d+\.\d+ of \d+\.\d+, not the documents' 1% \(\d+\.\d+\)( \(×\d+\))?$/m,
    );
    // Before, the documents' 1% was booked: run 9's balance read differed from the model and the check failed (exit 3).
    expect(text).toMatch(/^ok: 12 runs held/m);
  });

  test('an escrow minimum the target raised (0.50): learned from its refusal, later escrows sent at it, a minor rule finding (exit 0)', async () => {
    const { code, text } = await checkThrough((_request, answer) => answer.text, raisedMinimumServe);
    expect(code, text).toBe(0);
    expect(text).toMatch(
      /^ {2}minor rule:escrow:minimum: an escrow's minimum on the target is 0\.50, not 0\.(10|12|25): later escrows go out at it$/m,
    );
    expect(text).toMatch(/^ok: 8 runs held/m);
  });

  test('a batch maximum the target set (2 bets): learned from its refusal, later batches sent within it, a minor rule finding (exit 0)', async () => {
    // Before, the first batch of 3 or 4 was refused 400 too_many_bets and the run failed (exit 3).
    const { code, text } = await checkThrough((_request, answer) => answer.text, smallBatchServe);
    expect(code, text).toBe(0);
    expect(text).toMatch(
      /^ {2}minor rule:casino:batch-maximum: a batch on the target holds at most 2 bets, not [34]: later batches go out within it$/m,
    );
    expect(text).toMatch(/^ok: 8 runs held/m);
  });

  test('a lower Kelly risk factor (0.02): the limit its refusal states is learned as a share of the balance, later bets stake within it, a minor rule finding (exit 0)', async () => {
    // Before, the first bet of 0.05 on a balance of about 5 was refused 400 kelly_limit_exceeded and the run failed (exit 3).
    const { code, text } = await checkThrough((_request, answer) => answer.text, lowKellyServe);
    expect(code, text).toBe(0);
    expect(text).toMatch(
      /^ {2}minor rule:coin_flip:kelly-limit: coin_flip's Kelly limit on the target is 0\.\d+ on a balance of \d\.\d+ \(1\.0% of it\), where the documents' default risk factor \(0\.25\) allows a twentieth: later bets stake within that share$/m,
    );
    expect(text).toMatch(/^ok: 8 runs held/m);
  });

  test("a Kelly limit stated only inside its refusal's kelly object (max_bet_this_game), or not at all: the target's own rule, minor, the run holds (exit 0)", async () => {
    // DEPLOYED.md §2.4's refusal carries `max_bet` and the bet response's `kelly` object; a prober's
    // honest deployment stated the limit only in `kelly.max_bet_this_game`, with a message holding no
    // number, and the check exited 3 ("refused 400 kelly_limit_exceeded …, expected it accepted").
    const restated =
      (nested: boolean): Rewrite =>
      (_request, answer) => {
        if (!answer.text.includes('"kelly_limit_exceeded"')) return answer.text;
        const { max_bet: maxBet, ...rest } = JSON.parse(answer.text) as Record<string, unknown>;
        const message = 'Bet exceeds the Kelly criterion limit for your bankroll';
        return JSON.stringify({ ...rest, message, ...(nested ? { kelly: { max_bet_this_game: maxBet } } : {}) });
      };
    const nested = await checkThrough(restated(true), lowKellyServe, 8, 'casino');
    expect(nested.code, nested.text).toBe(0);
    expect(nested.text).toMatch(
      /^ {2}minor rule:coin_flip:kelly-limit: coin_flip's Kelly limit on the target is 0\.\d+ on a balance of \d\.\d+ \(1\.0% of it\), where the documents' default risk factor \(0\.25\) allows a twentieth: later bets stake within that share$/m,
    );
    expect(nested.text).toMatch(/^ok: 8 runs held/m);
    const unstated = await checkThrough(restated(false), lowKellyServe, 8, 'casino');
    expect(unstated.code, unstated.text).toBe(0);
    expect(unstated.text).toMatch(
      /^ {2}minor rule:coin_flip:kelly-limit: coin_flip's Kelly limit on the target is below 0\.\d+ \(its refusal, kelly_limit_exceeded, states no limit\) on a balance of \d\.\d+, where the documents' default risk factor \(0\.25\) allows a twentieth: later bets stake within half the stake refused \([\d.]+% of the balance\), halved again at each such refusal$/m,
    );
    expect(unstated.text).toMatch(/^ok: 8 runs held/m);
  });

  test('a Kelly limit below the minimum bet: a minor rule finding saying no bet of the game can be placed, never a failed run (exit 0)', async () => {
    // The target's own rule, kept consistently (docs/check.md: never a failed run); it was major, so
    // exit 3, where the game's minimum had been learned before the Kelly refusal (prober 66d).
    const { code, text } = await checkThrough((_request, answer) => answer.text, kellyBelowMinimumServe);
    expect(text).toMatch(/^ {2}minor rule:(coin_flip|dice):kelly-limit: .*: no bet of it can be placed$/m);
    expect(text).not.toMatch(/^ {2}(major|critical) /m);
    expect(code, text).toBe(0);
  });

  test('a per-agent domain maximum the target states (1): its refusals are its rule, a minor finding, and the run holds (exit 0)', async () => {
    // Before, a gift to d1 holding its one name ("refused 400 domain_limit_reached … expected it
    // accepted") or a race registrant at the cap ("0 of two simultaneous registrations") failed the run.
    const handle = await oneDomainServe();
    const casino = handle.urls.casino as string;
    const services = Object.fromEntries(Object.entries(handle.urls).filter(([name]) => name !== 'api'));
    const directory = await mkdtemp(join(tmpdir(), 'afp-own-rules-'));
    const file = join(directory, 'target.yaml');
    await writeFile(file, adminFundedTargetText('one-domain', services, casino));
    let text = '';
    const code = await main(['--target', file, '--seed', '3', '--runs', '40', '--out', directory, '--quiet'], {
      out: (chunk) => void (text += chunk),
      err: (chunk) => void (text += chunk),
    });
    expect(code, text).toBe(0);
    expect(text).toMatch(
      /^ {2}minor rule:domains:per-agent-maximum: the target lets an agent hold at most 1 domains \(its refusal says so\), where the documents set no such maximum/m,
    );
    expect(text).toMatch(/^ok: 40 runs held/m);
  });
});
