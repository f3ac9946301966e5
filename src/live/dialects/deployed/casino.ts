/**
 * The deployed casino (spec/DEPLOYED.md §2): the documents' style A paths and bet answers, with
 * the deployment's own names where it differs — `balance_usd`, `previous_seed.{seed, seed_hash}`
 * on rotation, `seeds[].{seed, seed_hash}` (an unrevealed seed reads "[active - not yet revealed]"),
 * batch elements without `ok`, errors `{ error: snake_case, message }`. Each renamed field is read
 * under the deployment's name and recorded as a documented deviation from the documents.
 */
import { toMicro } from '../../../core/live-amount.ts';
import { toNumber } from '../../../core/money.ts';
import { readBet } from '../bet-answer.ts';
import { displayPlaces } from '../../documented-rules.ts';
import { readHand } from '../card-answer.ts';
import { casinoBatchRow, casinoSeedsRow, casinoWithdrawRow, revealedSeedText } from '../casino-rows.ts';
import { row, type DialectTable, type OperationRow, type DialectRequest } from '../dialect.ts';
import type { LiveBet, OperationInput } from '../../operations.ts';
import { CASINO_A, registerRequest } from '../documents/casino-a.ts';
import { challengeAcceptRow, challengeRow, tournamentCreateRow } from '../casino-pot-rows.ts';
import { tournamentEnterRow, tournamentPlayRow } from '../casino-tournament-rows.ts';
import type { WireReader } from '../../wire-reader.ts';
import { deployedPath } from '../../../http/deployed/deployed-wire.ts';

/** The decimals the deployment rounds a bet's `amount_won` to (a display field). */
const PAID_PLACES = displayPlaces('deployed', 'amount_won');

/** The game list entries read (a list is bounded like any answer: the deployment lists 18). */
const GAME_LIST_MAX = 64;

/** A game list element's name: `id` as the documents have it, else the deployment's `game` or `name`. */
function gameName(element: WireReader): string | null {
  for (const name of ['id', 'game', 'name']) {
    const value = element.any(name, { optional: true });
    if (typeof value === 'string') return value;
  }
  return null;
}

/** The draw (DEPLOYED.md §2.5): holds as five booleans, the nonce, the amount, the deal's client seed. */
function drawRequest(input: OperationInput<'casino.draw'>): DialectRequest {
  return {
    service: 'casino',
    method: 'POST',
    path: deployedPath('casino.deployed.video-poker.draw'),
    body: {
      holds: [0, 1, 2, 3, 4].map((position) => input.holds.includes(position)),
      nonce: input.nonce,
      amount: toNumber(input.amountMicro),
      client_seed: input.clientSeed,
    },
    auth: true,
  };
}

function readDraw(reader: WireReader): LiveBet | null {
  reader.knows('poker_hand', 'initial_cards', 'final_cards', 'holds');
  return readBet(reader, PAID_PLACES);
}

