// A target whose minimum bet is 0.05 and whose refusal, named `minimum_bet` as DEPLOYED.md §2.4
// names it, states the minimum in its own words (a prober's proxy: "Bets below 0.05 USDC are not
// accepted" with `minimum_amount: 0.05`, or no amount at all). `afp check --target` read only the
// documents' `min_bet` and two sentences, so it called the refusal a model mismatch and exited 3
// on a working target; its minor finding's `expected` also named the stake it happened to send as
// "the documents' minimum". Now the refusal is the target's own minimum either way (a minor rule
// finding, expected the documents' 0.01, seen the stake refused), and a target refusing a bet at
// or above the minimum its own answers show is still a failure.
// Real loopback listeners: the in-process deployed stand-in (bets.minimum 0.05, float money),
// behind a rewriting proxy.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main as checkEnding } from '../../src/cli/check.ts';
import { parseDeployedRulesFile } from '../../src/cli/deployed-rules-file.ts';
import { formatDecimal } from '../../src/core/money.ts';
import {
  deployedMinimumMicro,
  PUBLISHED_DEPLOYED_RULES,
} from '../../src/services/casino/deployed/deployed-casino-rules.ts';
import { serveDeployedRules } from '../fixtures/deployed-rules-serve.ts';
import { adminFundedTargetText } from '../fixtures/deployed-target.ts';
import { rewritingProxy, type Rewrite } from '../fixtures/rewriting-proxy.ts';
import { coded } from '../cli/ending-code.ts';

const checkMain = coded(checkEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-minimum-wording-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly expected: unknown;
  readonly seen: { readonly refused: string; readonly answer: Record<string, unknown> };
  readonly evidence: string;
  readonly endpoint?: string;
  readonly field?: string;
  readonly reproduce?: string;
}

const DOCUMENTS_MINIMUM = formatDecimal(deployedMinimumMicro(PUBLISHED_DEPLOYED_RULES));
const BETS = /^\/api\/v1\/(?:games\/|bets\/batch)/;

type Refusal = Record<string, unknown>;

/** Every `minimum_bet` refusal of a bet or a batch element, rewritten by `edit` (the rest as it came). */
function minimumRefusals(edit: (refusal: Refusal) => Refusal): Rewrite {
  return (request, answer) => {
    if (request.method !== 'POST' || !BETS.test(request.path)) return answer.text;
    const body = JSON.parse(answer.text) as Refusal & { results?: Refusal[] };
    const fix = (one: Refusal): Refusal => (one['error'] === 'minimum_bet' ? edit(one) : one);
    const results = Array.isArray(body.results) ? { results: body.results.map(fix) } : {};
    return JSON.stringify({ ...fix(body), ...results });
  };
}

/** `afp check --target` through `rewrite` in front of a stand-in whose minimum bet is 0.05. */
async function checkThrough(
  name: string,
  rewrite: Rewrite,
): Promise<{ code: number; text: string; findings: Finding[] }> {
  const rules = parseDeployedRulesFile('bets: { minimum: 0.05 }\nmoney: { float_noise: true }\n', 'min.yaml');
  if (!rules.ok) throw new Error(rules.message);
  const served = await serveDeployedRules(rules.value);
  const proxy = await rewritingProxy(served.casino, rewrite);
  try {
    const out = join(DIR, name);
    const file = join(DIR, `${name}.yaml`);
    // The casino through the proxy; the admin doors (deposits, the clock) at the serve itself.
    writeFileSync(file, adminFundedTargetText(name, { casino: proxy.url }, served.casino));
    let text = '';
    const code = await checkMain(
      ['--target', file, '--seed', '9', '--runs', '12', '--max-commands', '20', '--quiet', '--out', out],
      { out: (line) => void (text += line), err: (line) => void (text += line) },
    );
    const findings =
      code === 0 || code === 3
        ? (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] }).findings
        : [];
    return { code, text, findings };
  } finally {
    await proxy.close();
    await served.close();
  }
}

const minimumFinding = (findings: readonly Finding[]): Finding | undefined =>
  findings.find((finding) => finding.id === 'rule:coin_flip:minimum-bet');

