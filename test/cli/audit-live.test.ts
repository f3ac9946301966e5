// `afp audit house-edge --target` and `afp audit fairness --target --key` against a real
// `afp serve` (in-process listeners on loopback, ephemeral ports, manual clock): against the
// faithful casino the house-edge audit covers all 17 games and reports no finding at or above
// major (only the documents' own contradictions, as info), and fairness verifies every bet of a
// history played in three styles (style B's history, style A's audit trails); each deliberate
// casino defect is caught — payout-short (every win paid 1% short), biased-draw (the worse of two
// draws), replayable-nonce (a (seed, nonce) pair drawn again) and keno-8 (keno draws 8 numbers) —
// with exit 3 and the finding that names it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { AfpClient } from '../../src/client/client.ts';
import { httpTransport } from '../../src/client/http-transport.ts';
import { main as auditEnding } from '../../src/cli/audit.ts';
import type { AuditIo } from '../../src/cli/audit-io.ts';
import { ALL_ROUTES } from '../../src/http/routes/index.ts';
import { startServe, type ServeHandle } from '../../src/server/listeners.ts';
import { GAME_IDS } from '../../src/services/casino/games/game.ts';
import type { DefectName } from '../../src/services/shared/context.ts';
import { START_MS } from '../client/fixtures.ts';
import { LOOPBACK_PROXIES } from '../../src/http/trusted-proxies.ts';
import { coded } from './ending-code.ts';

const main = coded(auditEnding);

const DIR = mkdtempSync(join(tmpdir(), 'afp-audit-live-'));
const handles: ServeHandle[] = [];
afterEach(async () => {
  for (const handle of handles.splice(0)) await handle.close();
});
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function serve(defects: readonly DefectName[] = []): Promise<ServeHandle> {
  const handle = await startServe({
    trustedProxies: LOOPBACK_PROXIES,
    routes: ALL_ROUTES,
    seed: '5',
    port: 0,
    clockMode: 'manual',
    startMs: START_MS,
    defects,
    log: () => undefined,
  });
  handles.push(handle);
  return handle;
}

interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

async function audit(argv: readonly string[]): Promise<Ran> {
  let out = '';
  let err = '';
  const io: AuditIo = { out: (text) => void (out += text), err: (text) => void (err += text) };
  const code = await main([...argv], io);
  return { code, out, err };
}

const postJson = async (url: string, body: unknown): Promise<Record<string, unknown>> =>
  (await (
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  ).json()) as Record<string, unknown>;

/** A funded player (as an agent developer would set one up) with dice, keno and coin-flip bets in three styles. */
async function player(handle: ServeHandle): Promise<string> {
  const api = handle.urls.api as string;
  const anonymous = new AfpClient(httpTransport({ urls: handle.urls }));
  const registered = await anonymous.casino.call('casino.A.register', { body: {} });
  const key = registered.body['api_key'] as string;
  const agentId = registered.body['agent_id'] as string;
  await postJson(`${api}/_afp/tier`, { agent_id: agentId, tier: 'enterprise' });
  const deposit = await postJson(`${api}/_afp/casino/deposit`, { agent_id: agentId, chain: 'base', amount: '50' });
  await postJson(`${api}/_afp/clock`, { to_ms: deposit['confirm_at_ms'] });
  const client = anonymous.withKey(key);
  for (let batch = 0; batch < 6; batch++) {
    const bets = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? { game: 'dice', amount: 0.01, direction: 'over', threshold: 50 }
        : { game: 'keno', amount: 0.01, picks: [3, 14, 15, 92 - 80, 65] },
    );
    expect((await client.casino.batch(bets)).ok).toBe(true);
  }
  for (let bet = 0; bet < 10; bet++) {
    expect(
      (await client.casino.play('coin-flip', { amount: 0.02, side: 'tails', client_seed: `mine-${bet}` })).ok,
    ).toBe(true);
    expect((await client.casino.betB({ game: 'dice', amount: '0.01', params: { target: 30, over: false } })).ok).toBe(
      true,
    );
  }
  return key;
}

