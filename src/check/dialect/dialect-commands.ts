/**
 * The commands of `afp check --target` through a target's dialects, one row per command: the
 * afp operations it sends (a row whose operation the target's dialect does not offer is left out
 * of the generated sequences, with a note), the accounts it needs, its weight and the arbitrary of
 * its inputs. Each command predicts from the model (dialect-model.ts), sends through the
 * LiveSession, and compares: a broken money or nonce rule throws CheckMismatch (fast-check shrinks
 * the sequence); a status or error name the dialect documents otherwise than the documents is a
 * finding (documented-rules.ts), never a failure; every wire deviation is a finding (the session).
 * Amounts are tiny (bets of 0.01 to 0.05 while the balance covers twenty of them, escrows of 0.10
 * to 0.25), so a run costs cents on a deployment.
 * One piece: a table, one row per command (its operations, accounts, weight, inputs and check),
 * the list the generated sequences draw from; a command is added by adding its row.
 */
import { displayRoundingMicro } from '../../core/live-amount.ts';
import { hash } from 'node:crypto';
import fc from 'fast-check';
import { formatDecimal, type Micro } from '../../core/money.ts';
import { betCredit } from '../../live/bet-credit.ts';
import type { FindingInput } from '../../live/finding.ts';
import { findingOf, judge, type RuleName } from '../../live/documented-rules.ts';
import type { CallOutcome, SentRequest } from '../../live/live-session.ts';
import {
  isRefusal,
  type BetInput,
  type LiveBet,
  type OperationInput,
  type OperationName,
  type OperationResult,
  type Refusal,
} from '../../live/operations.ts';
import { statedBatchMaximum } from '../../live/stated-batch-maximum.ts';
import { kellyNamed, statedKellyLimitMicro } from '../../live/stated-kelly-limit.ts';
import { documentsMinimumMicro, minimumBetFinding, minimumRefusal } from '../../live/stated-minimum.ts';
import type { ServiceName } from '../../platform/platform.ts';
import type { Target } from '../../live/target.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import { CheckUnavailable } from '../check-unavailable.ts';
import { TargetOutage, throwIfOutage } from './target-outage.ts';
import {
  accountAt,
  betAmountFor,
  escrowFeeMicro,
  ESCROWS_MAX,
  spendableMicro,
  stakeFor,
  type DialectAccount,
  type DialectEscrow,
  type DialectModel,
  type DialectSystem,
} from './dialect-model.ts';

export type DialectCommand = fc.AsyncCommand<DialectModel, DialectSystem>;

export interface DialectCommandRow {
  readonly name: string;
  readonly operations: readonly OperationName[];
  /** Accounts the command needs (escrows need two). */
  readonly accounts: number;
  /** Why the command cannot be sent to `target` beyond its operations, or null. */
  readonly applies?: (target: Target) => string | null;
  /** A service keeping accounts of its own (trading, domains, wallet): the row needs the check's accounts there. */
  readonly service?: 'trading' | 'domains' | 'wallet';
  readonly weight: number;
  readonly arbitrary: fc.Arbitrary<DialectCommand>;
}

const UNKNOWN_KEY = `sk_live_${'0'.repeat(48)}`;
const WITHDRAW_ADDRESS = `0x${'a1'.repeat(20)}`;
/** A bet is drawn only while the account can pay this many of it (so the documents' Kelly limit never binds). */
const BET_COVER = 20n;

export class Command implements DialectCommand {
  readonly label: string;
  private readonly applicable: (model: Readonly<DialectModel>) => boolean;
  private readonly body: (model: DialectModel, system: DialectSystem) => Promise<void>;

  constructor(
    label: string,
    applicable: (model: Readonly<DialectModel>) => boolean,
    body: (model: DialectModel, system: DialectSystem) => Promise<void>,
  ) {
    this.label = label;
    this.applicable = applicable;
    this.body = body;
  }

  check(model: Readonly<DialectModel>): boolean {
    return this.applicable(model);
  }

  async run(model: DialectModel, system: DialectSystem): Promise<void> {
    try {
      await this.body(model, system);
    } catch (error) {
      // An announced outage's answer changed nothing: the command is skipped, not judged.
      if (!(error instanceof TargetOutage)) throw error;
      system.outageMet?.(this.label);
    }
  }

  toString(): string {
    return this.label;
  }
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);
const text = (micro: Micro): string => formatDecimal(micro);

/**
 * Sends `op`; a call that got no answer, or was paced past the time budget, means the check cannot
 * go on (CheckUnavailable: exit 4), never a mismatch; an operation the dialect cannot send is a bug
 * (the rows were filtered by what the session offers).
 */
export async function send<O extends OperationName>(
  system: DialectSystem,
  label: string,
  op: O,
  input: OperationInput<O>,
  apiKey: string | null,
): Promise<CallOutcome<OperationResult<O>>> {
  const outcome = await system.session.call(op, input, apiKey);
  await throwIfOutage(system, label, op, outcome);
  if (outcome.kind === 'unreachable') throw new CheckUnavailable(`${label}: ${outcome.message}`);
  if (outcome.kind === 'deadline') throw new CheckUnavailable(`${label}: rate limited past the time budget`);
  if (outcome.kind === 'unsupported') throw new Error(`${label}: ${outcome.reason}`);
  return outcome;
}

export async function accepted<O extends OperationName>(
  system: DialectSystem,
  label: string,
  op: O,
  input: OperationInput<O>,
  apiKey: string | null,
): Promise<{ value: OperationResult<O>; request: SentRequest }> {
  return acceptedOutcome(label, await send(system, label, op, input, apiKey));
}

