/**
 * placeBet: the one path every casino bet takes, whatever the style or route (single game, batch
 * element, style B, short style, tournament play, video-poker draw).
 *
 * Checks in precedence order, all before anything changes: the game is open (409 GAME_CLOSED);
 * the amount is within the game's minimum and maximum (400); the balance covers it (422
 * INSUFFICIENT_BALANCE); the amount is within the Kelly limit for this bankroll (400 with
 * `max_bet`). Then the bet takes the next nonce of the agent's active server seed, draws, and
 * settles: the stake moves to `casino-house`, the total return (floor(stake × multiplier)) moves
 * back, referral commissions follow the agent's net losses, and the bet is recorded.
 *
 * The deployed dialect's bets (`deployedRules` set) take the same checks (but the rules' one minimum
 * for every game, §2.4, instead of the game's), nonce and settlement, but
 * the deployment's engine draws them (deployed/deployed-draw.ts): its HMAC roll and rules, the
 * counter advanced past every nonce a multi-nonce game reads.
 *
 * Deliberate defects (tests and demos only): `casino-payout-short` pays 1% less on every win;
 * `casino-biased-draw` draws twice and keeps the outcome worse for the agent (the recorded proof
 * then fails verification); `casino-replayable-nonce` never advances the nonce, so the same
 * outcome repeats; `casino-skip-balance-check` lets a bet overdraw the balance; `casino-keno-8`
 * draws keno's numbers from 8 instead of 20 (the real platform's defect); `payout-table-differs`
 * pays a winning coin flip 2.00x instead of the table's 1.96x; `keno-short-draw` draws keno's 20
 * numbers from 1..79 (`playWithDefects`).
 */
import { fail, succeed, type JsonObject, type Outcome } from '../../core/errors.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { applyToMicro, compare, mul, ratio, type Ratio } from '../../core/ratio.ts';
import { betIdOfWords } from './bet-id-index.ts';
import type { BetRecord, BetSource } from './bet-record.ts';
import type { CasinoAgent } from './casino-agent.ts';
import type { DefectName } from '../shared/context.ts';
import type { CasinoState } from './casino-state.ts';
import { DrawStream } from './fair/draw-stream.ts';
import type { GameModule, GameResult } from './games/game.ts';
import { kenoPlayDefective, kenoPlayShortDraw, type KenoParams } from './games/keno.ts';
import { kellyMaxBetMicro, variantNameOf } from './kelly-rule.ts';
import { CASINO_HOUSE } from './referral-commission.ts';
import { deployedMinimumMicro, type DeployedCasinoRules } from './deployed/deployed-casino-rules.ts';
import { deployedDraw } from './deployed/deployed-draw.ts';
import { isUnreadable } from './deployed/deployed-rule.ts';
import type { ServerSeed } from './seed-book.ts';

export interface BetCommand<P = unknown> {
  readonly agentId: string;
  readonly game: GameModule<P>;
  readonly params: P;
  /** The parameters as sent, kept on the record for verification. */
  readonly paramsJson: JsonObject;
  readonly amountMicro: Micro;
  readonly clientSeed: string | null;
  readonly source: BetSource;
  readonly tournamentId?: string | null;
  /** The house already holds the stake (crash rounds hold stakes from the bet to the crash). */
  readonly stakeHeld?: boolean;
  /** An id handed out before settlement (crash-round bets); drawn at settlement otherwise. */
  readonly betId?: string;
  /** Overrides the game's variant name (crash rounds: "crash:round"). */
  readonly variant?: string;
  /** Plays the game by the deployment's engine under these rules (deployed/deployed-draw.ts) instead of afp's. */
  readonly deployedRules?: DeployedCasinoRules;
}

/** Client seeds: 1..64 printable characters without ':' (the HMAC message separator). */
export const CLIENT_SEED_PATTERN = /^[\x21-\x39\x3b-\x7e]{1,64}$/;

/** `CLIENT_SEED_PATTERN.test(text)`, by a loop over the codes (every bet that sends a seed asks). */
export function isClientSeed(text: string): boolean {
  if (text.length < 1 || text.length > 64) return false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x21 || code > 0x7e || code === 0x3a) return false;
  }
  return true;
}

/** Whether the deliberate defect `name` is on (a set lookup only when some defect is). */
function hasDefect(state: CasinoState, name: DefectName): boolean {
  return state.defective && state.ctx.defects.has(name);
}

