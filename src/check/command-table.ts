/**
 * The command table of `afp check`: one weighted row per command family, each an arbitrary of
 * inputs mapped to a ModelCommand, combined into fast-check's `fc.commands` (which shrinks a
 * failing sequence to a short one). Inputs draw from small sets on purpose: few agent slots and
 * escrow indexes (so commands meet the same agents and escrows), amounts around the minimum, the
 * fee's rounding and the balances a run can have, expiries from 1 s to the maximum, time steps
 * that land on boundaries. The casino's rows (bets, batch, fairness, tournaments, challenges,
 * withdrawals) come from casino/command-casino-table.ts; the wallet's from wallet/command-wallet-table.ts. Bounded: at most MAX_COMMANDS commands per run, prelude included.
 * Layout (docs/layout.md): each service's commands and model parts live in its own folder
 * (casino/, escrow/, faucet/); the frame, the shared commands and the model's core stay here.
 */
import fc from 'fast-check';
import { MAX_COMMANDS } from './check-options.ts';
import {
  SLOT_COUNT,
  type AgentRef,
  type CheckModel,
  type EscrowRef,
  type ReferenceVia,
  type CheckStyle,
} from './check-model.ts';
import { BAD_INPUTS, badInputCommand } from './command-bad-input.ts';
import { CASINO_SPECS } from './casino/command-casino-table.ts';
import { DOMAINS_SPECS } from './domains/command-domains.ts';
import { TRADING_SPECS } from './trading/command-trading.ts';
import { WALLET_SPECS } from './wallet/command-wallet-table.ts';
import {
  createEscrowCommand,
  disputeCommand,
  getEscrowCommand,
  listEscrowsCommand,
  refundCommand,
  releaseCommand,
  type ActionCommandInput,
  type CallerRole,
  type CreateCommandInput,
} from './escrow/command-escrow.ts';
import {
  agentViewCommand,
  claimACommand,
  claimBCommand,
  registerCommand,
  statusBCommand,
} from './faucet/command-faucet.ts';
import { advanceTimeCommand, type TimeStep } from './command-time.ts';
import { ModelCommand, type CheckSystem, type CommandSpec } from './model-command.ts';
import type { ClaimBMode } from './faucet/model-faucet.ts';
import type { ServiceName } from '../platform/platform.ts';
import type { EscrowRole, EscrowStatus } from '../services/escrow/escrow-record.ts';

export { MAX_COMMANDS };

const HOUR_MS = 3_600_000;

/** null in `nullWeight` of `nullWeight + 1` draws, else a value; shrinks towards null. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, nullWeight: number): fc.Arbitrary<T | null> {
  return fc.oneof(
    { withCrossShrink: true },
    { weight: nullWeight, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary },
  );
}
/** Low slots more often, so that the first agents registered are the ones later commands name. */
const slot = fc.constantFrom(
  ...Array.from({ length: SLOT_COUNT }, (_, index) => Array<number>(SLOT_COUNT - index).fill(index)).flat(),
);
const style = fc.constantFrom<CheckStyle>('B', 'A');
const via = fc.constantFrom<ReferenceVia>('id', 'id', 'address', 'ADDRESS', 'code');
const agentRef: fc.Arbitrary<AgentRef> = fc.record({ slot, via });
const escrowRef: fc.Arbitrary<EscrowRef> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ index: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 1, arbitrary: fc.constant<EscrowRef>('unknown') },
);
/** Micro-USDC: below, at and just above the minimum, fee-rounding cases, whole balances, too much. */
const amountMicro = fc.oneof(
  fc.constantFrom(1_000_000n, 100_000n, 99_999n, 100_001n, 250_000n, 1_234_567n, 2_500_000n, 10_000_000n, 12_000_000n),
  fc.bigInt({ min: 100_000n, max: 3_000_000n }),
);
/** Another slot than the actor's most of the time (the same one sometimes: self cases). */
const otherOffset = fc.constantFrom(1, 1, 1, 2, 2, 3, 0);
const other = (actor: number, offset: number): number => (actor + offset) % SLOT_COUNT;
const expiresIn = sometimes(fc.constantFrom(1, 60, 3_600, 86_400, 7_776_000), 3);
const text = (values: readonly string[]): fc.Arbitrary<string | null> => sometimes(fc.constantFrom(...values), 1);