/** An outcome `send` gave back, which must be an accepted answer. */
export function acceptedOutcome<R>(label: string, outcome: CallOutcome<R>): { value: R; request: SentRequest } {
  if (outcome.kind === 'ok') return { value: outcome.value, request: outcome.request };
  if (outcome.kind === 'refused')
    throw new CheckMismatch(
      `${label}: refused ${outcome.refusal.status} ${outcome.refusal.name} (${outcome.refusal.message}), expected it accepted`,
    );
  throw new CheckMismatch(`${label}: the answer could not be read (${outcome.kind}; see the shape findings)`);
}

export async function refused<O extends OperationName>(
  system: DialectSystem,
  label: string,
  op: O,
  input: OperationInput<O>,
  apiKey: string | null,
): Promise<{ text: string; request: SentRequest }> {
  const outcome = await send(system, label, op, input, apiKey);
  if (outcome.kind === 'refused')
    return { text: `${outcome.refusal.status} ${outcome.refusal.name}`, request: outcome.request };
  throw new CheckMismatch(
    `${label}: accepted (${outcome.kind === 'ok' || outcome.kind === 'unreadable' ? outcome.status : outcome.kind}), expected a refusal`,
  );
}

export function judged(
  system: DialectSystem,
  label: string,
  rule: RuleName,
  op: OperationName,
  seen: string,
  request: SentRequest,
): void {
  const dialect = system.session.target.services[op.split('.')[0] as ServiceName]?.dialect ?? 'A';
  const context = {
    endpoint: op,
    evidence: `${label}: ${request.method} ${request.url} answered ${seen}`,
    reproduce: system.curlOf(request),
  };
  const verdict = judge(rule, dialect, seen, context);
  // Another state of the same record (an escrow still held shown released) contradicts the run.
  if (verdict.verdict === 'fail' && verdict.contradicts) throw new CheckMismatch(`${label}: ${verdict.detail}`);
  // Any other value neither the documents nor the dialect give is the target's own rule (minor), not a broken run.
  const finding = findingOf(verdict, rule, seen, context);
  if (finding !== null) system.raise(finding);
}

/**
 * The rounding a shown casino figure may carry: none where the dialect shows amounts exactly, else
 * half a unit of its published places (model.roundingMicro) or of the fewer places it shows (a
 * target rounding its display fields to 1 or 0 places: measured per figure, core/live-amount.ts).
 */
function shownRounding(model: DialectModel, shown: Micro | null): Micro {
  // displayRoundingMicro at 2 places is never below the published half cent (model.roundingMicro).
  return model.roundingMicro === 0n || shown === null ? model.roundingMicro : displayRoundingMicro(shown, 2);
}

function near(label: string, seen: Micro | null, expected: Micro, slack: Micro): void {
  if (seen !== null && abs(seen - expected) > slack)
    throw new CheckMismatch(
      `${label}: ${text(seen)}, expected ${text(expected)}${slack > 0n ? ` (± ${text(slack)})` : ''}`,
    );
}

/** Checks a placed bet against the account's seed and nonce, and books its money. */
function observeBet(model: DialectModel, account: DialectAccount, bet: LiveBet, sent: BetInput, label: string): void {
  if (bet.game !== sent.game || bet.amountMicro !== sent.amountMicro || bet.clientSeed !== sent.clientSeed) {
    throw new CheckMismatch(
      `${label}: answered ${bet.game} ${text(bet.amountMicro)} '${bet.clientSeed}', sent ${sent.game} ${text(sent.amountMicro)} '${sent.clientSeed}'`,
    );
  }
  const previous = account.seed;
  if (account.rotatedHash !== null && (bet.seedHash === account.rotatedHash || bet.nonce !== 0))
    throw new CheckMismatch(
      `${label}: after a rotation the bet is on seed ${bet.seedHash.slice(0, 12)}… nonce ${bet.nonce}, expected a new seed at nonce 0`,
    );
  if (previous !== null && previous.hash === bet.seedHash && bet.nonce !== previous.nonce + 1)
    throw new CheckMismatch(`${label}: nonce ${bet.nonce} on the same seed, expected ${previous.nonce + 1}`);
  if (previous !== null && previous.hash !== bet.seedHash && bet.nonce !== 0)
    throw new CheckMismatch(`${label}: a new seed at nonce ${bet.nonce}, expected 0`);
  // The credit is stake × multiplier where the answer rounds amount_won (a display field), never the rounded figure.
  const credit = betCredit(bet);
  if (!credit.ok && !(credit.unstated && bet.paidMicro !== null))
    throw new CheckMismatch(`${label}: ${credit.problem}`);
  account.seed = { hash: bet.seedHash, nonce: bet.nonce };
  account.rotatedHash = null;
  const placed = model.placedMinimums.get(bet.game);
  if (placed === undefined || bet.amountMicro < placed) model.placedMinimums.set(bet.game, bet.amountMicro);
  if (credit.ok) {
    account.balanceMicro = account.balanceMicro - bet.amountMicro + credit.micro;
    // A credit with digits below the micro (kept by the target, rounded by the model) leaves up to a micro.
    if (!credit.exact) account.slackMicro += 1n;
  } else {
    // A rounded amount_won and no multiplier: the credit is known to its rounding only (the shape findings say what is missing).
    account.balanceMicro = account.balanceMicro - bet.amountMicro + (bet.paidMicro ?? 0n);
    account.slackMicro += shownRounding(model, bet.paidMicro);
  }
  near(
    `${label}: new balance = previous − stake + return`,
    bet.balanceAfterMicro,
    account.balanceMicro,
    account.slackMicro + shownRounding(model, bet.balanceAfterMicro),
  );
}