const liveEdge = (handle: ServeHandle, out: string, bets = 600): Promise<Ran> =>
  audit([
    'house-edge',
    '--target',
    handle.urls.api as string,
    '--bets',
    String(bets),
    '--seed',
    '8',
    '--out',
    join(DIR, out),
    '--max-seconds',
    '60',
  ]);
const fairness = (handle: ServeHandle, key: string, out: string, ...extra: string[]): Promise<Ran> =>
  audit([
    'fairness',
    '--target',
    handle.urls.api as string,
    '--key',
    key,
    '--max-seconds',
    '60',
    '--out',
    join(DIR, out),
    ...extra,
  ]);

interface ReportFinding {
  readonly id: string;
  readonly severity: string;
  readonly title: string;
  readonly evidence: string;
}

const findingsOf = (out: string): ReportFinding[] =>
  (JSON.parse(readFileSync(join(DIR, out, 'findings.json'), 'utf8')) as { findings: ReportFinding[] }).findings;
const grave = (out: string): string[] =>
  findingsOf(out)
    .filter((finding) => finding.severity === 'major' || finding.severity === 'critical')
    .map((finding) => finding.id);

describe('against the faithful casino', () => {
  test('house-edge --target covers the 17 games, verifies every bet under the afp scheme, and finds nothing at or above major', async () => {
    const handle = await serve();
    const ran = await liveEdge(handle, 'faithful', 400);
    expect(ran.code, ran.out + ran.err).toBe(0);
    expect(ran.out.split('\n')[0]).toBe('seed: 8');
    expect(ran.out).toMatch(/fairness scheme afp · \d+ variants of 17 games/);
    expect(ran.out).toMatch(
      /account: registered ag_[0-9a-f]{12} on .*tier enterprise, funded [\d.]+ USDC by a simulated solana deposit/,
    );
    for (const game of GAME_IDS) expect(ran.out).toMatch(new RegExp(`^${game} `, 'm'));
    expect(ran.out).toContain('bets: 400 placed, 400 verified, 0 refused');
    const report = JSON.parse(readFileSync(join(DIR, 'faithful', 'findings.json'), 'utf8')) as {
      findings: Array<{ id: string; severity: string }>;
    };
    expect(
      report.findings.filter((finding) => finding.severity === 'major' || finding.severity === 'critical'),
    ).toEqual([]);
    // The documents' own contradiction (coin flip pays 1.96x, advertised 0.5%) is reported, as info.
    expect(report.findings).toContainEqual(
      expect.objectContaining({ id: expect.stringMatching(/^edge:coin_flip/), severity: 'info' }),
    );
    const edges = JSON.parse(readFileSync(join(DIR, 'faithful', 'edges.json'), 'utf8')) as {
      variants: Array<{ game: string; rests_on_bets: number }>;
    };
    expect(new Set(edges.variants.map((variant) => variant.game))).toEqual(new Set(GAME_IDS));
    expect(readFileSync(join(DIR, 'faithful', 'findings.junit.xml'), 'utf8')).toContain('<testcase');
  });

  test('fairness --target --key verifies the whole history (three styles) under the afp scheme and exits 0; house-edge takes --key too', async () => {
    const handle = await serve();
    const key = await player(handle);
    const ran = await fairness(handle, key, 'fair-text');
    expect(ran.code, ran.out + ran.err).toBe(0);
    expect(ran.out).toContain('fairness scheme afp');
    expect(ran.out).toContain('bets: 140 listed of 140 in the history, 140 audited, 140 verified under the afp scheme');
    expect(ran.out).toMatch(/^coin_flip +10 +10 +10 +10 +0 +0$/m);
    expect(ran.out).toMatch(/^keno +60 +60 +60 +60 +0 +0$/m);
    expect(grave('fair-text')).toEqual([]);
    const junit = readFileSync(join(DIR, 'fair-text', 'findings.junit.xml'), 'utf8');
    for (const name of ['coin_flip', 'dice', 'keno', 'nonces'])
      expect(junit).toContain(`<testcase name="${name}" classname="afp audit fairness.fairness"/>`);
    // The replay probes ran after the history and placed 9 minimum bets (a draw, two batches of 3, two coin flips), refused every replay.
    for (const name of ['draw-replay', 'batch-replay', 'seed-nonce-reuse'])
      expect(junit).toContain(`<testcase name="${name}" classname="afp audit fairness.replay"/>`);
    expect(ran.out).toMatch(
      /^replay ran +draw-replay: deal nonce \d+, draw settled \(bet bet_\w+\); the same draw again: refused 404 NOT_FOUND; a draw for nonce \d+, never dealt: refused 404 NOT_FOUND$/m,
    );
    const json = await fairness(handle, key, 'fair', '--json');
    expect(json.code).toBe(0);
    const object = JSON.parse(json.out) as { verdict: string; exit_code: number; audited: number; fairness: unknown };
    // The second audit also verifies the 9 bets the first one's replay probes placed.
    expect(object).toMatchObject({
      command: 'afp audit fairness',
      seed: null,
      verdict: 'ok',
      exit_code: 0,
      audited: 149,
      verified: 149,
    });
    const report = object.fairness as {
      listed: number;
      audited: number;
      verified: number;
      games: Array<{ game: string; audited: number; followed_rule: number; paid_right: number }>;
    };
    expect(report).toMatchObject({
      scheme: 'afp',
      rotation: 'revealed',
      history_total: 149,
      listed: 149,
      audited: 149,
      verified: 149,
      stopped_by: null,
    });
    for (const game of report.games)
      expect([game.followed_rule, game.paid_right]).toEqual([game.audited, game.audited]);
    expect(JSON.parse(readFileSync(join(DIR, 'fair', 'fairness.json'), 'utf8'))).toEqual(report);
    const capped = await fairness(handle, key, 'fair-capped', '--max-bets', '30');
    expect(capped.code).toBe(0);
    expect(capped.out).toContain('bets: 30 listed of 158 in the history, 30 audited, 30 verified');
    expect(capped.out).toContain('stopped: --max-bets 30 reached');
    const withKey = await audit([
      'house-edge',
      '--target',
      handle.urls.api as string,
      '--key',
      key,
      '--games',
      'dice,keno',
      '--bets',
      '120',
      '--seed',
      '2',
      '--out',
      join(DIR, 'with-key'),
    ]);
    expect(withKey.code, withKey.out + withKey.err).toBe(0);
    expect(withKey.out).toMatch(/account: the account of the given key \(ag_[0-9a-f]{12}, balance [\d.]+ USDC\)/);
  });

  test('fairness on an account with no bets says it audited nothing (exit 0, the checks skipped)', async () => {
    const handle = await serve();
    const anonymous = new AfpClient(httpTransport({ urls: handle.urls }));
    const registered = await anonymous.casino.call('casino.A.register', { body: {} });
    const ran = await fairness(handle, registered.body['api_key'] as string, 'fair-empty');
    expect(ran.code, ran.out + ran.err).toBe(0);
    expect(ran.out).toContain('bets: 0 listed of 0 in the history, 0 audited, 0 verified under the afp scheme');
    expect(ran.out).toContain('nothing audited: the account has no bets in its history');
  });

  test('--max-seconds ends the betting early: what was placed is still verified, exit 4', async () => {
    const handle = await serve();
    const ran = await audit([
      'house-edge',
      '--target',
      handle.urls.api as string,
      '--bets',
      '100000',
      '--seed',
      '4',
      '--max-seconds',
      '1',
      '--out',
      join(DIR, 'deadline'),
    ]);
    expect(ran.code).toBe(4);
    const placed = /bets: (\d+) placed, (\d+) verified/.exec(ran.out);
    expect(placed?.[1]).toBe(placed?.[2]);
    expect(ran.out).toContain('stopped: the time budget ended the betting early');
    expect(ran.out).toContain('reproduce: npx afp audit house-edge --target');
  });

  test('a target that is not an afp serve needs --key (exit 2); one that does not answer is exit 4', async () => {
    const foreign: Server = createServer((_request, response) =>
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}'),
    );
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
      const ran = await audit(['house-edge', '--target', url, '--bets', '60']);
      expect(ran.code).toBe(2);
      expect(ran.err).toContain('afp target probe');
    } finally {
      await new Promise<void>((resolve) => foreign.close(() => resolve()));
    }
    const closed = await audit([
      'fairness',
      '--target',
      'http://127.0.0.1:9',
      '--key',
      'sk_live_x',
      '--out',
      join(DIR, 'closed'),
    ]);
    expect(closed.code).toBe(4);
    expect(closed.err).toContain('does not answer');
    expect((await audit(['fairness', '--target', 'ftp://x'])).err).toMatch(
      /must start with http[\s\S]*--key KEY .* is required/,
    );
  });
});