export const CASINO_DEPLOYED: DialectTable = {
  'casino.register': row('casino.register', {
    request: registerRequest,
    read: (reader) => {
      const agentId = reader.string('agent_id');
      const apiKey = reader.string('api_key');
      reader.knows('referral_code', 'balance', 'tier', 'risk_factor', 'referral_commission', 'message', 'next_steps');
      return agentId === null || apiKey === null ? null : { agentId, apiKey };
    },
  }),
  'casino.balance': row('casino.balance', {
    request: () => ({ service: 'casino', method: 'GET', path: deployedPath('casino.deployed.balance'), auth: true }),
    read: (reader) => {
      const agentId = reader.string('agent_id', { optional: true });
      const balance = reader.amount('balance_usd', { documents: 'balance' });
      reader.knows('tier', 'risk_factor', 'lifetime', 'recent_activity');
      return balance === null ? null : { agentId, balanceMicro: toMicro(balance).micro, balance };
    },
  }),
  'casino.games': row('casino.games', {
    request: () => ({ service: 'casino', method: 'GET', path: deployedPath('casino.deployed.games'), auth: false }),
    read: (reader) => {
      const games = reader.array('games');
      if (games === null) return null;
      const entries = games.slice(0, GAME_LIST_MAX).map((game, index) => {
        const element = reader.nested(game, `games[${index}]`);
        const id = gameName(element);
        const houseEdge = element.any('house_edge', { optional: true });
        const payout = element.any('payout', { optional: true });
        return id === null ? null : { game: id, houseEdge, payout };
      });
      const published = entries.filter((entry) => entry !== null);
      return { games: published.map((entry) => entry.game), published };
    },
  }),
  // A single bet is the documents' request and answer (DEPLOYED.md §2.4), its amount_won a display field.
  'casino.bet': {
    ...(CASINO_A['casino.bet'] as OperationRow<'casino.bet'>),
    read: (reader) => readBet(reader, PAID_PLACES),
  },
  // Video poker (DEPLOYED.md §2.5): the deal takes no amount; the draw re-deals from (seed, client
  // seed, nonce), so it sends the same client seed, and holds are five booleans.
  'casino.deal': row('casino.deal', {
    request: (input) => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.video-poker.deal'),
      body: { client_seed: input.clientSeed },
      auth: true,
    }),
    read: (reader) => {
      const nonce = reader.number('nonce');
      const cards = readHand(reader, 'cards');
      reader.knows('phase', 'message', 'instruction');
      return nonce === null || cards === null ? null : { nonce, cards };
    },
  }),
  'casino.draw': row('casino.draw', { request: drawRequest, read: readDraw }),
  // The same request at a nonce the caller picks: the deployment accepts any nonce (DEPLOYED.md §2.5).
  'casino.draw-at': row('casino.draw-at', { request: drawRequest, read: readDraw }),
  'casino.batch': casinoBatchRow({
    errorName: 'error',
    isError: () => false,
    paidPlaces: PAID_PLACES,
    known: ['kelly_max_next_bet', 'kelly_tip'],
  }),
  'casino.rotate': row('casino.rotate', {
    request: () => ({
      service: 'casino',
      method: 'POST',
      path: deployedPath('casino.deployed.fairness.rotate'),
      auth: true,
    }),
    read: (reader) => {
      reader.knows('message', 'new_seed_hash');
      // DEPLOYED.md §2.7 documents a second answer, `{message: "No active seed to rotate"}`, for an
      // account with no seed yet (a seed is made at first use, §2.3): nothing revealed, nothing missing.
      if (!reader.has('previous_seed') && !reader.has('new_seed_hash') && reader.has('message'))
        return { revealedSeed: null, revealedSeedHash: null };
      if (reader.object('previous_seed', { documents: 'revealed', optional: true }) === null)
        return { revealedSeed: null, revealedSeedHash: null };
      const seed = reader.string('previous_seed.seed', { documents: 'revealed.server_seed' });
      const hash = reader.string('previous_seed.seed_hash', { documents: 'revealed.server_seed_hash' });
      return { revealedSeed: revealedSeedText(seed), revealedSeedHash: hash };
    },
  }),
  'casino.seeds': casinoSeedsRow({
    seedHash: ['seed_hash', 'server_seed_hash'],
    seed: ['seed', 'server_seed'],
    known: [],
    elementKnown: ['id', 'active', 'bets_made', 'revealed_at', 'created_at'],
  }),
  'casino.withdraw': casinoWithdrawRow([
    'withdrawal_id',
    'amount',
    'fee',
    'chain',
    'token',
    'address',
    'tx_hash',
    'explorer',
    'message',
  ]),
  // Tournaments and challenges (§2.10, §2.11): `_usdc` create amounts, unix-second instants.
  'casino.tournament-create': tournamentCreateRow({
    entryFee: 'entry_fee_usdc',
    prizePool: 'prize_pool_usdc',
    instant: (ms) => Math.floor(ms / 1000),
    known: ['name', 'game', 'entry_fee', 'max_agents', 'starts_at', 'ends_at', 'status', 'message'],
  }),
  'casino.tournament-enter': tournamentEnterRow(),
  'casino.tournament-play': tournamentPlayRow(PAID_PLACES),
  'casino.challenge': challengeRow(['challenger_id', 'challenged_id', 'game', 'amount', 'message', 'note']),
  'casino.challenge-accept': challengeAcceptRow({
    payout: 'payout_to_winner',
    payoutDocuments: 'payout',
    known: ['challenge_id', 'loser', 'game', 'amount', 'game_result', 'proof', 'message'],
  }),
};