const createInput: fc.Arbitrary<CreateCommandInput> = fc
  .record({
    style,
    senderSlot: slot,
    receiverOffset: otherOffset,
    receiverVia: via,
    amountMicro,
    expiresInSeconds: expiresIn,
    referrer: sometimes(agentRef, 2),
    description: text(['logo design', 'api credits']),
    conditions: sometimes(fc.constant({ deliverable: 'report', milestones: [1, 2] }), 4),
    buyer: sometimes(agentRef, 6),
    amountAs: fc.constantFrom<'number' | 'string'>('number', 'string'),
  })
  .map(({ receiverOffset, receiverVia, ...input }) => {
    const receiver = { slot: other(input.senderSlot, receiverOffset), via: receiverVia };
    return input.style === 'A'
      ? { ...input, receiver, expiresInSeconds: null, referrer: null, conditions: null }
      : { ...input, receiver, buyer: null };
  });

const timeStep: fc.Arbitrary<TimeStep> = fc.oneof(
  fc.record({
    kind: fc.constant('by' as const),
    ms: fc.constantFrom(
      1,
      1_000,
      59_000,
      60_000,
      HOUR_MS,
      23 * HOUR_MS,
      24 * HOUR_MS,
      25 * HOUR_MS,
      48 * HOUR_MS,
      7 * 24 * HOUR_MS,
    ),
  }),
  fc.record({
    kind: fc.constant('boundary' as const),
    pick: fc.integer({ min: 0, max: 5 }),
    offsetMs: fc.constantFrom<-1 | 0 | 1>(0, -1, 1),
  }),
);

/** Mostly the role the rule is about; the others for the 403 answers. */
const role = (main: CallerRole): fc.Arbitrary<CallerRole> =>
  fc.constantFrom<CallerRole>(main, main, main, 'sender', 'receiver', 'outsider');
const actionInput = (main: CallerRole): fc.Arbitrary<ActionCommandInput> =>
  fc.record({ style, caller: role(main), escrow: escrowRef });

type SpecRow = { weight: number; arbitrary: fc.Arbitrary<CommandSpec> };

const faucetSpecs: readonly SpecRow[] = [
  {
    weight: 6,
    arbitrary: fc
      .record({
        style: fc.constantFrom<CheckStyle>('B', 'B', 'A'),
        again: sometimes(slot, 5),
        referrer: sometimes(agentRef, 2),
      })
      .map(registerCommand),
  },
  { weight: 1, arbitrary: slot.map(claimACommand) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        slot,
        mode: fc.constantFrom<ClaimBMode>('key', 'key', 'key-own-id', 'keyless', 'key-other-id', 'keyless-no-id'),
        offset: otherOffset,
      })
      .map(({ slot: actor, mode, offset }) => claimBCommand({ slot: actor, mode, otherSlot: other(actor, offset) })),
  },
  { weight: 1, arbitrary: slot.map(statusBCommand) },
  { weight: 1, arbitrary: fc.tuple(slot, agentRef).map(([caller, target]) => agentViewCommand(caller, target)) },
];

const escrowSpecs: readonly SpecRow[] = [
  { weight: 7, arbitrary: createInput.map(createEscrowCommand) },
  { weight: 4, arbitrary: actionInput('sender').map(releaseCommand) },
  { weight: 2, arbitrary: actionInput('sender').map(refundCommand) },
  {
    weight: 2,
    arbitrary: fc
      .record({
        style,
        caller: fc.constantFrom<CallerRole>('sender', 'receiver', 'outsider'),
        escrow: escrowRef,
        reason: fc.constantFrom('not delivered', 'wrong item'),
        evidence: text(['ipfs://Qm123', '0xabc']),
      })
      .map(disputeCommand),
  },
  { weight: 2, arbitrary: actionInput('receiver').map(getEscrowCommand) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        style,
        callerSlot: slot,
        role: sometimes(fc.constantFrom<EscrowRole>('sender', 'receiver', 'all'), 1),
        status: sometimes(fc.constantFrom<EscrowStatus>('locked', 'released', 'refunded', 'expired', 'disputed'), 2),
        limit: sometimes(fc.constantFrom(1, 2, 100), 2),
      })
      .map(listEscrowsCommand),
  },
];