const slot = fc.constantFrom(0, 0, 1);

/** A command of one account (a0 twice as often as a1), labelled `name(aN)`; its condition (null: always) and body get the account. */
function accountCommand(
  name: string,
  applies: ((account: Readonly<DialectAccount>) => boolean) | null,
  body: (account: DialectAccount, label: string, system: DialectSystem, model: DialectModel) => Promise<void>,
): fc.Arbitrary<DialectCommand> {
  return slot.map((at) => {
    const label = `${name}(a${at})`;
    return new Command(
      label,
      (model) => applies === null || applies(accountAt(model, at)),
      async (model, system) => body(accountAt(model, at), label, system, model),
    );
  });
}

const betAmount = fc.constantFrom(10_000n, 20_000n, 50_000n);
const betChoice = fc.constantFrom<Pick<BetInput, 'game' | 'params'>>(
  { game: 'coin_flip', params: { side: 'heads' } },
  { game: 'coin_flip', params: { side: 'tails' } },
  { game: 'dice', params: { direction: 'over', threshold: 50 } },
  { game: 'dice', params: { direction: 'under', threshold: 50 } },
);
const seedTag = fc.integer({ min: 0, max: 9_999 });

function betInput(choice: Pick<BetInput, 'game' | 'params'>, amountMicro: Micro, tag: number): BetInput {
  return { ...choice, amountMicro, clientSeed: `afp-check-${tag}` };
}

/**
 * What a minimum bet stated with no amount is learned as: the refused stake plus one cent (the
 * documents' smallest bet and the step of their amounts), so later bets of the game climb to the
 * target's minimum a cent at a time instead of being refused at the same stake again.
 */
const UNSTATED_MINIMUM_STEP_MICRO: Micro = 10_000n;

/**
 * A refusal below the target's own minimum for `key` (a game, or ESCROW_MINIMUM): one that states
 * it above `sentMicro` (stated-minimum.ts), or, where `unstated` allows it, one named as the
 * minimum rule that states no amount (learned as `sentMicro` + UNSTATED_MINIMUM_STEP_MICRO), unless
 * a bet of `key` at or below `sentMicro` was already placed (model.placedMinimums: the target's own
 * answers then contradict the refusal). Learned in `model.minimums` (later bets or escrows go out
 * at it) with `finding` raised each time it rises (its `statedMicro` null for an unstated one),
 * and true; the refusal moved nothing. Any other refusal: false.
 */
function learnedMinimum(
  system: DialectSystem,
  model: DialectModel,
  key: string,
  sentMicro: Micro,
  refusal: Refusal,
  unstated: boolean,
  finding: (statedMicro: Micro | null, learnedMicro: Micro) => FindingInput,
): boolean {
  const read = minimumRefusal(refusal, sentMicro);
  if (read === null) return false;
  if (read.kind === 'unstated') {
    const placed = model.placedMinimums.get(key);
    if (!unstated || (placed !== undefined && placed <= sentMicro)) return false;
  }
  const learned = read.kind === 'stated' ? read.micro : sentMicro + UNSTATED_MINIMUM_STEP_MICRO;
  const known = model.minimums.get(key);
  if (known === undefined || learned > known) {
    model.minimums.set(key, learned);
    system.raise(finding(read.kind === 'stated' ? read.micro : null, learned));
  }
  return true;
}

/** A bet (or a batch element) the target refused: what was sent, by whom, and the refusal. */
interface RefusedBet {
  readonly label: string;
  readonly account: Readonly<DialectAccount>;
  readonly sent: BetInput;
  readonly refusal: Refusal;
  readonly request: SentRequest | null;
}

/**
 * A bet refused below its game's minimum, stated or named without an amount (learnedMinimum), with
 * the minimum-bet finding: expected the documents' minimum of the casino's dialect, seen the stake refused.
 */
function learnedBetMinimum(system: DialectSystem, model: DialectModel, refused: RefusedBet): boolean {
  const { label, sent, refusal, request } = refused;
  const dialect = system.session.target.services.casino?.dialect ?? 'A';
  return learnedMinimum(system, model, sent.game, sent.amountMicro, refusal, true, (statedMicro, learnedMicro) =>
    minimumBetFinding({
      game: sent.game,
      statedMicro,
      sentMicro: sent.amountMicro,
      documentsMicro: documentsMinimumMicro(sent.game, dialect),
      refusal,
      then: statedMicro === null ? `later bets go out at ${text(learnedMicro)} or more` : 'later bets go out at it',
      evidence: `${label}: ${refusal.message}`,
      ...(request === null ? {} : { reproduce: system.curlOf(request) }),
    }),
  );
}

/**
 * A bet refused above a Kelly limit the target states below the stake (stated-kelly-limit.ts), or
 * refused by an error named as the Kelly rule that states no limit (the share is then taken as half
 * the stake refused, and halves again at each such refusal): learned with the balance it was met at
 * (later bets of the game stake within that share of the balance: stakeFor), with a rule finding
 * the first time for the game (minor, saying so where the limit is below the game's minimum, so
 * that no bet of it can be placed), and true; the refusal moved nothing. A share only falls. Why the
 * unstated one too: the risk factor is the deployment's to set (DEPLOYED.md §2.8), so a Kelly
 * refusal of a stake the documents' default allows is the target's rule at work, not a mismatch.
 * Any other refusal: false.
 */
