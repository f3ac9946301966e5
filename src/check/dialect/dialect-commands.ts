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
 * The commands' kit is dialect-command-kit.ts, the escrow commands dialect-commands-escrow.ts, and
 * what a refused bet teaches dialect-refused-bets.ts.
 */
import { displayRoundingMicro } from '../../core/live-amount.ts';
import { hash } from 'node:crypto';
import fc from 'fast-check';
import { formatDecimal, type Micro } from '../../core/money.ts';
import {
  betCredit,
  type SentRequest,
  isRefusal,
  type BetInput,
  type LiveBet,
  type OperationName,
  type Refusal,
  statedBatchMaximum,
} from '../../live.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import {
  accepted,
  acceptedOutcome,
  Command,
  judged,
  near,
  refused,
  send,
  slot,
  type DialectCommand,
  type DialectCommandRow,
} from './dialect-command-kit.ts';
import {
  escrowCreateCommand,
  escrowGetCommand,
  escrowOverCommand,
  escrowReleaseCommand,
} from './dialect-commands-escrow.ts';
import { learnedBetRule } from './dialect-refused-bets.ts';

export {
  accepted,
  acceptedOutcome,
  Command,
  judged,
  refused,
  send,
  type DialectCommand,
  type DialectCommandRow,
} from './dialect-command-kit.ts';
import {
  accountAt,
  betAmountFor,
  spendableMicro,
  stakeFor,
  type DialectAccount,
  type DialectModel,
  type DialectSystem,
} from './dialect-model.ts';

const UNKNOWN_KEY = `sk_live_${'0'.repeat(48)}`;
const WITHDRAW_ADDRESS = `0x${'a1'.repeat(20)}`;
/** A bet is drawn only while the account can pay this many of it (so the documents' Kelly limit never binds). */
const BET_COVER = 20n;

const text = (micro: Micro): string => formatDecimal(micro);

/**
 * The rounding a shown casino figure may carry: none where the dialect shows amounts exactly, else
 * half a unit of its published places (model.roundingMicro) or of the fewer places it shows (a
 * target rounding its display fields to 1 or 0 places: measured per figure, core/live-amount.ts).
 */
function shownRounding(model: DialectModel, shown: Micro | null): Micro {
  // displayRoundingMicro at 2 places is never below the published half cent (model.roundingMicro).
  return model.roundingMicro === 0n || shown === null ? model.roundingMicro : displayRoundingMicro(shown, 2);
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
