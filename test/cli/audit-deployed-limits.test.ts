// Issue 68 part 6, live: `afp audit house-edge` through the shipped targets/deployed.yaml against
// `afp serve --dialect deployed` with the deployment's limits kept (not lifted): real listeners on
// loopback, a manual clock the audit's waits move. Users saw 15–19 minor "stricter limit" findings
// per casino for casino.bet and casino.deal: the deployment counts single games, the video-poker
// deal and its draw in one `games` bucket of 60 a minute, and afp paced each at 60 a minute on its
// own, so it sent up to 180 a minute into that bucket and read the 429s it caused as the target's.
// Here video poker: each hand a deal and then its draw, both in the bucket. Paced as one bucket,
// afp sends 60 a minute, meets no 429 and reports no limit finding; paced apart (the shipped file
// without `bucket: games`), the same audit meets 429s after 30 s and reported a minor
// limit:casino.deal:rate-limited. One hand at a time: the serve's manual clock is moved by each
// wait in turn (concurrent waits each move it by their own length, remote-serve-clock.ts, which
// spreads concurrent single bets far apart in the serve's time and would hide any pace).
// And the finding's other side: a file claiming 120 a minute for the bucket, paced at it, meets the
// stand-in's 60: a stricter limit measured (60 calls of the bucket in the minute), minor.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { drawSeed, parseHouseEdgeArgs } from '../../src/cli/audit-house-edge.ts';
import { runHouseEdgeLive } from '../../src/cli/audit-house-edge-live.ts';
import { DEPLOYED_ROUTES } from '../../src/http/routes/deployed/index.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { DEPLOYED_LAYOUT } from '../../src/server/deployed-layout.ts';
import { sink } from '../fixtures/audit-sink.ts';
import { deployedTargetText } from '../fixtures/deployed-target.ts';
import { manualServes, movingClock } from '../fixtures/manual-serves.ts';
import { codeOf } from './ending-code.ts';

const START_MS = Date.parse('2025-03-01T00:00:00Z');
const DIR = mkdtempSync(join(tmpdir(), 'afp-deployed-limits-'));
const serve = manualServes({
  trustedProxies: LOOPBACK_PROXIES,
  routes: DEPLOYED_ROUTES,
  layout: DEPLOYED_LAYOUT,
  seed: '68',
  startMs: START_MS,
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

interface Finding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly evidence: string;
}

const post = async (url: string, body: unknown): Promise<Record<string, unknown>> =>
  (await (
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  ).json()) as Record<string, unknown>;

/** A registered agent with `usdc` credited by an admin deposit, as a user brings a pre-funded key. */
async function fundedKey(casino: string, usdc: string): Promise<string> {
  const registered = await post(`${casino}/api/v1/auth/register`, { agent_name: 'limits' });
  const deposit = await post(`${casino}/_afp/casino/deposit`, {
    agent_id: registered['agent_id'],
    chain: 'solana',
    amount: usdc,
  });
  await post(`${casino}/_afp/clock`, { to_ms: deposit['confirm_at_ms'] });
  return registered['api_key'] as string;
}

interface Ran {
  readonly text: string;
  readonly findings: readonly Finding[];
  /** How far the serve's clock moved while the audit ran. */
  readonly servedMs: number;
}

/** 80 video-poker hands through the shipped targets/deployed.yaml, its text changed by `edit`. */
async function videoPoker(name: string, edit: (text: string) => string = (text) => text): Promise<Ran> {
  const handle = await serve();
  const casino = handle.urls.casino as string;
  const file = join(DIR, `${name}.yaml`);
  writeFileSync(file, edit(deployedTargetText(handle.urls)));
  const out = join(DIR, name);
  const key = await fundedKey(casino, '20');
  const flags = parseHouseEdgeArgs(
    [
      ...['--target', file, '--key', key, '--games', 'video_poker', '--bets', '80'],
      ...['--seed', '6', '--usdc', '5', '--max-minutes', '10', '--out', out],
    ],
    drawSeed,
  );
  if ('errors' in flags) throw new Error(flags.errors.join('; '));
  const printed = sink();
  const startedMs = handle.clock.nowMs();
  const code = await codeOf(
    runHouseEdgeLive({ ...flags, quiet: true }, printed.io, movingClock(casino, startedMs)),
    printed.io,
  );
  const text = printed.text();
  expect([0, 3], text).toContain(code);
  expect(text).toContain('bets: 80 placed, 80 verified, 0 refused');
  const findings = (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { findings: Finding[] }).findings;
  return { text, findings, servedMs: handle.clock.nowMs() - startedMs };
}

describe('afp audit house-edge on the deployed stand-in, its limits kept', () => {
  test('video poker deals and draws share the games bucket: paced as one, no 429 met there, no limit finding', async () => {
    const { text, findings, servedMs } = await videoPoker('kept');
    const limited = findings.filter((finding) => /^limit:casino\.(bet|deal|draw):rate-limited$/.test(finding.id));
    // Paced as one bucket, afp never sends more than the bucket's 60 a minute: the target refuses none of them.
    expect(
      limited.map((finding) => `${finding.severity} ${finding.id}: ${finding.evidence}`),
      text,
    ).toStrictEqual([]);
    expect(findings.filter((finding) => finding.id.startsWith('limit:') && finding.severity !== 'info')).toEqual([]);
    // 80 hands, a deal and a draw each: 160 calls in the bucket at 60 a minute take 159 paced
    // seconds of the serve's clock at least (paced apart, deal and draw at 60 a minute each, 80 s).
    expect(text).toMatch(/^plan: 80 casino\.deal, 80 casino\.draw, /m);
    expect(servedMs).toBeGreaterThanOrEqual(159 * 1_001);
  });

  test('a file claiming 120 a minute for the bucket: the target refuses at 60 in the minute, a measured stricter limit, minor, with the clock and counts', async () => {
    const { text, findings } = await videoPoker('claims-120', (shipped) =>
      shipped.replaceAll('{ per_minute: 60, bucket: games }', '{ per_minute: 120, bucket: games }'),
    );
    const limited = findings.filter((finding) => /^limit:casino\.(deal|draw):rate-limited$/.test(finding.id));
    expect(limited.length, text).toBeGreaterThan(0);
    for (const finding of limited) {
      expect(finding.severity).toBe('minor');
      expect(finding.title).toMatch(
        /^casino\.(deal|draw): the target's rate limit is stricter than the target file's 120\/min \(60 calls of bucket games /,
      );
      expect(finding.evidence).toMatch(
        /Max 60 game requests\/min.*; first 429 at \S+Z on the session's clock; from \S+Z \(the documented 60 s before the refused call was sent\) to the 429 afp had sent 30 calls of casino\.(deal|draw), 60 of bucket games \(casino\.bet, casino\.deal, casino\.draw\), \d+ to the target in all \(the refused call not counted\); documented limit 120 per 60 s for bucket games; \d+ refusals? with 429 waited out/,
      );
    }
    expect(text).toMatch(
      /^rate limited: casino\.(deal|draw): .*; the target file claims 120\/min for bucket games \(limit:casino\.(deal|draw):rate-limited\)$/m,
    );
  });
});
