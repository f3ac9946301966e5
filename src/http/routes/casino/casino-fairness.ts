/**
 * Casino fairness rows, style A (mount 'casino'): the active seed's commitment, rotation on
 * request (reveals the retired seed), the seeds list (revealed texts shown), verification of a
 * past bet (`{ bet_id }`; "seed not yet revealed" until rotation), and a bet's audit trail (owner
 * only). The proof rules are published in docs/fairness.md.
 */
import { fail, isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import { BET_ID_PATTERN, type BetRecord } from '../../../services/casino/bet-record.ts';
import type { Verification } from '../../../services/casino/fairness.ts';
import type { ServerSeed } from '../../../services/casino/seed-book.ts';
import { isoTime, moneyA } from '../../render.ts';
import { listCall } from '../../list-call.ts';
import { defineRoute, type Route } from '../../route.ts';
import { bodyOnly, knownQuery, NO_KEYS, noInput, requiredString } from '../../validate.ts';
import { casinoCaller } from './casino-games.ts';
import { proofOf, seedView, verificationView } from './casino-render.ts';

function betIdOf(value: string | Failure): string | Failure {
  if (isFailure(value)) return value;
  return BET_ID_PATTERN.test(value) ? value : fail('BAD_REQUEST', 'bet_id must be bet_ followed by 16 hex characters');
}

const seedHash = defineRoute<null, ServerSeed>({
  id: 'casino.A.fairness.seed-hash',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/fairness/seed-hash',
  auth: 'bearer',
  summary: 'The commitment (SHA-256) of your active server seed and its next nonce.',
  parse: noInput,
  run: (context) => succeed(context.platform.casino.seedHash(casinoCaller(context), context.nowMs)),
  successStatus: 200,
  render: (seed) => ({ server_seed_hash: seed.hash, next_nonce: seed.nonces, created_at: isoTime(seed.createdAtMs) }),
});

const rotate = defineRoute<null, { revealed: ServerSeed; active: ServerSeed }>({
  id: 'casino.A.fairness.rotate',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/fairness/rotate',
  auth: 'bearer',
  summary: 'Retire and reveal your server seed now; a fresh one becomes active.',
  parse: noInput,
  run: (context) => succeed(context.platform.casino.rotate(casinoCaller(context), context.nowMs)),
  successStatus: 200,
  render: ({ revealed, active }) => ({
    revealed: seedView(revealed, false),
    active: { server_seed_hash: active.hash, next_nonce: active.nonces },
  }),
});

const seeds = listCall(
  { items: ['seeds'], count: 'count' },
  defineRoute<null, readonly ServerSeed[]>({
    id: 'casino.A.fairness.seeds',
    service: 'casino',
    style: 'A',
    mount: 'casino',
    method: 'GET',
    path: '/api/v1/fairness/seeds',
    auth: 'bearer',
    summary: 'Your server seeds, newest first (at most 100); revealed ones with their text.',
    parse: noInput,
    run: (context) => succeed(context.platform.casino.seeds(casinoCaller(context), context.nowMs)),
    successStatus: 200,
    render: (list) => ({ seeds: list.map((seed, index) => seedView(seed, index === 0)), count: list.length }),
  }),
);

const VERIFY_KEYS = ['bet_id'];

const verify = defineRoute<string, Verification>({
  id: 'casino.A.fairness.verify',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/fairness/verify',
  auth: 'bearer',
  summary: 'Verify a past bet from its revealed seed ("seed not yet revealed" until rotation).',
  parse: (input) => {
    const fields = bodyOnly(input, VERIFY_KEYS);
    return isFailure(fields) ? fields : betIdOf(requiredString(fields['bet_id'], 'bet_id', 64));
  },
  run: (context, betId) => context.platform.casino.verify(casinoCaller(context), betId),
  successStatus: 200,
  render: (verification) => verificationView(verification),
});

const audit = defineRoute<string, Verification>({
  id: 'casino.A.fairness.audit',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/fairness/audit/:betId',
  auth: 'bearer',
  summary: 'The audit trail of one of your bets: inputs, proof, outcome and verification.',
  parse: (input) => knownQuery(input.query, NO_KEYS) ?? betIdOf(input.params['betId'] ?? ''),
  run: (context, betId) => context.platform.casino.verify(casinoCaller(context), betId),
  successStatus: 200,
  render: (verification) => auditView(verification.bet, verification),
});

function auditView(bet: BetRecord, verification: Verification): JsonObject {
  return {
    bet_id: bet.id,
    game: bet.game,
    variant: bet.variant,
    parameters: structuredClone(bet.params),
    amount: moneyA(bet.amountMicro),
    payout: moneyA(bet.payoutMicro),
    won: bet.won,
    placed_at: isoTime(bet.atMs),
    source: bet.source,
    balance_after: moneyA(bet.balanceAfterMicro),
    proof: proofOf(bet),
    verification: verificationView(verification),
  };
}

export const casinoFairnessRoutes: readonly Route[] = [seedHash, verify, audit, rotate, seeds];
