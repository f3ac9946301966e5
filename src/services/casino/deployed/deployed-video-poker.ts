/**
 * Video poker by the deployment's engine (spec/DEPLOYED.md §2.5) inside afp's two-phase hands
 * (video-poker-hands.ts keeps afp's committed stake): the deal shows the deployed deal of the
 * hand's nonce (nonces n … n+4 of a shrinking pool), as afp cards so afp's hold parsing and
 * optimal strategy apply; the draw is the deployed rule's play of that nonce with the holds.
 * Deployed card index = rank (2 … A) + 13·suit; afp card = suit·13 + (rank − 1) with the ace 1.
 */
import type { Card } from '../games/cards.ts';
import { cardOf } from '../games/cards.ts';
import type { DeployedCasinoRules } from './deployed-casino-rules.ts';
import { deployedDraw, type DeployedDraw } from './deployed-draw.ts';
import { RollSource, type Unreadable } from './deployed-rule.ts';
import { videoPokerDeal } from './video-poker-rule.ts';

const HAND = 5;

/** A deployed card index as afp's card. */
export function afpCardOf(deployedCard: number): Card {
  const rankIndex = deployedCard % 13;
  return cardOf(rankIndex === 12 ? 1 : rankIndex + 2, Math.floor(deployedCard / 13));
}

/** The deployed deal of (seed, client seed, nonce), as afp cards. */
export function deployedDealCards(seedHex: string, clientSeed: string, nonce: number): Card[] {
  return videoPokerDeal(new RollSource(seedHex, clientSeed, nonce), nonce).map(afpCardOf);
}

/** The draw of a dealt hand holding `positions` (0–4), played by `rules`. */
export function deployedVideoPokerDraw(
  rules: DeployedCasinoRules,
  hand: { seedHex: string; clientSeed: string; nonce: number },
  positions: readonly number[],
): DeployedDraw | Unreadable {
  const holds = Array.from({ length: HAND }, (_, index) => positions.includes(index));
  return deployedDraw(rules, {
    game: 'video_poker',
    params: { holds, nonce: hand.nonce },
    seedHex: hand.seedHex,
    clientSeed: hand.clientSeed,
    nonce: hand.nonce,
  });
}