function learnedKellyLimit(system: DialectSystem, model: DialectModel, refused: RefusedBet): boolean {
  const { label, account, sent, refusal, request } = refused;
  const stated = statedKellyLimitMicro(refusal, sent.amountMicro);
  if (stated === null && !kellyNamed(refusal)) return false;
  const limitMicro = stated ?? sent.amountMicro / 2n;
  const balanceMicro = account.balanceMicro;
  const known = model.kellyLimits.get(sent.game);
  if (known === undefined || limitMicro * known.balanceMicro < known.limitMicro * balanceMicro)
    model.kellyLimits.set(sent.game, { limitMicro, balanceMicro });
  if (known !== undefined) return true;
  const minimumMicro = model.minimums.get(sent.game) ?? 10_000n;
  // One decimal, or two significant digits below 0.1% (0.02 of 200 read "0.0%").
  const percent = balanceMicro > 0n ? Number((limitMicro * 100_000_000n) / balanceMicro) / 1_000_000 : null;
  const share = percent === null ? 'all' : `${percent < 0.1 ? percent.toPrecision(2) : percent.toFixed(1)}%`;
  const forbids = limitMicro < minimumMicro;
  const limit =
    stated === null
      ? `below ${text(sent.amountMicro)} (its refusal, ${refusal.name}, states no limit) on a balance of ${text(balanceMicro)}`
      : `${text(stated)} on a balance of ${text(balanceMicro)}`;
  const within =
    stated === null
      ? `later bets stake within half the stake refused (${share} of the balance), halved again at each such refusal`
      : 'later bets stake within that share';
  system.raise({
    id: `rule:${sent.game}:kelly-limit`,
    // Minor either way: the limit is the target's own rule, kept consistently (docs/check.md: a
    // game's Kelly limit is never a failed run); that it leaves no bet of the game is said.
    severity: 'minor',
    kind: 'rule',
    title: forbids
      ? `${sent.game}'s Kelly limit on the target is ${limit}, below its minimum bet of ${text(minimumMicro)}: no bet of it can be placed`
      : `${sent.game}'s Kelly limit on the target is ${limit}${stated === null ? '' : ` (${share} of it)`}, where the documents' default risk factor (0.25) allows a twentieth: ${within}`,
    endpoint: 'casino.bet',
    field: 'amount',
    expected: `${text(sent.amountMicro)} accepted (${text(sent.amountMicro)} is at most a twentieth of the balance)`,
    seen: refusal.body,
    evidence: `${label}: ${refusal.message}`,
    ...(request === null ? {} : { reproduce: system.curlOf(request) }),
  });
  return true;
}

/** A bet refused below its game's stated minimum or above its stated Kelly limit: a rule learned, not a mismatch. */
function learnedBetRule(system: DialectSystem, model: DialectModel, refused: RefusedBet): boolean {
  return learnedBetMinimum(system, model, refused) || learnedKellyLimit(system, model, refused);
}

const betCommand = fc
  .record({ slot, choice: betChoice, amountMicro: betAmount, tag: seedTag })
  .map(({ slot: at, choice, amountMicro: drawnMicro, tag }) => {
    const label = `bet(a${at}, ${choice.game} ${JSON.stringify(choice.params)}, ${text(drawnMicro)} or within the target's minimum and Kelly limit)`;
    return new Command(
      label,
      (model) => {
        const account = accountAt(model, at);
        const stake = stakeFor(model, account, choice.game, drawnMicro);
        return stake !== null && spendableMicro(account) >= betAmountFor(model, choice.game, drawnMicro) * BET_COVER;
      },
      async (model, system) => {
        const account = accountAt(model, at);
        const input = betInput(choice, stakeFor(model, account, choice.game, drawnMicro) ?? drawnMicro, tag);
        const outcome = await send(system, label, 'casino.bet', input, account.apiKey);
        if (
          outcome.kind === 'refused' &&
          learnedBetRule(system, model, {
            label,
            account,
            sent: input,
            refusal: outcome.refusal,
            request: outcome.request,
          })
        )
          return;
        observeBet(model, account, acceptedOutcome(label, outcome).value, input, label);
      },
    );
  });

/**
 * The elements a batch goes out with: `count` bets, and one of amount 0 where `invalid`, trimmed to
 * the maximum the target stated (the valid bets first: at least one of them is kept).
 */
function batchElements(bets: readonly BetInput[], invalidBet: BetInput | null, maximum: number | null): BetInput[] {
  const all = invalidBet === null ? [...bets] : [...bets, invalidBet];
  if (maximum === null || all.length <= maximum) return all;
  const kept = bets.slice(0, Math.max(1, maximum - (invalidBet === null ? 0 : 1)));
  return invalidBet !== null && kept.length < maximum ? [...kept, invalidBet] : kept;
}

/**
 * A batch refused above the target's own maximum, which its refusal states below the size sent
 * (stated-batch-maximum.ts): learned (later batches go out within it) with a minor rule finding
 * the first time, and true; the refusal moved nothing. Any other refusal: false.
 */
function learnedBatchMaximum(
  system: DialectSystem,
  model: DialectModel,
  label: string,
  sentCount: number,
  refusal: Refusal,
  request: SentRequest,
): boolean {
  const stated = statedBatchMaximum(refusal, sentCount);
  if (stated === null) return false;
  const known = model.batchLimit.maximum;
  if (known === null || stated < known) {
    model.batchLimit.maximum = stated;
    system.raise({
      id: 'rule:casino:batch-maximum',
      severity: 'minor',
      kind: 'rule',
      title: `a batch on the target holds at most ${stated} bets, not ${sentCount}: later batches go out within it`,
      endpoint: 'casino.batch',
      field: 'bets',
      expected: `${sentCount} bets accepted`,
      seen: refusal.body,
      evidence: `${label}: ${refusal.message}`,
      reproduce: system.curlOf(request),
    });
  }
  return true;
}

