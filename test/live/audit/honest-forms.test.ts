// Honest forms of DEPLOYED.md answers a prober's casino wrote (probe66c), each of which afp's live
// audits called wrong:
//  - parlay legs whose default client seeds differ (`params.client_seed`, else `parlay_<ms>`
//    per leg, the millisecond ticking between legs), each leg stating the seed it used: verified
//    under the bet's one seed they read as replaced draws (critical fairness:parlay:draw);
//  - parlay legs nesting their game's fields under `result`: read as missing fields (minor
//    rule:parlay:outcome);
//  - parlay legs stating no seed under a bet whose seed is the default parlay_<ms>: a leg's own
//    default may be a millisecond later, so a leg that differs is not checked (never critical);
//  - slot reels as "ORANGE|LEMON|LEMON", scratch symbols as one string, video poker holds as the
//    held indices [2,4]: "off the draw mapping" (minor rule:<game>:scheme, the game demoted);
//  - `house_edge_pct` written "8.33%": silently not read as the target's own advertisement.
// Each is read as the same outcome now, and a wrong leg seed, reel, symbol or held position in the
// same form is still found. Real loopback listeners: the in-process deployed stand-in (published
// rules, limits lifted, manual clock) behind a rewriting proxy that writes its answers that way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Rewrite } from '../../fixtures/rewriting-proxy.ts';
import { parlaysAudited, proxiedHouseEdge, resultRewrite, type ProxiedRun } from '../../fixtures/proxied-house-edge.ts';
import type { LiveFinding } from '../../fixtures/live-house-edge.ts';

const DIR = mkdtempSync(join(tmpdir(), 'afp-honest-forms-'));
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const above = (findings: readonly LiveFinding[]): string[] =>
  findings.filter((finding) => finding.severity !== 'info').map((finding) => `${finding.severity} ${finding.id}`);

// ---- parlays

/**
 * Legs 1–3 carry client seeds of the default's form, as legs a millisecond or more apart would work
 * out; leg 0 takes the bet's own (the stand-in's `parlay_<ms>`, as the first leg's default is).
 */
const LEGS = [
  { game: 'coin_flip', params: { side: 'heads' } },
  { game: 'dice', params: { direction: 'under', threshold: 70, client_seed: 'parlay_1795856527709' } },
  { game: 'simple_dice', params: { guess: 4, client_seed: 'parlay_1795856527711' } },
  { game: 'coin_flip', params: { side: 'tails', client_seed: 'parlay_1795856527714' } },
];

type Leg = Record<string, unknown> & { params: Record<string, unknown> };

/** Every parlay's legs in every answer (the bet, the history, the audit trail), changed by `change`. */
function legsRewrite(change: (leg: Leg, index: number) => Record<string, unknown>): Rewrite {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const record = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, visit(child)]));
    const legs = record['legs'];
    if (Array.isArray(legs) && legs.every((leg) => typeof leg === 'object' && leg !== null && 'game' in leg))
      record['legs'] = (legs as Leg[]).map(change);
    return record;
  };
  return (_request, answer) =>
    answer.status >= 300 || !answer.text.startsWith('{') ? answer.text : JSON.stringify(visit(JSON.parse(answer.text)));
}

/** The leg as a target with per-leg default seeds shows it: no `params.client_seed` sent, the seed it used stated beside. */
function statedSeed(leg: Leg): Leg {
  const { client_seed: seed, ...params } = leg.params;
  return seed === undefined ? leg : { ...leg, params, client_seed: seed };
}

/** The leg with its game's result fields nested under `result`. */
function nested(leg: Leg): Record<string, unknown> {
  const { game, params, nonce, won, client_seed: seed, ...result } = leg;
  return { game, params, nonce, ...(seed === undefined ? {} : { client_seed: seed }), result, won };
}

async function auditParlays(name: string, rewrite: Rewrite): Promise<ProxiedRun> {
  return parlaysAudited(DIR, name, LEGS, rewrite);
}

describe('parlay legs stating their own client seeds, flat or nested', () => {
  test('flat legs, each stating its seed: every leg verified under it, nothing above info, exit 0', async () => {
    const run = await auditParlays('legs-stated', legsRewrite(statedSeed));
    expect(above(run.findings), run.text).toEqual([]);
    expect(run.text).toMatch(/\nparlay +6 +6 +6 +6 +0 +0\n/);
    expect(run.code, run.text).toBe(0);
  });

  test('legs nesting their fields under `result`, each stating its seed: the same, nothing above info, exit 0', async () => {
    const run = await auditParlays(
      'legs-nested',
      legsRewrite((leg) => nested(statedSeed(leg))),
    );
    expect(above(run.findings), run.text).toEqual([]);
    expect(run.text).toMatch(/\nparlay +6 +6 +6 +6 +0 +0\n/);
    expect(run.code, run.text).toBe(0);
  });

  test('one leg stating a seed that does not give its draw: critical fairness:parlay:draw naming that seed', async () => {
    let stated = 0;
    const run = await auditParlays(
      'legs-wrong-seed',
      legsRewrite((leg, index) => {
        const read = statedSeed(leg);
        if (index !== 1) return read;
        stated += 1;
        // One parlay's dice leg (which writes its roll) states a seed one millisecond off.
        return stated === 1 ? { ...read, client_seed: 'parlay_1795856527710' } : read;
      }),
    );
    const draw = run.findings.find((finding) => finding.id === 'fairness:parlay:draw');
    expect(draw?.severity, run.text).toBe('critical');
    expect(draw?.evidence).toMatch(/recorded legs\[1\]\.roll .*client seed parlay_1795856527710,/);
    expect(run.code).toBe(3);
  });

  test('legs stating no seed where the bet has the default parlay_<ms>: the legs that differ are not checked, never critical', async () => {
    // A deployment working out each leg's default seed (DEPLOYED.md §2.5) and stating none: legs
    // 1-3 were drawn a few milliseconds on, under seeds no answer gives. Before, every such leg read
    // as a replaced draw: critical fairness:parlay:draw, exit 3, on an honest target.
    const run = await auditParlays(
      'legs-unstated',
      legsRewrite((leg) => {
        const { client_seed: _seed, ...params } = leg.params;
        return { ...leg, params };
      }),
    );
    expect(above(run.findings), run.text).toEqual([]);
    // Every parlay here has a leg drawn under a seed no answer states: not checked, with the reason.
    expect(run.text).toMatch(/\nparlay +6 +6 +0 +0 +6 +0\n/);
    expect(run.code, run.text).toBe(0);
  });

  test('a nested leg whose roll is not its draw: still critical fairness:parlay:draw', async () => {
    let seen = 0;
    const run = await auditParlays(
      'legs-nested-roll',
      legsRewrite((leg, index) => {
        const read = nested(statedSeed(leg)) as { result: { roll?: number } };
        if (index === 1 && (seen += 1) === 1 && typeof read.result.roll === 'number')
          read.result.roll = Math.round(((read.result.roll + 50) % 100) * 100) / 100;
        return read;
      }),
    );
    expect(above(run.findings), run.text).toContain('critical fairness:parlay:draw');
    expect(run.code).toBe(3);
  });
});

