/**
 * The fee a target's escrow release takes, for the probes that judge a release they cannot see
 * itemised (the MCP door's release, a dispute's resolution). Why a file: the fee the creation
 * answer states is the target's own word; where it states none, the documents' 1% would be afp's
 * assumption, and a target with another rate would be called broken. So the fee is then measured:
 * one control escrow of the same amount, created and released over HTTP between the same two
 * accounts, and the fee is what the two balances show the target kept (the creator's loss less the
 * counterparty's gain), whoever it was charged to. A control the balances cannot read, or whose
 * release the target refused, leaves the fee unmeasured, with why; the probes then judge only what
 * needs no fee (something paid, no more than the amount).
 * Cost, only where no fee is stated: one more escrow's fee.
 */
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { LiveSession } from '../../live.ts';
import { casinoBalanceMicro } from './casino-balance.ts';
import { answerText } from './probe-context.ts';

export interface EscrowParty {
  readonly apiKey: string;
  readonly agentId: string;
}

export type ReleaseFee =
  | {
      readonly known: true;
      readonly feeMicro: Micro;
      /** Stated by the creation answer (else measured by the control). */
      readonly stated: boolean;
      /** Where the figure comes from, for a finding's evidence. */
      readonly source: string;
      /** What the control moved on each balance (0 where the fee was stated): callers holding earlier reads add them. */
      readonly creatorDeltaMicro: Micro;
      readonly counterpartyDeltaMicro: Micro;
    }
  | {
      readonly known: false;
      /** Why no fee could be read or measured. */
      readonly source: string;
      readonly creatorDeltaMicro: Micro;
      readonly counterpartyDeltaMicro: Micro;
    };

/** The fee stated by the creation answer, or measured by a control escrow of `amountMicro` released over HTTP. */
export async function escrowReleaseFee(
  session: LiveSession,
  creator: EscrowParty,
  counterparty: EscrowParty,
  amountMicro: Micro,
  statedMicro: Micro | null,
): Promise<ReleaseFee> {
  if (statedMicro !== null) return statedFee(statedMicro);
  const unmeasured = (why: string, creatorDeltaMicro = 0n, counterpartyDeltaMicro = 0n): ReleaseFee => ({
    known: false,
    source: `no fee stated, and none measured: ${why}`,
    creatorDeltaMicro,
    counterpartyDeltaMicro,
  });
  const creatorBefore = await casinoBalanceMicro(session, creator.apiKey);
  const counterpartyBefore = await casinoBalanceMicro(session, counterparty.apiKey);
  if (creatorBefore === null || counterpartyBefore === null) return unmeasured('a balance could not be read');
  if (creatorBefore < amountMicro)
    return unmeasured(`the creator's balance ${formatDecimal(creatorBefore)} cannot fund a control escrow`);
  const { created, released } = await controlRelease(session, creator, counterparty, amountMicro);
  const creatorAfter = await casinoBalanceMicro(session, creator.apiKey);
  const counterpartyAfter = await casinoBalanceMicro(session, counterparty.apiKey);
  // Whatever the control did is handed back, so earlier reads stay usable.
  const creatorDeltaMicro = creatorAfter === null ? 0n : creatorAfter - creatorBefore;
  const counterpartyDeltaMicro = counterpartyAfter === null ? 0n : counterpartyAfter - counterpartyBefore;
  if (created.kind !== 'ok') return unmeasured(`the control escrow was ${answerText(created)}`);
  if (released === null || (released.kind !== 'ok' && released.kind !== 'unreadable'))
    return unmeasured(
      `the control escrow ${created.value.escrowId}'s HTTP release was ${released === null ? 'not sent' : answerText(released)}`,
      creatorDeltaMicro,
      counterpartyDeltaMicro,
    );
  if (creatorAfter === null || counterpartyAfter === null)
    return unmeasured(
      'a balance could not be read after the control release',
      creatorDeltaMicro,
      counterpartyDeltaMicro,
    );
  const feeMicro = -creatorDeltaMicro - counterpartyDeltaMicro;
  const moved = `control escrow ${created.value.escrowId} of ${formatDecimal(amountMicro)} released over HTTP: the creator's balance ${formatDecimal(creatorBefore)} → ${formatDecimal(creatorAfter)}, the counterparty's ${formatDecimal(counterpartyBefore)} → ${formatDecimal(counterpartyAfter)}`;
  if (feeMicro < 0n || feeMicro > amountMicro)
    return unmeasured(`${moved}, no fee between nothing and the amount`, creatorDeltaMicro, counterpartyDeltaMicro);
  return {
    known: true,
    feeMicro,
    stated: false,
    source: `the fee ${formatDecimal(feeMicro)} measured (no fee stated; ${moved})`,
    creatorDeltaMicro,
    counterpartyDeltaMicro,
  };
}

/** The fee the creation answer stated: nothing to measure. */
function statedFee(statedMicro: Micro): ReleaseFee {
  return {
    known: true,
    feeMicro: statedMicro,
    stated: true,
    source: `the fee ${formatDecimal(statedMicro)} the creation answer stated`,
    creatorDeltaMicro: 0n,
    counterpartyDeltaMicro: 0n,
  };
}

/** The control escrow created and released over HTTP (the release not sent when the creation failed). */
async function controlRelease(
  session: LiveSession,
  creator: EscrowParty,
  counterparty: EscrowParty,
  amountMicro: Micro,
) {
  const created = await session.call(
    'escrow.create',
    {
      amountMicro,
      creatorId: creator.agentId,
      counterpartyId: counterparty.agentId,
      description: 'afp control escrow: the fee a release takes',
      timeoutHours: 1,
    },
    creator.apiKey,
  );
  const released =
    created.kind === 'ok'
      ? await session.call('escrow.release', { escrowId: created.value.escrowId }, creator.apiKey)
      : null;
  return { created, released };
}