const PAYOUT_SHORT: Ratio = ratio(99, 100);
/** checkBet's success, one frozen object (callers only read `ok`). */
const CHECKED: Outcome<null> = Object.freeze(succeed(null));

/** Everything but the draw: game open, amount range, balance, Kelly. */
export function checkBet<P>(state: CasinoState, command: BetCommand<P>): Outcome<null> {
  return checkFor(state, state.agent(command.agentId), command);
}

/** `checkBet` with the agent's record at hand (placeBet looks it up once per bet). */
function checkFor<P>(state: CasinoState, agent: CasinoAgent, command: BetCommand<P>): Outcome<null> {
  const { game, amountMicro } = command;
  if (state.closedGames.has(game.id)) return fail('GAME_CLOSED', `${game.id} is temporarily closed`);
  const rules = command.deployedRules;
  if (rules !== undefined) {
    // The deployment's one minimum for every game, in its words (§2.4: "Minimum bet is $0.01").
    const minimumMicro = deployedMinimumMicro(rules);
    if (amountMicro < minimumMicro)
      return fail('BAD_REQUEST', `Minimum bet is $${formatDecimal(minimumMicro)}`, {
        min_bet: Number(formatDecimal(minimumMicro)),
      });
  } else if (amountMicro < game.minBetMicro)
    return fail('BAD_REQUEST', `amount must be at least ${formatDecimal(game.minBetMicro)} for ${game.id}`, {
      min_bet: Number(formatDecimal(game.minBetMicro)),
    });
  if (amountMicro > game.maxBetMicro)
    return fail('BAD_REQUEST', `amount must be at most ${formatDecimal(game.maxBetMicro)} for ${game.id}`, {
      max_bet: Number(formatDecimal(game.maxBetMicro)),
    });
  const balanceMicro = state.ctx.ledger.balance(agent.account);
  const skipBalance = hasDefect(state, 'casino-skip-balance-check');
  if (!skipBalance && balanceMicro < amountMicro) {
    return fail(
      'INSUFFICIENT_BALANCE',
      `balance ${formatDecimal(balanceMicro)} is below the bet ${formatDecimal(amountMicro)}`,
    );
  }
  const maxBetMicro = kellyMaxBetMicro(state, command.agentId, game, command.params, balanceMicro);
  if (!skipBalance && amountMicro > maxBetMicro) {
    return fail('BAD_REQUEST', `amount exceeds the Kelly limit ${formatDecimal(maxBetMicro)} for this bankroll`, {
      max_bet: Number(formatDecimal(maxBetMicro)),
    });
  }
  return CHECKED;
}

export function placeBet<P>(state: CasinoState, command: BetCommand<P>, nowMs: number): Outcome<BetRecord> {
  const agent = state.agent(command.agentId);
  const checked = checkFor(state, agent, command);
  if (!checked.ok) return checked;
  const { seed, nonce } = takeNonceFor(state, agent, nowMs);
  const clientSeed = command.clientSeed ?? state.ctx.ids.next('', 16);
  if (command.deployedRules !== undefined)
    return placeDeployed(state, agent, command, command.deployedRules, { seed, nonce, clientSeed }, nowMs);
  const draws = new DrawStream(seed.hex, clientSeed, nonce, seed.keyBytes);
  let result = state.defective ? playWithDefects(state, command, draws) : command.game.play(command.params, draws);
  if (hasDefect(state, 'casino-biased-draw')) result = worseOfTwo(command, result, seed.hex, clientSeed, nonce);
  return succeed(
    settleFor(
      state,
      agent,
      command,
      {
        result,
        seedHash: seed.hash,
        clientSeed,
        nonce,
        resultHash: draws.firstBlockHex,
        resultBytes: draws.firstBlock,
      },
      nowMs,
    ),
  );
}

/**
 * The bet by the deployment's engine: an unplayable parameter gives the nonce back (nothing else has
 * changed yet) and is a 400; a multi-nonce play advances the counter past the nonces it read.
 */