const batchCommand = fc
  .record({ slot, count: fc.integer({ min: 1, max: 3 }), invalid: fc.boolean(), tag: seedTag })
  .map(({ slot: at, count, invalid, tag }) => {
    const label = `batch(a${at}, ${count} bets${invalid ? ' + one of amount 0' : ''}, within the target's maximum and Kelly limit)`;
    return new Command(
      label,
      (model) => {
        const account = accountAt(model, at);
        return (
          stakeFor(model, account, 'coin_flip', 10_000n) !== null &&
          spendableMicro(account) >= betAmountFor(model, 'coin_flip', 10_000n) * BigInt(count) * BET_COVER
        );
      },
      async (model, system) => {
        const account = accountAt(model, at);
        const amountMicro = stakeFor(model, account, 'coin_flip', 10_000n) ?? 10_000n;
        const bets = Array.from({ length: count }, (_, index) =>
          betInput(
            { game: 'coin_flip', params: { side: index % 2 === 0 ? 'heads' : 'tails' } },
            amountMicro,
            tag + index,
          ),
        );
        const invalidBet = invalid ? betInput({ game: 'coin_flip', params: { side: 'heads' } }, 0n, tag + count) : null;
        const sent = batchElements(bets, invalidBet, model.batchLimit.maximum);
        const outcome = await send(system, label, 'casino.batch', { bets: sent }, account.apiKey);
        if (
          outcome.kind === 'refused' &&
          learnedBatchMaximum(system, model, label, sent.length, outcome.refusal, outcome.request)
        )
          return;
        const { value, request } = acceptedOutcome(label, outcome);
        const shape = value.results.map((result) => (isRefusal(result) ? 'refused' : 'placed'));
        // An element refused below the target's stated minimum or above its stated Kelly limit is a rule learned, not a mismatch.
        const expected = sent.map((bet, index) => {
          const result = value.results[index];
          const learned =
            bet.amountMicro > 0n &&
            result !== undefined &&
            isRefusal(result) &&
            learnedBetRule(system, model, {
              label: `${label} element ${index}`,
              account,
              sent: bet,
              refusal: result,
              request,
            });
          return bet.amountMicro === 0n || learned ? 'refused' : 'placed';
        });
        if (JSON.stringify(shape) !== JSON.stringify(expected))
          throw new CheckMismatch(`${label}: results ${JSON.stringify(shape)}, expected ${JSON.stringify(expected)}`);
        value.results.forEach((result, index) => {
          if (!isRefusal(result))
            observeBet(model, account, result, sent[index] as BetInput, `${label} element ${index}`);
        });
        if (value.summary?.total !== undefined && value.summary.total !== null && value.summary.total !== sent.length)
          throw new CheckMismatch(`${label}: summary.total ${value.summary.total}, expected ${sent.length}`);
        near(
          `${label}: balance_after`,
          value.balanceAfterMicro,
          account.balanceMicro,
          account.slackMicro + shownRounding(model, value.balanceAfterMicro),
        );
      },
    );
  });

const balanceCommand = accountCommand('balance', null, async (account, label, system) => {
  const { value } = await accepted(system, label, 'casino.balance', {}, account.apiKey);
  near(label, value.balanceMicro, account.balanceMicro, account.slackMicro);
  account.balanceMicro = value.balanceMicro;
  account.slackMicro = 0n;
});

const overBetCommand = accountCommand('betAboveBalance', null, async (account, label, system) => {
  const input = betInput(
    { game: 'coin_flip', params: { side: 'heads' } },
    account.balanceMicro + account.slackMicro + 1_000_000n,
    0,
  );
  const refusal = await refused(system, label, 'casino.bet', input, account.apiKey);
  judged(system, label, 'casino.refusal.over-balance', 'casino.bet', refusal.text, refusal.request);
});

const rotateCommand = accountCommand(
  'rotate',
  (account) => account.seed !== null,
  async (account, label, system) => {
    const seed = account.seed;
    if (seed === null) throw new Error(`${label}: precondition broken`);
    const { value } = await accepted(system, label, 'casino.rotate', {}, account.apiKey);
    if (value.revealedSeedHash !== seed.hash)
      throw new CheckMismatch(
        `${label}: revealed the seed of hash ${String(value.revealedSeedHash)}, expected the bets' ${seed.hash}`,
      );
    if (value.revealedSeed === null || hash('sha256', value.revealedSeed) !== seed.hash)
      throw new CheckMismatch(
        `${label}: the revealed seed ${String(value.revealedSeed)} does not hash (SHA-256) to ${seed.hash}`,
      );
    account.seed = null;
    account.rotatedHash = seed.hash;
  },
);

const seedsCommand = accountCommand(
  'seeds',
  (account) => account.rotatedHash !== null,
  async (account, label, system) => {
    const { value } = await accepted(system, label, 'casino.seeds', {}, account.apiKey);
    const listed = value.seeds.find((seed) => seed.seedHash === account.rotatedHash);
    if (listed?.seed === null || listed === undefined || hash('sha256', listed.seed) !== account.rotatedHash)
      throw new CheckMismatch(`${label}: the rotated seed ${String(account.rotatedHash)} is not listed revealed`);
  },
);