// ---- lists written as strings, held positions as indices (house-edge)

const audit = (name: string, games: string, rewrite: Rewrite, bets = '60'): Promise<ProxiedRun> =>
  proxiedHouseEdge(DIR, name, games, rewrite, { bets, usdc: '1', funds: '50' });

const ids = (run: ProxiedRun): string[] => run.findings.map((finding) => finding.id);
const empiricalLines = (run: ProxiedRun): string[] => run.text.split('\n').filter((line) => / empirical /.test(line));

/** A list field of `game`'s results written by `write` (every `every`-th bet's changed by `wrong` first). */
function listRewrite(
  game: string,
  field: string,
  write: (list: unknown[]) => unknown,
  wrong?: (list: unknown[]) => unknown[],
): Rewrite {
  return resultRewrite(game, (result, index) => {
    const list = result[field] as unknown[];
    result[field] = write(wrong !== undefined && index % 4 === 0 ? wrong(list) : list);
  });
}

const otherSymbol = (list: unknown[], symbols: readonly string[]): unknown[] => [
  symbols.find((symbol) => symbol !== list[0]) as string,
  ...list.slice(1),
];

describe('slots reels as "A|B|C"', () => {
  const join = (list: unknown[]): string => list.join('|');
  test('the rule is followed, no variant empirical', async () => {
    const run = await audit('reels-string', 'slots', listRewrite('slots', 'reels', join));
    expect(ids(run), run.text).not.toContain('rule:slots:scheme');
    expect(empiricalLines(run), run.text).toEqual([]);
  });

  test('the first reel another symbol on every fourth bet: off the mapping', async () => {
    const run = await audit(
      'reels-string-wrong',
      'slots',
      listRewrite('slots', 'reels', join, (list) => otherSymbol(list, ['CHERRY', 'LEMON'])),
    );
    expect(ids(run), run.text).toContain('rule:slots:scheme');
  });
});

describe('scratch card symbols as one string', () => {
  const join = (list: unknown[]): string => list.join('');
  test('the rule is followed, no variant empirical', async () => {
    const run = await audit('symbols-string', 'scratch_card', listRewrite('scratch_card', 'symbols', join));
    expect(ids(run), run.text).not.toContain('rule:scratch_card:scheme');
    expect(empiricalLines(run), run.text).toEqual([]);
  });

  test('the first symbol another on every fourth bet: off the mapping', async () => {
    const run = await audit(
      'symbols-string-wrong',
      'scratch_card',
      listRewrite('scratch_card', 'symbols', join, (list) => otherSymbol(list, ['🍒', '🍋'])),
    );
    expect(ids(run), run.text).toContain('rule:scratch_card:scheme');
  });
});

describe('video poker holds as the held indices', () => {
  const indices = (list: unknown[]): number[] => list.flatMap((held, index) => (held === true ? [index] : []));
  test('[2,4] for [false,false,true,false,true]: the rule is followed, no variant empirical', async () => {
    const run = await audit('holds-indices', 'video_poker', listRewrite('video_poker', 'holds', indices), '40');
    expect(ids(run), run.text).not.toContain('rule:video_poker:scheme');
    expect(empiricalLines(run), run.text).toEqual([]);
  });

  test('one held position moved on every fourth hand: off the mapping', async () => {
    const run = await audit(
      'holds-indices-wrong',
      'video_poker',
      listRewrite('video_poker', 'holds', indices, (list) => [!list[0], ...list.slice(1)]),
      '40',
    );
    expect(ids(run), run.text).toContain('rule:video_poker:scheme');
  });
});

describe('house_edge_pct written with a percent sign', () => {
  test('"8.33%" is the target’s own advertisement, as 8.33 is', async () => {
    const run = await audit(
      'edge-percent-sign',
      'simple_dice',
      resultRewrite('simple_dice', (result) => {
        result['house_edge_pct'] = `${String(result['house_edge_pct'])}%`;
      }),
      '30',
    );
    expect(run.text).toMatch(/\nsimple_dice .* 8\.330% \(own\) /);
    expect(above(run.findings), run.text).toEqual([]);
  });
});
