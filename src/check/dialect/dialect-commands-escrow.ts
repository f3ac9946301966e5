/**
 * The escrow commands of `afp check --target` (dialect-commands.ts joins them into its table):
 * creation (at the target's minimum where a refusal states one), creation above the balance, reads,
 * and releases over HTTP and through MCP, each release's fee stated or measured and the
 * counterparty's credit read against it.
 */
import fc from 'fast-check';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { SentRequest, Refusal } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import { CheckMismatch } from '../check-mismatch.ts';
import {
  accountAt,
  betAmountFor,
  deployedEscrowFeeMicro,
  ESCROWS_MAX,
  spendableMicro,
  type DialectAccount,
  type DialectEscrow,
  type DialectModel,
  type DialectSystem,
} from './dialect-model.ts';
import {
  accepted,
  acceptedOutcome,
  Command,
  judged,
  learnedMinimum,
  near,
  refused,
  send,
  slot,
  type DialectCommand,
} from './dialect-command-kit.ts';

const abs = (value: bigint): bigint => (value < 0n ? -value : value);
const text = (micro: Micro): string => formatDecimal(micro);

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

export const escrowCreateCommand = fc
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
        const documentsFee = deployedEscrowFeeMicro(amountMicro);
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

export const escrowOverCommand = slot.map((at) => {
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

export const escrowGetCommand = fc
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
  const documentsFee = deployedEscrowFeeMicro(escrow.amountMicro);
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
export function escrowReleaseCommand(op: 'escrow.release' | 'escrow.mcp-release'): fc.Arbitrary<DialectCommand> {
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