describe('afp check: a minimum_bet refusal in the target’s own words', () => {
  test('"Bets below 0.05 USDC are not accepted" with minimum_amount: learned, a minor rule finding, exit 0', async () => {
    const run = await checkThrough(
      'worded',
      minimumRefusals(() => ({
        error: 'minimum_bet',
        message: 'Bets below 0.05 USDC are not accepted',
        minimum_amount: 0.05,
      })),
    );
    expect(run.code, run.text).toBe(0);
    const finding = minimumFinding(run.findings);
    expect(finding?.severity, run.text).toBe('minor');
    expect(finding?.title).toContain(`is 0.05, not ${DOCUMENTS_MINIMUM}`);
    expect(finding?.expected).toBe(`${DOCUMENTS_MINIMUM} (the documents' minimum bet)`);
    // Seen: the stake refused (one the check sent below 0.05) and the target's refusal as it came.
    expect(['0.01', '0.02']).toContain(finding?.seen.refused);
    expect(finding?.seen.answer).toMatchObject({ error: 'minimum_bet', minimum_amount: 0.05 });
    expect(finding?.evidence).toContain('Bets below 0.05 USDC are not accepted');
    expect([finding?.endpoint, finding?.field]).toEqual(['casino.bet', 'amount']);
    expect(finding?.reproduce).toMatch(/^curl .*\/api\/v1\/(games|bets)/);
    expect(run.text).toMatch(/^ok: 12 runs held/m);
  });

  test('a minimum_bet refusal stating no amount at all: a minor rule finding, never a failure', async () => {
    const run = await checkThrough(
      'unstated',
      minimumRefusals(() => ({ error: 'minimum_bet', message: 'Bet refused: below the minimum' })),
    );
    expect(run.code, run.text).toBe(0);
    const finding = minimumFinding(run.findings);
    expect(finding?.severity, run.text).toBe('minor');
    expect(finding?.title).toMatch(
      new RegExp(
        `is above 0\\.0\\d \\(its refusal, minimum_bet, states no amount\\), where the documents' is ${DOCUMENTS_MINIMUM}`,
      ),
    );
    expect(finding?.expected).toBe(`${DOCUMENTS_MINIMUM} (the documents' minimum bet)`);
    expect(finding?.seen.answer).toEqual({ error: 'minimum_bet', message: 'Bet refused: below the minimum' });
    expect(finding?.reproduce).toMatch(/^curl /);
  });

  test('a target refusing a bet at the minimum it states, as minimum_bet: still a failure (exit 3)', async () => {
    // Every placed single bet is answered as refused below 0.05, though only bets of 0.05 or more
    // are placed: the refusal states a minimum not above the stake, which no rule explains.
    const run = await checkThrough('defect', (request, answer) =>
      request.method === 'POST' && request.path.startsWith('/api/v1/games/') && answer.status === 200
        ? {
            status: 400,
            text: JSON.stringify({
              error: 'minimum_bet',
              message: 'Bets below 0.05 USDC are not accepted',
              minimum_amount: 0.05,
            }),
          }
        : answer.text,
    );
    expect(run.code, run.text).toBe(3);
    expect(run.text).toMatch(
      /refused 400 minimum_bet \(Bets below 0\.05 USDC are not accepted\), expected it accepted/,
    );
  });

  test('a target refusing, with no amount, a stake it placed before: still a failure (exit 3)', async () => {
    // Batches are placed as they come; a single coin flip is refused as below the minimum, no amount
    // stated, at any stake: once a batch placed a coin flip at a stake, the refusal contradicts it.
    const run = await checkThrough('placed-then-unstated', (request, answer) =>
      request.method === 'POST' && request.path.startsWith('/api/v1/games/coin') && answer.status === 200
        ? { status: 400, text: JSON.stringify({ error: 'minimum_bet', message: 'Bet refused: below the minimum' }) }
        : answer.text,
    );
    expect(run.code, run.text).toBe(3);
    expect(run.text).toMatch(/refused 400 minimum_bet \(Bet refused: below the minimum\), expected it accepted/);
  });
});