const unknownKeyCommand = fc.constant(
  new Command(
    'balanceWithUnknownKey()',
    () => true,
    async (_model, system) => {
      const refusal = await refused(system, 'balanceWithUnknownKey()', 'casino.balance', {}, UNKNOWN_KEY);
      judged(
        system,
        'balanceWithUnknownKey()',
        'auth.refusal.unknown-key',
        'casino.balance',
        refusal.text,
        refusal.request,
      );
    },
  ),
);

/** The key of the escrow's minimum in `model.minimums` (learned from a refusal, as a game's minimum bet). */
const ESCROW_MINIMUM = 'escrow.create';

/** The finding of an escrow minimum learned from `refusal` (minor, kind `rule`). */
function escrowMinimumFinding(
  system: DialectSystem,
  label: string,
  sentMicro: Micro,
  stated: Micro,
  refusal: Refusal,
  request: SentRequest,
): FindingInput {
  return {
    id: 'rule:escrow:minimum',
    severity: 'minor',
    kind: 'rule',
    title: `an escrow's minimum on the target is ${text(stated)}, not ${text(sentMicro)}: later escrows go out at it`,
    endpoint: 'escrow.create',
    field: 'amount',
    expected: `${text(sentMicro)} accepted (the documents' minimum is 0.10)`,
    seen: refusal.body,
    evidence: `${label}: ${refusal.message}`,
    reproduce: system.curlOf(request),
  };
}

const escrowCreateCommand = fc
  .record({ slot, amountMicro: fc.constantFrom(100_000n, 120_000n, 250_000n) })
  .map(({ slot: at, amountMicro: drawnMicro }) => {
    const label = `escrowCreate(a${at} → a${(at + 1) % 2}, ${text(drawnMicro)} or the target's minimum)`;
    return new Command(
      label,
      (model) =>
        model.escrows.length < ESCROWS_MAX &&
        spendableMicro(accountAt(model, at)) >= betAmountFor(model, ESCROW_MINIMUM, drawnMicro),
      async (model, system) => {
        const [creator, counterparty] = [accountAt(model, at), accountAt(model, at + 1)];
        const amountMicro = betAmountFor(model, ESCROW_MINIMUM, drawnMicro);
        const input = {
          amountMicro,
          creatorId: creator.agentId,
          counterpartyId: counterparty.agentId,
          description: 'afp check',
          timeoutHours: 24,
        };
        const outcome = await send(system, label, 'escrow.create', input, creator.apiKey);
        if (
          outcome.kind === 'refused' &&
          learnedMinimum(system, model, ESCROW_MINIMUM, amountMicro, outcome.refusal, false, (stated, learned) =>
            escrowMinimumFinding(system, label, amountMicro, stated ?? learned, outcome.refusal, outcome.request),
          )
        )
          return;
        const { value, request } = acceptedOutcome(label, outcome);
        if (value.status !== null)
          judged(system, label, 'escrow.status.created', 'escrow.create', value.status, request);
        if (value.amountMicro !== null && value.amountMicro !== amountMicro)
          throw new CheckMismatch(`${label}: amount ${text(value.amountMicro)}, sent ${text(amountMicro)}`);
        creator.balanceMicro -= amountMicro;
        // The fee the target states is the one its release is held to (measured, not recited).
        const documentsFee = escrowFeeMicro(amountMicro);
        if (value.feeMicro !== null && value.feeMicro !== documentsFee)
          system.raise({
            id: 'rule:escrow:fee',
            severity: 'minor',
            kind: 'rule',
            title: `an escrow of ${text(amountMicro)} states a fee of ${text(value.feeMicro)}, not the documents' 1% (${text(documentsFee)}): its release is held to the stated fee`,
            endpoint: 'escrow.create',
            field: 'fee',
            expected: text(documentsFee),
            seen: text(value.feeMicro),
            evidence: `${label}: escrow ${value.escrowId}`,
            reproduce: system.curlOf(request),
          });
        model.escrows.push({
          id: value.escrowId,
          creatorSlot: creator.slot,
          counterpartySlot: counterparty.slot,
          amountMicro,
          feeMicro: value.feeMicro,
          state: 'held',
        });
      },
    );
  });

const escrowOverCommand = slot.map((at) => {
  const label = `escrowAboveBalance(a${at})`;
  return new Command(
    label,
    () => true,
    async (model, system) => {
      const [creator, counterparty] = [accountAt(model, at), accountAt(model, at + 1)];
      const input = {
        amountMicro: creator.balanceMicro + creator.slackMicro + 1_000_000n,
        creatorId: creator.agentId,
        counterpartyId: counterparty.agentId,
        description: 'afp check',
        timeoutHours: 24,
      };
      const refusal = await refused(system, label, 'escrow.create', input, creator.apiKey);
      judged(system, label, 'escrow.refusal.over-balance', 'escrow.create', refusal.text, refusal.request);
    },
  );
});

/** A command on the model's escrow at `index` (modulo how many there are), drawn once one exists. */
function escrowCommand(
  label: string,
  index: number,
  run: (escrow: DialectEscrow, model: DialectModel, system: DialectSystem) => Promise<void>,
): DialectCommand {
  return new Command(
    label,
    (model) => model.escrows.length > 0,
    async (model, system) => {
      const escrow = model.escrows[index % model.escrows.length];
      if (escrow === undefined) throw new Error(`${label}: precondition broken`);
      await run(escrow, model, system);
    },
  );
}

