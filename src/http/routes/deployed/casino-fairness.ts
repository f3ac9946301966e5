/**
 * The deployed casino's fairness rows (spec/DEPLOYED.md §2.7) over afp's style A rows and the
 * deployment's scheme (§2.3: `result_hash = HMAC-SHA256(seed hex, "<client_seed>:<nonce>")`, the
 * roll `(parseInt(hash[0..8], 16) % 10000) / 100`): seed-hash, verify (`{ bet_id }`, or
 * `{ server_seed, server_seed_hash, client_seed, nonce }`; neither → 400 `missing_params`), the
 * audit of one of your bets (another's → 403 `forbidden`), rotate, seeds (revealed ones with their
 * text). `result`/`computed_result` is the roll; a bet's `verified` replays it by the stand-in's
 * published rules (deployed-rules-of.ts: a defect that changes a game shows here; the deployment's
 * own verify checks the hash and roll only). Nearest values: verify keeps afp's owner rule (another agent's bet
 * → 403); a seed's `id` is its place in your history (1 = oldest).
 */
import { hash } from 'node:crypto';
import { succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import { BET_ID_PATTERN } from '../../../services/casino/bet-record.ts';
import type { DeployedCasinoRules } from '../../../services/casino/deployed/deployed-casino-rules.ts';
import { deployedMismatches } from '../../../services/casino/deployed/deployed-draw.ts';
import { hmacHex, rollOfHash } from '../../../services/casino/deployed/deployed-roll.ts';
import type { Verification } from '../../../services/casino/fairness.ts';
import type { ServerSeed } from '../../../services/casino/seed-book.ts';
import { deployedFailure, renamed } from '../../deployed/deployed-errors.ts';
import { isoTime, moneyA } from '../../render.ts';
import type { Route } from '../../route.ts';
import { isClientSeed } from '../../../services/casino/place-bet.ts';
import { casinoCaller } from '../casino/casino-games.ts';
import { jsonCopy } from '../json-copy.ts';
import { exactNumber } from './casino-bet-answer.ts';
import { publishedRulesOf } from './deployed-rules-of.ts';
import { deployedRoute, adaptedRow } from './deployed-row.ts';

const HOW_TO_VERIFY =
  'result_hash = HMAC-SHA256(key = server seed hex, message = "<client_seed>:<nonce>"); roll = (parseInt(result_hash[0..8], 16) % 10000) / 100; sha256(server seed hex) = server_seed_hash.';
const HIDDEN = '[hidden until seed rotation]';

const betRefusal = (failure: Failure): Failure =>
  failure.code === 'NOT_FOUND' ? renamed(failure, 'bet_not_found') : failure;

const seedHash = adaptedRow('casino.A.fairness.seed-hash', {
  id: 'casino.deployed.fairness.seed-hash',
  summary: 'The commitment (SHA-256) of your active server seed.',
  bodyKeys: [],
  render: (value) => ({
    server_seed_hash: (value as ServerSeed).hash,
    note: 'The seed is revealed when it is rotated (POST /api/v1/fairness/rotate) or after 1000 bets.',
    how_to_verify: HOW_TO_VERIFY,
  }),
});

function firstDraw(seedHex: string, clientSeed: string, nonce: number): { resultHash: string; result: number } {
  const resultHash = hmacHex(seedHex, `${clientSeed}:${nonce}`);
  return { resultHash, result: rollOfHash(resultHash) };
}

function verifiedBet(verification: Verification, rules: DeployedCasinoRules): JsonObject {
  const { bet, serverSeed } = verification;
  if (serverSeed === null) {
    return {
      bet_id: bet.id,
      status: 'seed_not_yet_revealed',
      server_seed_hash: bet.seedHash,
      client_seed: bet.clientSeed,
      nonce: bet.nonce,
      result_hash: bet.resultHash,
      message: 'The server seed of this bet is still active: rotate it (POST /api/v1/fairness/rotate) to verify.',
      note: HOW_TO_VERIFY,
    };
  }
  const computed = firstDraw(serverSeed, bet.clientSeed, bet.nonce);
  return {
    bet_id: bet.id,
    verified: deployedMismatches(rules, { ...bet, params: bet.params }, serverSeed).length === 0,
    game: bet.game,
    result: jsonCopy(bet.detail),
    won: bet.multiplier.num > 0n,
    amount_bet: moneyA(bet.amountMicro),
    amount_won: moneyA(bet.payoutMicro),
    proof: {
      server_seed: serverSeed,
      server_seed_hash: bet.seedHash,
      client_seed: bet.clientSeed,
      nonce: bet.nonce,
      result_hash: bet.resultHash,
      computed_result: computed.result,
      hash_matches: computed.resultHash === bet.resultHash && hash('sha256', serverSeed) === bet.seedHash,
    },
    how_to_verify_yourself: HOW_TO_VERIFY,
  };
}

type VerifyCommand =
  | { readonly betId: string }
  | { readonly seed: string; readonly seedHash: string; readonly clientSeed: string; readonly nonce: number };

function parseVerify(body: unknown): VerifyCommand | Failure {
  const fields = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const { bet_id: betId, server_seed: seed, server_seed_hash: seedHash, client_seed: clientSeed, nonce } = fields;
  if (typeof betId === 'string')
    return BET_ID_PATTERN.test(betId)
      ? { betId }
      : deployedFailure(404, 'bet_not_found', `bet ${betId.slice(0, 64)} not found`);
  if (
    typeof seed !== 'string' ||
    typeof seedHash !== 'string' ||
    typeof clientSeed !== 'string' ||
    typeof nonce !== 'number'
  ) {
    return deployedFailure(
      400,
      'missing_params',
      'Provide bet_id, or server_seed, server_seed_hash, client_seed and nonce',
    );
  }
  if (!/^[0-9a-f]{64}$/.test(seed) || !isClientSeed(clientSeed) || !Number.isSafeInteger(nonce) || nonce < 0) {
    return deployedFailure(
      400,
      'invalid_params',
      'server_seed must be 64 lowercase hex characters, client_seed 1 to 64 printable characters without ":", nonce a whole number ≥ 0',
    );
  }
  return { seed, seedHash, clientSeed, nonce };
}

const verify = deployedRoute<VerifyCommand, JsonObject>({
  id: 'casino.deployed.fairness.verify',
  service: 'casino',
  style: 'deployed',
  auth: 'bearer',
  summary: 'Verify one of your bets ({ bet_id }) or a seed, client seed and nonce.',
  parse: (input) => parseVerify(input.body),
  run: (context, command) => {
    if ('betId' in command) {
      const verification = context.platform.casino.verify(casinoCaller(context), command.betId);
      return verification.ok
        ? succeed(verifiedBet(verification.value, publishedRulesOf(context)))
        : betRefusal(verification);
    }
    const computed = firstDraw(command.seed, command.clientSeed, command.nonce);
    const hashMatches = hash('sha256', command.seed) === command.seedHash;
    return succeed({
      verified: hashMatches,
      result: computed.result,
      result_hash: computed.resultHash,
      hash_matches: hashMatches,
    });
  },
  successStatus: 200,
  render: (answer) => ({ ...answer }),
});

const audit = adaptedRow('casino.A.fairness.audit', {
  id: 'casino.deployed.fairness.audit',
  summary: 'The audit trail of one of your bets.',
  bodyKeys: [],
  refusal: betRefusal,
  render: (value) => {
    const { bet, serverSeed, revealedAtMs } = value as Verification;
    return {
      bet_id: bet.id,
      game: bet.game,
      amount: moneyA(bet.amountMicro),
      payout_multiplier: exactNumber(bet.multiplier),
      won: bet.multiplier.num > 0n,
      amount_won: moneyA(bet.payoutMicro),
      result: jsonCopy(bet.detail),
      fairness: {
        server_seed_hash: bet.seedHash,
        server_seed: serverSeed ?? HIDDEN,
        client_seed: bet.clientSeed,
        nonce: bet.nonce,
        result_hash: bet.resultHash,
        seed_revealed: serverSeed !== null,
        seed_revealed_at: revealedAtMs === null ? null : isoTime(revealedAtMs),
      },
      timestamp: isoTime(bet.atMs),
    };
  },
});

const rotate = adaptedRow('casino.A.fairness.rotate', {
  id: 'casino.deployed.fairness.rotate',
  summary: 'Retire and reveal your server seed now; a fresh one becomes active.',
  bodyKeys: [],
  render: (value) => {
    const { revealed, active } = value as { revealed: ServerSeed; active: ServerSeed };
    return {
      message: 'Seed rotated. The previous seed is revealed: verify its bets with POST /api/v1/fairness/verify.',
      previous_seed: {
        seed: revealed.hex,
        seed_hash: revealed.hash,
        bets_made: revealed.nonces,
        note: 'sha256(seed) equals seed_hash',
      },
      new_seed_hash: active.hash,
    };
  },
});

function seedLine(seed: ServerSeed, index: number, count: number): JsonObject {
  const active = index === 0 && seed.revealedAtMs === null;
  const text =
    seed.revealedAtMs !== null ? seed.hex : active ? '[active - not yet revealed]' : '[retired - not yet revealed]';
  return {
    id: count - index,
    seed_hash: seed.hash,
    seed: text,
    active,
    bets_made: seed.nonces,
    revealed_at: seed.revealedAtMs === null ? null : isoTime(seed.revealedAtMs),
    created_at: isoTime(seed.createdAtMs),
  };
}

const seeds = adaptedRow('casino.A.fairness.seeds', {
  id: 'casino.deployed.fairness.seeds',
  summary: 'Your server seeds, newest first; revealed ones with their text.',
  bodyKeys: [],
  render: (value) => {
    const list = value as readonly ServerSeed[];
    return { seeds: list.map((seed, index) => seedLine(seed, index, list.length)) };
  },
});

export const deployedFairnessRoutes: readonly Route[] = [seedHash, verify, audit, rotate, seeds];
