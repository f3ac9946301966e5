/**
 * Invariant `casino-bets-verify`: every settled casino bet recomputes from its server seed, pays
 * exactly what its multiplier says, and draws from a (seed, nonce) no other bet used.
 *
 * How: the checker is omniscient — at each bet's event it reads the seed's text from the seed
 * book by the bet's commitment (revealed or not) and runs the casino's own verification,
 * `recompute(bet, seedHex)` (fairness.ts): SHA-256 of the seed is the commitment, HMAC block 0 is
 * the recorded result hash, replaying the game gives the recorded multiplier and outcome. Then the
 * payout must be floor(amount × multiplier) — so a payout cut shows twice: as a multiplier that
 * does not replay, and (were the multiplier left alone) as a short payment. Checking at the event
 * rather than at the end matters: a long run evicts old bet records (bet-book.ts).
 * Nonces: per seed, a bitmap of the nonces bets consumed (a seed serves at most
 * `rotateAfterNonces` of them); a second bet on the same (seed, nonce) is a replay. Crash-round
 * bets share their round's draw by design and are exempt.
 * Catches: casino-biased-draw and casino-keno-8 (outcomes that do not replay),
 * casino-payout-short (multiplier and payout), casino-replayable-nonce (a nonce used twice).
 * Limits: one bitmap of ⌈rotateAfterNonces / 8⌉ bytes per seed that served a bet.
 */
import { applyToMicro } from '../../../core/ratio.ts';
import type { BetRecord } from '../../../services/casino/bet-record.ts';
import { recompute } from '../../../services/casino/fairness.ts';
import { jsonText } from '../../json-text.ts';
import { eventViolation, type InvariantDefinition, type Violation } from '../checker.ts';

export const casinoBetsVerify: InvariantDefinition = {
  name: 'casino-bets-verify',
  description:
    'every settled bet recomputes from its seed, pays amount × multiplier, and uses a (seed, nonce) no other bet used',
  create({ platform }) {
    const casino = platform.casino;
    const noncesPerSeed = platform.config.casino.rotateAfterNonces;
    const usedNonces = new Map<string, Uint8Array>();
    const broken = (bet: BetRecord, message: string): Violation => ({
      atMs: bet.atMs,
      event: jsonText({ bet }),
      message: `bet ${bet.id} of ${bet.agentId} (${bet.variant}): ${message}`,
    });
    /** Marks the bet's nonce as used; the problem when it was already, or is out of range. */
    const takeNonce = (bet: BetRecord): string | null => {
      if (bet.variant === 'crash:round') return null;
      if (!Number.isSafeInteger(bet.nonce) || bet.nonce < 0 || bet.nonce >= noncesPerSeed)
        return `nonce ${bet.nonce} is outside the seed's ${noncesPerSeed} nonces`;
      let bits = usedNonces.get(bet.seedHash);
      if (bits === undefined) {
        bits = new Uint8Array(Math.ceil(noncesPerSeed / 8));
        usedNonces.set(bet.seedHash, bits);
      }
      const byte = bet.nonce >> 3;
      const mask = 1 << (bet.nonce & 7);
      if (((bits[byte] as number) & mask) !== 0)
        return `nonce ${bet.nonce} of seed ${bet.seedHash.slice(0, 16)}… was already used by another bet (a replayed draw)`;
      bits[byte] = (bits[byte] as number) | mask;
      return null;
    };
    const judge = (bet: BetRecord): Violation | null => {
      const seed = casino.state.seeds.byCommitment(bet.seedHash);
      if (seed === undefined) return broken(bet, `no server seed has the commitment ${bet.seedHash}`);
      const check = recompute(bet, seed.seed.hex);
      if (check.mismatches.length > 0)
        return broken(bet, `does not recompute from its seed: ${check.mismatches.join('; ')}`);
      const dueMicro = applyToMicro(bet.amountMicro, bet.multiplier);
      if (bet.payoutMicro !== dueMicro)
        return broken(bet, `paid ${bet.payoutMicro} micro-USDC, amount × multiplier is ${dueMicro}`);
      const replayed = takeNonce(bet);
      return replayed === null ? null : broken(bet, replayed);
    };
    return {
      onEvent(event) {
        if (event.type !== 'casino.bet') return null;
        const bet = casino.findBet(event.betId);
        if (bet === undefined) return eventViolation(event, `bet ${event.betId} has an event but no record`);
        return judge(bet);
      },
    };
  },
};