/** Rows of no one service: time moves and malformed requests. */
const sharedSpecs: readonly SpecRow[] = [
  { weight: 3, arbitrary: timeStep.map(advanceTimeCommand) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...BAD_INPUTS), slot, otherOffset)
      .map(([row, own, offset]) => badInputCommand(row, own, other(own, offset))),
  },
];

/**
 * The rows by service, for a property population's `services` (agents/property/): the same rows
 * and weights `afp check` draws from, so a population of every service draws as a check run does.
 */
export const SPECS_BY_SERVICE: Readonly<Record<ServiceName, readonly SpecRow[]>> = {
  faucet: faucetSpecs,
  escrow: escrowSpecs,
  casino: CASINO_SPECS,
  domains: DOMAINS_SPECS,
  trading: TRADING_SPECS,
  wallet: WALLET_SPECS,
};

const specs: readonly SpecRow[] = [
  ...faucetSpecs,
  ...escrowSpecs,
  ...sharedSpecs,
  ...CASINO_SPECS,
  ...DOMAINS_SPECS,
  ...TRADING_SPECS,
  ...WALLET_SPECS,
];

/** One drawn command of the rows of `services` plus the shared rows (time, malformed requests). */
export function commandSpecOf(services: readonly ServiceName[]): fc.Arbitrary<CommandSpec> {
  return fc.oneof(...sharedSpecs, ...services.flatMap((service) => SPECS_BY_SERVICE[service]));
}

export interface CommandsOptions {
  /** Upper bound on prelude plus commands. */
  readonly maxCommands: number;
  /** fast-check's replayPath of a reported failure (with its seed and path). */
  readonly replayPath?: string;
}

export type CheckCommand = fc.AsyncCommand<CheckModel, CheckSystem>;

/** One command drawn from the whole table (every service's rows, by weight): `afp check`'s, and other model runs' (test/server/twin-property.test.ts). */
export function checkCommand(): fc.Arbitrary<CheckCommand> {
  return fc.oneof(...specs).map((spec) => new ModelCommand(spec));
}

/**
 * A run's input: the drawn commands, and a prelude of 0..PRELUDE_MAX registrations of new agents
 * (style B mostly) that runs before them. Why a prelude: commands drawn independently mostly need
 * registered agents, and without one a run spends its first commands waiting for them.
 * Why it is never shrunk: fast-check's commands shrinker reads which commands ran in the execution
 * that produced its value; a prelude that changed under it would leave it reading another
 * execution (and stuck). So the prelude stays as drawn, at most PRELUDE_MAX registrations, and the
 * commands shrink against it; what ran is read from a confirming replay (run-check.ts).
 */
export type CheckInput = [commands: Iterable<CheckCommand>, prelude: readonly CheckCommand[]];

export const PRELUDE_MAX = 2;

export function checkInput(options: CommandsOptions): fc.Arbitrary<CheckInput> {
  const total = Math.min(options.maxCommands, MAX_COMMANDS);
  const preludeMax = Math.min(PRELUDE_MAX, total);
  const registration = fc.record({ style: fc.constantFrom<CheckStyle>('B', 'B', 'A'), referred: fc.boolean() });
  const prelude = fc.noShrink(fc.array(registration, { maxLength: preludeMax, size: 'max' })).map((drawn) =>
    drawn.map(
      ({ style: registrationStyle, referred }, index) =>
        new ModelCommand(
          registerCommand({
            style: registrationStyle,
            again: null,
            referrer: referred && index > 0 ? { slot: 0, via: 'id' } : null,
          }),
        ),
    ),
  );
  const commands = fc.commands([checkCommand()], {
    maxCommands: total - preludeMax,
    size: 'max',
    ...(options.replayPath === undefined ? {} : { replayPath: options.replayPath }),
  });
  return fc.tuple(commands, prelude);
}
