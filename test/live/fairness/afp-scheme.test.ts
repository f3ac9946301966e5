// afp's own scheme as an adapter: on real bets of afp's in-process casino (every documented
// variant that is one bet, played in batches, the seed rotated and every audit trail read), its
// four checks agree with the audits' `verifyWireBet` — all ok exactly when verifyWireBet finds no
// problem, the same multiplier — before and after tampering, and with the parameters read back from
// the result record; its laws are the game modules'.
import { describe, expect, test } from 'vitest';
import { verifyWireBet } from '../../../src/audit/fairness/verify-wire-bet.ts';
import { parseAuditTrail, type WireBet } from '../../../src/audit/fairness/wire-bet.ts';
import type { AfpClient } from '../../../src/client/client.ts';
import { toNumber, usdc } from '../../../src/core/money.ts';
import { GAMES, gameById } from '../../../src/services/casino/games/index.ts';
import type { GameId } from '../../../src/services/casino/games/game.ts';
import { AFP_SCHEME } from '../../../src/audit/fairness/afp-scheme.ts';
import { DEPLOYED_SCHEME } from '../../../src/audit/fairness/deployed-scheme.ts';
import { VIDEO_POKER_OPTIMAL_WIRE } from '../../../src/audit/fairness/document-variants.ts';
import type { SchemeBet, SchemeVerdict } from '../../../src/audit/fairness/scheme.ts';
import { schemeByName } from '../../../src/audit/fairness/schemes.ts';
import { inProcessSetup } from '../../client/fixtures.ts';

const asSchemeBet = (bet: WireBet): SchemeBet => ({
  betId: bet.betId,
  game: bet.game,
  params: bet.params,
  amountMicro: bet.amountMicro,
  paidMicro: bet.payoutMicro,
  multiplier: bet.multiplier,
  result: bet.detail,
  clientSeed: bet.clientSeed,
  nonce: bet.nonce,
  seedHash: bet.seedHash,
  resultHash: bet.resultHash,
});
const allOk = (verdict: SchemeVerdict): boolean =>
  [verdict.commitment, verdict.resultHash, verdict.outcome, verdict.payout].every((check) => check.status === 'ok');

async function playedBets(): Promise<Array<{ bet: WireBet; seed: string }>> {
  const setup = inProcessSetup();
  const registered = await setup.client.casino.call('casino.A.register', { body: {} });
  const agentId = registered.body['agent_id'] as string;
  expect(
    setup.platform.casino.account.simulateDeposit(
      { agentId, chain: 'base', amountMicro: usdc(5_000) },
      setup.clock.nowMs(),
    ).ok,
  ).toBe(true);
  setup.clock.advance(3_600_000);
  setup.platform.advanceTo(setup.clock.nowMs());
  const client: AfpClient = setup.client.withKey(registered.body['api_key'] as string);
  const bodies = AFP_SCHEME.games().flatMap((entry) =>
    entry.variants
      .filter((variant) => variant.params !== VIDEO_POKER_OPTIMAL_WIRE)
      .map((variant) => ({
        game: entry.game,
        amount: toNumber(gameById(entry.game as GameId).minBetMicro),
        client_seed: `afp-scheme-${variant.name.replaceAll(':', '-')}`,
        ...variant.params,
      })),
  );
  const ids: string[] = [];
  for (let start = 0; start < bodies.length; start += 20) {
    const answer = await client.casino.batch(bodies.slice(start, start + 20));
    const results = answer.body['results'] as Array<Record<string, unknown>>;
    expect(results.filter((result) => result['ok'] !== true)).toEqual([]);
    ids.push(...results.map((result) => result['bet_id'] as string));
  }
  expect(ids).toHaveLength(bodies.length);
  await client.casino.rotate();
  const bets: Array<{ bet: WireBet; seed: string }> = [];
  for (const id of ids) {
    const parsed = parseAuditTrail((await client.casino.audit(id)).body);
    if (!parsed.ok || parsed.value.serverSeed === null) throw new Error(`audit trail of ${id}`);
    bets.push({ bet: parsed.value.bet, seed: parsed.value.serverSeed });
  }
  return bets;
}

