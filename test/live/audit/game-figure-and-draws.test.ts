// Two readings of a live casino the house-edge audit got wrong (prober 65):
//  - the deployment's simple_dice states one `house_edge_pct` (8.33 = 1 − 5.5/6) on every pick,
//    the mean of its picks' edges (6.5% for picks 1–4, 12% for 5–6): against pick 1 alone it was a
//    major false alarm. Read as the game's figure it matches: info; a figure neither reading gives
//    stays major.
//  - a target that replaces some coin-flip rolls (the hash is the true HMAC) while the game's other
//    bets record the committed roll exactly contradicts itself: critical `fairness:coin_flip:draw`
//    with the bet, both rolls and its curl, not the minor rule finding of a changed rule. A target
//    showing its rolls to fewer places, or with float noise past them, is no such thing.
// Real loopback listeners: the in-process deployed stand-in (published rules, limits lifted, manual
// clock), behind a rewriting proxy where the wire differs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { proxiedHouseEdge, resultRewrite, type ProxiedRun } from '../../fixtures/proxied-house-edge.ts';
import type { LiveFinding } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-figure-draws-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const audit = (name: string, games: string, rewrite: Rewrite): Promise<ProxiedRun> =>
  proxiedHouseEdge(DIR, name, games, rewrite);

const graveIds = (findings: readonly LiveFinding[]): string[] =>
  findings
    .filter((finding) => finding.severity === 'critical' || finding.severity === 'major')
    .map((finding) => `${finding.severity} ${finding.id}`);

describe('a figure stated once for the whole game is read as the game’s', () => {
  test('simple_dice states 8.33% on pick 1 (edge 6.5%): the mean over its six picks, info; exit 0', async () => {
    const run = await audit('dice-figure', 'simple_dice', (_request, answer) => answer.text);
    expect(graveIds(run.findings), run.text).toEqual([]);
    expect(run.code, run.text).toBe(0);
    const edge = run.findings.find((finding) => finding.id === 'edge:simple_dice:1');
    expect(edge?.severity).toBe('info');
    expect(edge?.title).toMatch(
      /8\.33% \(house_edge_pct in 40 of its answers\).*its edge over its 6 choices \(8\.333%\)/,
    );
  });

  test('a figure neither reading gives (4%) stays major', async () => {
    const run = await audit(
      'dice-wrong-figure',
      'simple_dice',
      resultRewrite('simple_dice', (result) => {
        result['house_edge_pct'] = 4;
      }),
    );
    expect(graveIds(run.findings), run.text).toContain('major edge:simple_dice:1');
    expect(run.code).toBe(3);
  });
});

describe('a recorded roll that is not the committed draw', () => {
  test('every 8th coin-flip roll replaced by 75, the rest exact: critical fairness:coin_flip:draw with both rolls and a curl', async () => {
    const run = await audit(
      'replaced-rolls',
      'coin_flip',
      resultRewrite('coin_flip', (result, index) => {
        if (index % 8 === 3) result['roll'] = 75;
      }),
    );
    const draw = run.findings.find((finding) => finding.id === 'fairness:coin_flip:draw');
    expect(draw?.severity, run.text).toBe('critical');
    expect(draw?.evidence).toMatch(
      /^bet bet_\S+: recorded roll 75, the committed draw \d+(\.\d+)? \(server seed [0-9a-f]{64}, client seed afp-/,
    );
    expect(draw?.reproduce).toMatch(/^curl .*\/api\/v1\/(games\/coin-flip|bets\/batch)/);
    expect(run.code).toBe(3);
  });

  test('rolls shown to one place (floored): no draw finding', async () => {
    const run = await audit(
      'floored-rolls',
      'coin_flip',
      resultRewrite('coin_flip', (result) => {
        result['roll'] = Math.floor((result['roll'] as number) * 10) / 10;
      }),
    );
    expect(
      run.findings.map((finding) => finding.id),
      run.text,
    ).not.toContain('fairness:coin_flip:draw');
  });
  test('rolls written with float noise (hundredths × 0.01: 43.980000000000004 for some): no draw finding', async () => {
    const run = await audit(
      'noisy-rolls',
      'coin_flip',
      resultRewrite('coin_flip', (result) => {
        result['roll'] = Math.round((result['roll'] as number) * 100) * 0.01;
      }),
    );
    expect(
      run.findings.map((finding) => finding.id),
      run.text,
    ).not.toContain('fairness:coin_flip:draw');
  });
});