describe('each deliberate defect is caught', () => {
  test('casino-payout-short: house-edge --target states the edge of the short table it observed (exit 3); fairness finds each win paid off the rule', async () => {
    const handle = await serve(['casino-payout-short']);
    const ran = await liveEdge(handle, 'short', 120);
    expect(ran.code).toBe(3);
    // The target pays what it shows: no money finding, the payouts differ from its published table.
    expect(grave('short').filter((id) => id.startsWith('money:'))).toEqual([]);
    // How many of its bets won depends on the order the target drew them in (the first call of each game goes out alone).
    // (The verdict lists ten lines, edges before rule findings: the finding is read from findings.json.)
    const short = findingsOf('short').find((finding) => finding.id === 'rule:dice:over:50:payouts');
    expect(short?.severity).toBe('major');
    expect(short?.title).toMatch(
      /^dice:over:50: the target pays 1\.9404× where the documents give 1\.96× \(\d+ bets?\) \(afp scheme\): observed edge 2\.980%, published rule 2\.000%/,
    );
    const edges = JSON.parse(readFileSync(join(DIR, 'short', 'edges.json'), 'utf8')) as {
      variants: Array<{ variant: string; edge_source: string; edge: number; rests_on_bets: number; verified: number }>;
    };
    // Two bets a variant: those that saw a win learnt the short table; none broke the draw mapping.
    const observed = edges.variants.filter((variant) => variant.edge_source === 'observed');
    expect(observed.length).toBeGreaterThan(10);
    expect(edges.variants.filter((variant) => variant.edge_source === 'empirical')).toEqual([]);
    for (const variant of observed) expect(variant.rests_on_bets).toBe(variant.verified);
    expect(edges.variants.find((variant) => variant.variant === 'dice:over:50')).toMatchObject({
      edge_source: 'observed',
      edge: 0.0298,
    });
    expect(ran.out).toContain('reproduce: npx afp audit house-edge --target');
    const key = await player(handle);
    const fair = await fairness(handle, key, 'short-fair');
    expect(fair.code).toBe(3);
    // The credit agrees with the short multiplier each bet shows: a rule finding stating the payout (major on afp's scheme), no money finding.
    expect(fair.out).toMatch(
      /major rule:\w+:payout: \w+: paid [\d.]+× where the afp scheme's published rule pays [\d.]+× \(the credit agrees with the multiplier the bet shows\)/,
    );
    expect(fair.out).toContain('reproduce: npx afp audit fairness --target');
    // Short payouts (and the short multipliers recorded with them) are rule findings, never money or unfair: the target agrees with itself and the hashes verify.
    expect(grave('short-fair')).toContain('rule:coin_flip:payout');
    expect(grave('short-fair').filter((id) => !/^rule:\w+:(payout|outcome)$/.test(id))).toEqual([]);
  });

  test("payout-table-differs: coin flip paid 2.00x is `observed` — edges.json and edges.csv state the observed table's exact edge (0%), the bets it rests on, and no money finding", async () => {
    const handle = await serve(['payout-table-differs']);
    const ran = await audit([
      'house-edge',
      '--target',
      handle.urls.api as string,
      '--games',
      'coin_flip,dice',
      '--bets',
      '120',
      '--seed',
      '8',
      '--out',
      join(DIR, 'observed'),
      '--max-seconds',
      '60',
    ]);
    expect(ran.code, ran.out + ran.err).toBe(3);
    const edges = JSON.parse(readFileSync(join(DIR, 'observed', 'edges.json'), 'utf8')) as {
      variants: Array<Record<string, unknown>>;
    };
    const coin = edges.variants.find((variant) => variant['game'] === 'coin_flip') as Record<string, unknown>;
    expect(coin).toMatchObject({
      edge_source: 'observed',
      edge: 0,
      edge_range: [0, 0],
      followed_mapping: coin['verified'],
      rests_on_bets: coin['verified'],
      sprt: null,
    });
    const table = coin['observed_table'] as {
      outcomes: Array<{ published: string; probability: string; paid: string | null; bets: number }>;
      unobserved_probability: number;
    };
    expect(table.outcomes.map((row) => [row.published, row.probability, row.paid])).toEqual([
      ['0', '1/2', '0'],
      ['1.96', '1/2', '2'],
    ]);
    expect(table.outcomes.reduce((total, row) => total + row.bets, 0)).toBe(coin['verified']);
    expect(table.unobserved_probability).toBe(0);
    // Dice is untouched: its edge is the published rule's.
    for (const variant of edges.variants.filter((row) => row['game'] === 'dice'))
      expect(variant).toMatchObject({ edge_source: 'published', edge: 0.02 });
    const csv = readFileSync(join(DIR, 'observed', 'edges.csv'), 'utf8').split('\n');
    expect(csv[0]).toMatch(/^game,variant,edge_source,edge,edge_low,edge_high,/);
    expect(csv.find((line) => line.startsWith('coin_flip,'))).toMatch(
      /^coin_flip,coin_flip:heads,observed,0\.00000000,0\.00000000,0\.00000000,/,
    );
    const findings = findingsOf('observed');
    expect(findings.filter((finding) => finding.id.startsWith('money:'))).toEqual([]);
    expect(findings.find((finding) => finding.id === 'rule:coin_flip:heads:payouts')).toMatchObject({
      severity: 'major',
    });
    expect(ran.out).toMatch(/^coin_flip +heads +observed +0\.000% /m);
    // findings.html: titled once "afp audit house-edge", each variant's check names its edge source and edge.
    const html = readFileSync(join(DIR, 'observed', 'findings.html'), 'utf8');
    expect(html).toMatch(/<title>afp audit house-edge — [^<]+<\/title>/);
    expect(html).toContain('edge_source observed: edge 0.000%; payouts differ from the published table');
    expect(html).toContain('edge_source published: edge 2.000%;');
    // Each variant's check holds its own findings (and its game's), never a sibling variant's.
    const checks = (
      JSON.parse(readFileSync(join(DIR, 'observed', 'findings.json'), 'utf8')) as {
        checks: Array<{ name: string; findingIds: string[] }>;
      }
    ).checks;
    expect(checks.find((check) => check.name === 'dice:over:50')?.findingIds).toEqual(['edge:dice:over:50']);
    expect(checks.find((check) => check.name === 'coin_flip:heads')?.findingIds).toEqual([
      'rule:coin_flip:heads:payouts',
      'edge:coin_flip:heads',
    ]);
  });

  test('casino-biased-draw: fairness finds outcomes that do not come from the committed draw (exit 3)', async () => {
    const handle = await serve(['casino-biased-draw']);
    const key = await player(handle);
    const ran = await fairness(handle, key, 'biased-fair');
    expect(ran.code).toBe(3);
    expect(ran.out).toMatch(
      /major rule:\w+:outcome: \w+: the outcome does not follow the afp scheme's published rule \(the hashes verify\)/,
    );
    expect(grave('biased-fair').some((id) => id.startsWith('fairness:'))).toBe(false);
    // Live, outcomes drawn from another draw than the committed one: one finding per game, its edge measured.
    const edge = await liveEdge(handle, 'biased', 200);
    expect(edge.code).toBe(3);
    expect(edge.out).toMatch(
      /major rule:\w+:scheme: \w+: the target's rule differs from its published afp scheme \(\d+ of \d+ verified bets off the draw mapping; the hashes verify\)/,
    );
    expect(grave('biased').filter((id) => id.startsWith('money:'))).toEqual([]);
  });

  test('casino-replayable-nonce: fairness finds a (seed, nonce) pair drawn by many bets (exit 3)', async () => {
    const handle = await serve(['casino-replayable-nonce']);
    const key = await player(handle);
    const ran = await fairness(handle, key, 'nonce-fair');
    expect(ran.code).toBe(3);
    expect(ran.out).toContain('critical fairness:nonce-reused: two bets share a (server seed, nonce) pair');
    expect(findingsOf('nonce-fair').find((finding) => finding.id === 'fairness:nonce-reused')?.evidence).toMatch(
      /^bets bet_[0-9a-f]{16} and bet_[0-9a-f]{16} both draw nonce \d+ of seed [0-9a-f]{64}$/,
    );
    expect((await liveEdge(handle, 'nonce', 120)).out).toContain(
      'critical fairness:nonce-reused: two bets share a (server seed, nonce) pair',
    );
  });

  test('casino-keno-8: fairness finds every keno bet wrong and no other (exit 3)', async () => {
    const handle = await serve(['casino-keno-8']);
    const key = await player(handle);
    const ran = await fairness(handle, key, 'keno-fair', '--json');
    expect(ran.code).toBe(3);
    const object = JSON.parse(ran.out) as {
      verdict: string;
      exit_code: number;
      fairness: { verified: number; games: Array<{ game: string; audited: number; followed_rule: number }> };
    };
    expect([object.verdict, object.exit_code]).toEqual(['failed', 3]);
    const report = object.fairness;
    expect(report.verified).toBe(140);
    expect(report.games.find((game) => game.game === 'keno')).toMatchObject({ audited: 60, followed_rule: 0 });
    for (const game of report.games.filter((row) => row.game !== 'keno')) expect(game.followed_rule).toBe(game.audited);
    expect(grave('keno-fair')).toContain('rule:keno:outcome');
    expect(grave('keno-fair').filter((id) => !id.includes(':keno:'))).toEqual([]);
    // Live, keno's bets break the rule; no other game's do.
    const edge = await liveEdge(handle, 'keno', 300);
    expect(edge.code).toBe(3);
    const ids = (
      JSON.parse(readFileSync(join(DIR, 'keno', 'findings.json'), 'utf8')) as {
        findings: Array<{ id: string; severity: string }>;
      }
    ).findings
      .filter((finding) => finding.severity === 'major' || finding.severity === 'critical')
      .map((finding) => finding.id);
    expect(ids).toContain('rule:keno:scheme');
    expect(ids.filter((id) => !id.includes('keno'))).toEqual([]);
    // Nothing is derived from the published rule: every keno variant's edge is empirical.
    const edges = JSON.parse(readFileSync(join(DIR, 'keno', 'edges.json'), 'utf8')) as {
      variants: Array<{ game: string; edge_source: string; exact_edge: number | null }>;
    };
    for (const variant of edges.variants.filter((row) => row.game === 'keno'))
      expect([variant.edge_source, variant.exact_edge]).toEqual(['empirical', null]);
  });
});