describe('the afp scheme', () => {
  test('agrees with verifyWireBet on every variant’s real bet, and on each kind of tampering', async () => {
    const bets = await playedBets();
    expect(new Set(bets.map(({ bet }) => bet.game)).size).toBe(16); // every game but video poker (two calls)
    for (const { bet, seed } of bets) {
      const tampered: WireBet[] = [
        bet,
        { ...bet, payoutMicro: bet.payoutMicro + 1n },
        { ...bet, nonce: bet.nonce + 1 },
        { ...bet, multiplier: bet.multiplier + 1 },
        { ...bet, detail: { tampered: true } },
      ];
      for (const wire of tampered) {
        const reference = verifyWireBet(wire, seed);
        const verdict = AFP_SCHEME.verify(asSchemeBet(wire), seed);
        expect(allOk(verdict), `${bet.game} ${reference.problems.join('; ')}`).toBe(reference.problems.length === 0);
        expect(verdict.multiplier).toEqual(reference.multiplier);
      }
      const other = seed.replace(/^./, seed.startsWith('a') ? 'b' : 'a');
      expect(AFP_SCHEME.verify(asSchemeBet(bet), other).commitment.status).toBe('failed');
      expect(AFP_SCHEME.verify(asSchemeBet({ ...bet, payoutMicro: bet.payoutMicro + 1n }), seed).payout.status).toBe(
        'failed',
      );
      expect(AFP_SCHEME.verify(asSchemeBet({ ...bet, detail: { tampered: true } }), seed)).toMatchObject({
        commitment: { status: 'ok' },
        resultHash: { status: 'ok' },
        outcome: { status: 'failed' },
      });
      // Read back from afp's result record (a wire without parameters), the parameters play the same variant and verify alike.
      const read = AFP_SCHEME.paramsOf?.(bet.game, bet.detail) ?? null;
      const module = gameById(bet.game as GameId);
      const [sent, back] = [module.parse(bet.params), module.parse(read ?? {})];
      expect(
        sent.ok && back.ok && module.variantName(back.value) === module.variantName(sent.value),
        `${bet.game} ${JSON.stringify(read)}`,
      ).toBe(true);
      expect(allOk(AFP_SCHEME.verify({ ...asSchemeBet(bet), params: read ?? {} }, seed))).toBe(true);
    }
    expect(AFP_SCHEME.paramsOf?.('video_poker', { dealt_cards: [], held_positions: [0, 3], final_cards: [] })).toEqual({
      holds: [0, 3],
    });
    expect(AFP_SCHEME.paramsOf?.('dice', { roll: 12, win: false })).toBeNull();
    expect(AFP_SCHEME.paramsOf?.('parlay', {})).toBeNull();
    // afp's result hash is HMAC block 0 of "<cs>:<nonce>", the message the deployed scheme hashes too:
    // under the deployed scheme an afp bet's hashes verify and only its mapping can differ (a rule finding).
    const { bet, seed } = bets[0] as { bet: WireBet; seed: string };
    expect(DEPLOYED_SCHEME.verify(asSchemeBet(bet), seed)).toMatchObject({
      commitment: { status: 'ok' },
      resultHash: { status: 'ok' },
    });
  });

  test('lists the 17 games with every variant of the game table, and each law is the module’s distribution', () => {
    const games = AFP_SCHEME.games();
    expect(games.map((entry) => entry.game)).toEqual(GAMES.map((game) => game.id));
    for (const game of GAMES) {
      const entry = games.find((candidate) => candidate.game === game.id);
      expect(entry?.variants.map((variant) => variant.name)).toEqual(game.variants().map((variant) => variant.name));
      for (const [index, variant] of game.variants().entries()) {
        expect(AFP_SCHEME.law(game.id, entry?.variants[index]?.params ?? {})).toEqual(
          game.distribution(variant.params),
        );
      }
    }
    expect(AFP_SCHEME.law('dice', { direction: 'over', threshold: 77 })).toEqual(
      gameById('dice').distribution({ direction: 'over', threshold: 77 }),
    );
    expect(AFP_SCHEME.law('dice', { direction: 'sideways' })).toBeNull();
    expect(AFP_SCHEME.law('parlay', {})).toBeNull();
  });

  test('schemeByName', () => {
    expect(schemeByName('afp')).toBe(AFP_SCHEME);
    expect(schemeByName('deployed')).toBe(DEPLOYED_SCHEME);
  });
});