const escrowGetCommand = fc
  .record({ index: fc.nat({ max: ESCROWS_MAX - 1 }), byCounterparty: fc.boolean() })
  .map(({ index, byCounterparty }) => {
    const label = `escrowGet(escrow#${index}, by the ${byCounterparty ? 'counterparty' : 'creator'})`;
    return escrowCommand(label, index, async (escrow, model, system) => {
      const viewer = accountAt(model, byCounterparty ? escrow.counterpartySlot : escrow.creatorSlot);
      const { value, request } = await accepted(system, label, 'escrow.get', { escrowId: escrow.id }, viewer.apiKey);
      if (value.escrowId !== escrow.id)
        throw new CheckMismatch(`${label}: answered escrow ${value.escrowId}, asked ${escrow.id}`);
      if (value.status !== null)
        judged(
          system,
          label,
          escrow.state === 'held' ? 'escrow.status.created' : 'escrow.status.released',
          'escrow.get',
          value.status,
          request,
        );
    });
  });

/**
 * The release of an escrow whose creation stated no fee: the fee is what the counterparty's balance
 * shows it kept (read at once), so a target with another rate than the documents' 1% is measured,
 * not failed. Kept between nothing and the whole amount, it is the target's rule (minor where it is
 * not the documents' 1%); credited more than the amount, or less than nothing, contradicts the run.
 */
async function measureUnstatedFee(
  system: DialectSystem,
  label: string,
  escrow: DialectEscrow,
  counterparty: DialectAccount,
  release: SentRequest,
): Promise<void> {
  const { value } = await accepted(system, `${label}: balance`, 'casino.balance', {}, counterparty.apiKey);
  const creditedMicro = value.balanceMicro - counterparty.balanceMicro;
  const slack = counterparty.slackMicro;
  if (creditedMicro < -slack || creditedMicro > escrow.amountMicro + slack)
    throw new CheckMismatch(
      `${label}: the counterparty was credited ${text(creditedMicro)} for an escrow of ${text(escrow.amountMicro)} (± ${text(slack)})`,
    );
  counterparty.balanceMicro = value.balanceMicro;
  counterparty.slackMicro = 0n;
  const keptMicro = escrow.amountMicro - creditedMicro;
  const documentsFee = escrowFeeMicro(escrow.amountMicro);
  if (abs(keptMicro - documentsFee) <= slack) return;
  system.raise({
    id: 'rule:escrow:fee-unstated',
    severity: 'minor',
    kind: 'rule',
    title: `an escrow's creation stated no fee, and its release kept ${text(keptMicro)} of ${text(escrow.amountMicro)}, not the documents' 1% (${text(documentsFee)})`,
    endpoint: 'escrow.release',
    field: 'fee',
    expected: text(documentsFee),
    seen: text(keptMicro),
    evidence: `${label}: escrow ${escrow.id}; the counterparty's balance rose ${text(creditedMicro)}`,
    reproduce: system.curlOf(release),
  });
}

/** A figure shown in whole cents may be a rounded one (half a cent either way); a finer one is exact. */
function centsRounding(shown: Micro): Micro {
  return shown % 10_000n === 0n ? 5_000n : 0n;
}

/**
 * A release's answer states the fee it kept and the net it paid (the deployment's `commission` and
 * `amount_released`): they must be the fee its creation stated and the amount less it. Two answers
 * of the target that disagree on one escrow's money are a broken run, named at the release (before,
 * a target stating 2% at the creation and charging 1% failed later, on a balance, blaming a bet).
 */
function releaseHeldToCreation(
  label: string,
  escrow: DialectEscrow,
  feeMicro: Micro,
  stated: { readonly feeMicro: Micro | null; readonly netMicro: Micro | null },
): void {
  const netMicro = escrow.amountMicro - feeMicro;
  const differ = (shown: Micro | null, expected: Micro): shown is Micro =>
    shown !== null && abs(shown - expected) > centsRounding(shown);
  const wrong = [
    ...(differ(stated.feeMicro, feeMicro) ? [`a fee of ${text(stated.feeMicro)}`] : []),
    ...(differ(stated.netMicro, netMicro) ? [`a net of ${text(stated.netMicro)}`] : []),
  ];
  if (wrong.length > 0)
    throw new CheckMismatch(
      `${label}: escrow ${escrow.id}: the release states ${wrong.join(' and ')}, its creation stated a fee of ${text(feeMicro)} (a net of ${text(netMicro)} of ${text(escrow.amountMicro)})`,
    );
}

/**
 * After a release, the counterparty's balance is read (where the dialect reads a balance with its
 * key) and must show what the release paid: money missing there is named at the release, not found
 * runs later on a bet (a target keeping 0.01 of every release failed only on leftover state).
 */
async function readCounterparty(
  system: DialectSystem,
  label: string,
  escrow: DialectEscrow,
  counterparty: DialectAccount,
): Promise<void> {
  if (system.session.offers('casino.balance') !== null) return;
  const read = `${label}: the counterparty's balance after the release of escrow ${escrow.id}`;
  const { value } = await accepted(system, read, 'casino.balance', {}, counterparty.apiKey);
  near(read, value.balanceMicro, counterparty.balanceMicro, counterparty.slackMicro);
  counterparty.balanceMicro = value.balanceMicro;
  counterparty.slackMicro = 0n;
}

/**
 * The creator releases an escrow through `op`: the HTTP release, or the escrow's MCP door (the
 * deployment's `release_escrow`), which must keep the same rule: the counterparty is paid the
 * amount less the stated fee. A second release must be refused; through the door, by any refusal
 * (a tool error carries no HTTP status to judge).
 */