function placeDeployed<P>(
  state: CasinoState,
  agent: CasinoAgent,
  command: BetCommand<P>,
  rules: DeployedCasinoRules,
  taken: { seed: ServerSeed; nonce: number; clientSeed: string },
  nowMs: number,
): Outcome<BetRecord> {
  const { seed, nonce, clientSeed } = taken;
  const drawn = deployedDraw(rules, {
    game: command.game.id,
    params: command.paramsJson,
    seedHex: seed.hex,
    clientSeed,
    nonce,
  });
  if (isUnreadable(drawn)) {
    seed.nonces -= 1;
    return fail('BAD_REQUEST', drawn.why);
  }
  seed.nonces += drawn.noncesUsed - 1;
  return succeed(
    settleFor(
      state,
      agent,
      command,
      {
        result: drawn.result,
        seedHash: seed.hash,
        clientSeed,
        nonce,
        resultHash: drawn.resultBytes.toString('hex'),
        resultBytes: drawn.resultBytes,
      },
      nowMs,
    ),
  );
}

/** The next nonce; the `casino-replayable-nonce` defect hands out the same nonce again. */
export function takeNonce(state: CasinoState, agentId: string, nowMs: number): { seed: ServerSeed; nonce: number } {
  return takeNonceFor(state, state.agent(agentId), nowMs);
}

function takeNonceFor(state: CasinoState, agent: CasinoAgent, nowMs: number): { seed: ServerSeed; nonce: number } {
  const taken = state.seeds.takeFrom((agent.seeds ??= state.seeds.seedsOf(agent.agentId, nowMs)), agent.agentId, nowMs);
  if (hasDefect(state, 'casino-replayable-nonce') && taken.nonce > 0) {
    taken.seed.nonces -= 1;
    return { seed: taken.seed, nonce: taken.nonce - 1 };
  }
  return taken;
}

const PAYOUT_TABLE_DIFFERS: Ratio = ratio(2);

/** The game's play with the defects that change a game's rules (only when some defect is on). */
function playWithDefects<P>(state: CasinoState, command: BetCommand<P>, draws: DrawStream): GameResult {
  const gameId = command.game.id;
  if (gameId === 'keno' && hasDefect(state, 'casino-keno-8'))
    return kenoPlayDefective(command.params as KenoParams, draws);
  if (gameId === 'keno' && hasDefect(state, 'keno-short-draw'))
    return kenoPlayShortDraw(command.params as KenoParams, draws);
  const result = command.game.play(command.params, draws);
  if (gameId === 'coin_flip' && hasDefect(state, 'payout-table-differs') && result.multiplier.num > 0n)
    return { ...result, multiplier: PAYOUT_TABLE_DIFFERS };
  return result;
}

function worseOfTwo<P>(
  command: BetCommand<P>,
  first: GameResult,
  seedHex: string,
  clientSeed: string,
  nonce: number,
): GameResult {
  const second = command.game.play(command.params, new DrawStream(seedHex, `${clientSeed}#`, nonce));
  return compare(second.multiplier, first.multiplier) < 0 ? second : first;
}

export interface Drawn {
  readonly result: GameResult;
  readonly seedHash: string;
  readonly clientSeed: string;
  readonly nonce: number;
  readonly resultHash: string;
  /** The 32 bytes `resultHash` is the hex of, when at hand (the bet book keeps bytes, not text). */
  readonly resultBytes?: Uint8Array;
}

/** `ids.next('bet_', 16)`: the same two draws, the same text, its words remembered (bet-id-index.ts). */
function newBetId(state: CasinoState): string {
  const high = state.ctx.ids.word();
  const low = state.ctx.ids.word();
  return betIdOfWords(high, low);
}

/** Moves the money and records the bet; the checks have passed. */
export function settle<P>(state: CasinoState, command: BetCommand<P>, drawn: Drawn, nowMs: number): BetRecord {
  return settleFor(state, state.agent(command.agentId), command, drawn, nowMs);
}

function settleFor<P>(
  state: CasinoState,
  agent: CasinoAgent,
  command: BetCommand<P>,
  drawn: Drawn,
  nowMs: number,
): BetRecord {
  // The deployment's engine pays the deployment's referral rule (per losing stake); afp's, net losses.
  const identity: SettleIdentity = {
    game: command.game.id,
    variant: command.variant ?? variantNameOf(command.game, command.params),
    referral: command.deployedRules !== undefined ? 'per-losing-stake' : 'net-losses',
  };
  return settleAs(state, agent, command, identity, drawn, nowMs);
}

/** What names a settled bet and which referral rule it pays (the deployed parlay: none, DEPLOYED.md §2.9). */
export interface SettleIdentity {
  readonly game: BetRecord['game'];
  readonly variant: string;
  readonly referral: 'net-losses' | 'per-losing-stake' | 'none';
}

