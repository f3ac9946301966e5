// The real command line on float money (issue 40 part 1): `afp serve --dialect deployed
// --float-money --clock manual` as a child process writes balances as the deployment's doubles
// (with their noise) and amount_won / new_balance to 2 dp; `afp audit fairness --target URL` and
// `afp check --target URL`, child processes too, read them and exit 0 — they exited 1 before (the
// balance "is not an amount"). `--float-money` without `--dialect deployed` is invalid input (2).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCliChild } from '../fixtures/cli-child.ts';
import { TRUST_LOOPBACK_ARGS } from '../fixtures/serve-child.ts';

/** The deployed stand-in with float money, reading the X-Forwarded-For of the audits and checks. */
const FLOAT_SERVE = ['serve', ...TRUST_LOOPBACK_ARGS, '--dialect', 'deployed', '--float-money'];

const DIR = mkdtempSync(join(tmpdir(), 'afp-float-cli-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const post = async (url: string, body: unknown, key?: string): Promise<Record<string, unknown>> =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
      body: JSON.stringify(body),
    })
  ).json()) as Record<string, unknown>;

describe('afp serve --dialect deployed --float-money and the live commands, all on the command line', () => {
  test("audit fairness and check --target exit 0 on the deployment's doubles", async () => {
    const served = await runCliChild([...FLOAT_SERVE, '--port', '0', '--clock', 'manual', '--seed', '4'], {
      timeoutMs: 110_000,
      onReady: async (stdout, stop) => {
        try {
          const casino = /^casino: (\S+)$/m.exec(stdout)?.[1] ?? '';
          const registered = await post(`${casino}/api/v1/auth/register`, {});
          const key = registered['api_key'] as string;
          const deposit = await post(`${casino}/_afp/casino/deposit`, {
            agent_id: registered['agent_id'],
            chain: 'solana',
            amount: '20',
          });
          await post(`${casino}/_afp/clock`, { to_ms: deposit['confirm_at_ms'] });
          const bets = [
            { game: 'keno', amount: 0.01, picks: [1, 21, 41] },
            { game: 'coin_flip', amount: 0.07 },
            { game: 'dice', amount: 0.13 },
            { game: 'plinko', amount: 0.03 },
          ];
          // Batches until the balance shows the deployment's float noise (more decimals than any micro amount has); at most 8.
          let rounds = 0;
          let noisy = false;
          while (!noisy && rounds < 8) {
            rounds += 1;
            const batch = await post(
              `${casino}/api/v1/bets/batch`,
              { bets: bets.map((bet) => ({ ...bet, client_seed: `r${rounds}` })) },
              key,
            );
            expect(batch['summary']).toMatchObject({ errors: 0 });
            const balance = (await (
              await fetch(`${casino}/api/v1/auth/balance`, { headers: { authorization: `Bearer ${key}` } })
            ).json()) as Record<string, unknown>;
            noisy = /\.\d{7,}$/.test(String(balance['balance_usd']));
          }
          expect(noisy).toBe(true);
          const fairness = await runCliChild(
            ['audit', 'fairness', '--target', casino, '--key', key, '--out', join(DIR, 'fairness'), '--quiet'],
            { timeoutMs: 60_000 },
          );
          expect(fairness.code, fairness.stdout + fairness.stderr).toBe(0);
          expect(fairness.stdout).toContain(`${4 * rounds} audited, ${4 * rounds} verified`);
          expect(fairness.stdout + fairness.stderr).not.toContain('is not an amount');
          // The account's balance as the target wrote it, digit for digit (not afp's micro rounding of it).
          expect(fairness.stdout).toMatch(/balance \d+\.\d{7,} USDC\)/);
          const check = await runCliChild(['check', '--target', casino, '--runs', '3', '--seed', '3', '--quiet'], {
            timeoutMs: 60_000,
          });
          expect(check.code, check.stdout + check.stderr).toBe(0);
          expect(check.stdout).toContain('ok: 3 runs held');
        } finally {
          stop();
        }
      },
    });
    expect(served.code, served.stderr).toBe(0);
  });

  test('--float-money needs --dialect deployed (exit 2)', async () => {
    const ran = await runCliChild(['serve', '--float-money', '--port', '0']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--float-money needs --dialect deployed');
  });
});