function escrowReleaseCommand(op: 'escrow.release' | 'escrow.mcp-release'): fc.Arbitrary<DialectCommand> {
  const name = op === 'escrow.release' ? 'escrowRelease' : 'escrowReleaseThroughMcp';
  return fc.nat({ max: ESCROWS_MAX - 1 }).map((index) => {
    const label = `${name}(escrow#${index})`;
    return escrowCommand(label, index, async (escrow, model, system) => {
      const creator = accountAt(model, escrow.creatorSlot);
      if (escrow.state === 'released') {
        const refusal = await refused(system, `${label} again`, op, { escrowId: escrow.id }, creator.apiKey);
        if (op === 'escrow.release')
          judged(system, label, 'escrow.refusal.released-again', op, refusal.text, refusal.request);
        return;
      }
      const { value, request } = await accepted(system, label, op, { escrowId: escrow.id }, creator.apiKey);
      if (value.status !== null) judged(system, label, 'escrow.status.released', op, value.status, request);
      const counterparty = accountAt(model, escrow.counterpartySlot);
      if (escrow.feeMicro === null) await measureUnstatedFee(system, label, escrow, counterparty, request);
      else {
        releaseHeldToCreation(label, escrow, escrow.feeMicro, value);
        counterparty.balanceMicro += escrow.amountMicro - escrow.feeMicro;
        await readCounterparty(system, label, escrow, counterparty);
      }
      escrow.state = 'released';
    });
  });
}

const withdrawOverCommand = accountCommand('withdrawAboveBalance', null, async (account, label, system) => {
  const refusal = await refused(
    system,
    label,
    'casino.withdraw',
    { amountMicro: account.balanceMicro + account.slackMicro + 1_000_000n, address: WITHDRAW_ADDRESS },
    account.apiKey,
  );
  judged(system, label, 'casino.refusal.withdraw-over-balance', 'casino.withdraw', refusal.text, refusal.request);
});

export const DIALECT_COMMANDS: readonly DialectCommandRow[] = [
  { name: 'balance', operations: ['casino.balance'], accounts: 1, weight: 3, arbitrary: balanceCommand },
  { name: 'bet', operations: ['casino.bet'], accounts: 1, weight: 6, arbitrary: betCommand },
  { name: 'batch', operations: ['casino.batch'], accounts: 1, weight: 2, arbitrary: batchCommand },
  { name: 'betAboveBalance', operations: ['casino.bet'], accounts: 1, weight: 1, arbitrary: overBetCommand },
  { name: 'rotate', operations: ['casino.rotate'], accounts: 1, weight: 1, arbitrary: rotateCommand },
  { name: 'seeds', operations: ['casino.seeds'], accounts: 1, weight: 1, arbitrary: seedsCommand },
  {
    name: 'balanceWithUnknownKey',
    operations: ['casino.balance'],
    accounts: 0,
    weight: 1,
    arbitrary: unknownKeyCommand,
  },
  { name: 'escrowCreate', operations: ['escrow.create'], accounts: 2, weight: 4, arbitrary: escrowCreateCommand },
  { name: 'escrowAboveBalance', operations: ['escrow.create'], accounts: 2, weight: 1, arbitrary: escrowOverCommand },
  { name: 'escrowGet', operations: ['escrow.get'], accounts: 2, weight: 2, arbitrary: escrowGetCommand },
  {
    name: 'escrowRelease',
    operations: ['escrow.release'],
    accounts: 2,
    weight: 3,
    arbitrary: escrowReleaseCommand('escrow.release'),
  },
  {
    name: 'escrowReleaseThroughMcp',
    operations: ['escrow.mcp-release'],
    accounts: 2,
    weight: 1,
    arbitrary: escrowReleaseCommand('escrow.mcp-release'),
  },
  {
    name: 'withdrawAboveBalance',
    operations: ['casino.withdraw'],
    accounts: 1,
    weight: 1,
    arbitrary: withdrawOverCommand,
    // DEPLOYED.md §2.2: on a short balance the deployment's handler still sends; only afp's own serve is safe to ask.
    applies: (target) =>
      target.afpServe
        ? null
        : 'a withdrawal the target does not refuse sends real funds (DEPLOYED.md §2.2): sent to an afp serve only',
  },
];

/** Operations no command sends, and why (the notes of a run). */
export const OPERATIONS_LEFT_OUT: Readonly<Partial<Record<OperationName, string>>> = {
  'casino.register': "registration is the set-up (the accounts are opened the target's way), not a command",
  'casino.games': 'the game list does not change with any command (the conformance suite reads it)',
  'faucet.claim':
    'an account claims the faucet once (and a deployment once per IP a day): the conformance suite checks it on a fresh account',
  'faucet.mcp-claim':
    "a claim through the faucet's MCP door spends the address's one claim a day too: afp audit money probes it (mcp-faucet-cooldown)",
  'escrow.refund':
    "no command refunds an escrow, so a refund's money path (the creator repaid, the fee kept or returned) is never exercised here: afp audit money and the conformance suite send it",
  'escrow.dispute':
    "no command disputes an escrow, so a dispute's hold and its resolution (the money released or refunded when its window ends) are never exercised here: afp audit money --include-slow probes them",
};

/**
 * Money paths of time no command reaches (the notes of a run): the check through a target's dialects
 * never moves the target's clock, so nothing that waits for it happens.
 */
export const TIME_PATHS_LEFT_OUT: readonly string[] = [
  "escrow expiry is never reached: no command moves the target's clock past an escrow's expiry (24 hours here), so an expired escrow's refund (the creator repaid, the fee kept or returned) is never exercised: afp audit money --include-slow probes it",
  "no command moves the target's clock: the faucet's cooldown, a dispute's window and every other rule of time are not exercised here",
];