/** The parts of a bet command settlement reads (a BetCommand is one). */
export type SettleInput = Pick<
  BetCommand,
  'agentId' | 'paramsJson' | 'amountMicro' | 'source' | 'tournamentId' | 'stakeHeld' | 'betId' | 'deployedRules'
>;

/** Micro-USDC a win's credit keeps back under the rules' `money.skim` (a defect: the answer shows the full win). */
function skimmedMicro(payoutMicro: Micro, rules: DeployedCasinoRules | undefined): Micro {
  const skim = rules?.money.skim ?? 0;
  return skim > 0 ? (payoutMicro * BigInt(Math.round(skim * 1_000_000))) / 1_000_000n : 0n;
}

/** Moves the money and records a bet named by `identity` (a parlay's legs settle as one bet here); the checks have passed. */
export function settleAs(
  state: CasinoState,
  agent: CasinoAgent,
  command: SettleInput,
  identity: SettleIdentity,
  drawn: Drawn,
  nowMs: number,
): BetRecord {
  const { ctx } = state;
  const { agentId, amountMicro } = command;
  const game = identity.game;
  const betId = command.betId ?? newBetId(state);
  let multiplier = drawn.result.multiplier;
  if (hasDefect(state, 'casino-payout-short') && compare(multiplier, ratio(1)) > 0)
    multiplier = mul(multiplier, PAYOUT_SHORT);
  const payoutMicro = applyToMicro(amountMicro, multiplier);
  const account = agent.account;
  moveBetMoney(state, account, command, betId, payoutMicro);
  const bet: BetRecord = {
    id: betId,
    agentId,
    game,
    variant: identity.variant,
    params: command.paramsJson,
    amountMicro,
    multiplier,
    payoutMicro,
    won: payoutMicro > amountMicro,
    clientSeed: drawn.clientSeed,
    nonce: drawn.nonce,
    seedHash: drawn.seedHash,
    resultHash: drawn.resultHash,
    detail: drawn.result.detail,
    atMs: nowMs,
    balanceAfterMicro: ctx.ledger.balance(account),
    source: command.source,
    tournamentId: command.tournamentId ?? null,
  };
  state.bets.addTo((agent.bets ??= state.bets.agentBets(agentId)), bet, drawn.resultBytes ?? null);
  state.stats.recordTo((agent.stats ??= state.stats.entryOf(agentId, nowMs)), bet);
  state.recordBankroll(bet);
  const settleReferral = {
    agents: ctx.agents,
    referrals: ctx.referrals,
    agentId,
    stakeMicro: amountMicro,
    payoutMicro,
    reference: betId,
  };
  if (identity.referral === 'per-losing-stake') state.commissions.settlePerLosingStake(settleReferral);
  else if (identity.referral === 'net-losses')
    state.commissions.settleFor((agent.commission ??= state.commissions.stateOf(agentId)), settleReferral);
  ctx.emit({
    type: 'casino.bet',
    atMs: nowMs,
    betId,
    agentId,
    game,
    variant: bet.variant,
    amountMicro,
    payoutMicro,
    source: command.source,
  });
  return bet;
}

/** The stake to the house (unless it was held when the bet was taken) and the payout to the agent, less any skim. */
function moveBetMoney(
  state: CasinoState,
  account: string,
  command: SettleInput,
  betId: string,
  payoutMicro: Micro,
): void {
  const { ctx } = state;
  const { amountMicro } = command;
  if (command.stakeHeld === true) {
    // Moved to the house when the bet was taken.
  } else if (hasDefect(state, 'casino-skip-balance-check') && ctx.ledger.balance(account) < amountMicro) {
    ctx.ledger.faultOverdraft({
      from: account,
      to: CASINO_HOUSE,
      amountMicro,
      reason: 'casino.bet.stake',
      reference: betId,
    });
  } else {
    ctx.ledger.transfer({ from: account, to: CASINO_HOUSE, amountMicro, reason: 'casino.bet.stake', reference: betId });
  }
  if (payoutMicro > 0n)
    ctx.ledger.transfer({
      from: CASINO_HOUSE,
      to: account,
      amountMicro: payoutMicro - skimmedMicro(payoutMicro, command.deployedRules),
      reason: 'casino.bet.payout',
      reference: betId,
    });
}
