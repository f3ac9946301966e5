/**
 * Money probes of the MCP doors (`afp audit money --target`): a tool of a service's `/mcp` must keep
 * the rules the same operation keeps over HTTP. The deployment's faucet and escrow serve MCP tools
 * beside their routes (DEPLOYED.md §3, §4), and two of them differ from their routes there: the
 * faucet's `claim_faucet` skips the per-IP cooldown, the escrow's `release_escrow` changes the
 * status and credits nobody.
 *   - mcp-faucet-cooldown: from one address, a fresh agent claims over HTTP, then a second; the
 *     second's refusal with 429 measures the target's per-address cooldown (a second claim that is
 *     paid: the target keeps none, and there is nothing for MCP to skip). Then a third fresh agent
 *     claims through `claim_faucet`: paid where HTTP refused is a major finding, the cooldown
 *     skipped through the door (an agent farm claims there what HTTP refuses);
 *   - mcp-escrow-release: the audit account escrows RELEASE_PROBE_MICRO to the second account and
 *     releases it through `release_escrow`. An accepted release must credit the counterparty the
 *     amount less the fee the creation answer states; where it states none, the fee one control
 *     escrow released over HTTP shows (escrow-fee.ts), never the documents' 1% recited.
 *     Credited less, with the escrow no longer held: critical (the money went nowhere the target
 *     names); still held: major (the door answered success and did nothing; it is then released
 *     over HTTP); credited more: major.
 * Measured, not recited: the cooldown is the one HTTP showed, the fee the one the target stated
 * (or, unstated, the one HTTP took), and what a door did is what the balances show: a 2xx whose
 * words afp cannot read counts as the door's answer, judged by the balances and the escrow's
 * status, never by its text.
 * Costs: three registrations and at most one faucet credit each paid claim; an escrow's fee (two
 * where none is stated). A probe whose operations the dialect cannot express (no MCP door: the
 * documents' style B, a target with no /mcp) is skipped with why, as is one the balances cannot
 * pay for.
 */
import { formatDecimal } from '../../core/money.ts';
import { type CallOutcome, type OperationResult, refusalWords } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import { casinoBalanceMicro } from './casino-balance.ts';
import { answerText, DISPLAY_ROUNDING_MICRO, reproduceOf, type ProbeContext } from './probe-context.ts';
import { escrowReleaseFee, type ReleaseFee } from './escrow-fee.ts';
import type { Micro } from '../../core/money.ts';

export const RELEASE_PROBE_MICRO = 200_000n;

type Raise = (finding: FindingInput) => void;
type ProbeOutcome = { status: 'ran' | 'skipped'; note: string };

/** A fresh casino agent, or why none was opened. */
async function freshAgent(context: ProbeContext): Promise<{ agentId: string; apiKey: string } | string> {
  const registered = await context.session.call('casino.register', {}, null);
  return registered.kind === 'ok' ? registered.value : `a registration was ${answerText(registered)}`;
}

/** A door's 2xx answer, read or not: what it did is judged by the balances, not by its words. */
const acceptedByDoor = (outcome: CallOutcome<unknown>): boolean =>
  outcome.kind === 'ok' || outcome.kind === 'unreadable';

/** Escrow states in which the money is still held: afp's and the documents' `locked`, the deployment's `funded` and `completed`. */
const HELD_STATES = new Set(['locked', 'funded', 'completed']);

/** A fresh agent's HTTP claim; the outcome, or why no agent could claim. */
async function httpClaim(context: ProbeContext): Promise<CallOutcome<unknown> | string> {
  const agent = await freshAgent(context);
  if (typeof agent === 'string') return agent;
  return context.session.call('faucet.claim', { agentId: agent.agentId }, null);
}

export async function mcpFaucetCooldown(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const unsupported = context.session.offers('faucet.mcp-claim') ?? context.session.offers('faucet.claim');
  if (unsupported !== null) return { status: 'skipped', note: unsupported };
  // The first claim from this address (or a refusal: the address claimed earlier, the audit's own funding).
  const first = await httpClaim(context);
  if (typeof first === 'string') return { status: 'skipped', note: first };
  if (first.kind !== 'ok' && !(first.kind === 'refused' && first.refusal.status === 429))
    return { status: 'skipped', note: `a fresh agent's HTTP claim was ${answerText(first)}` };
  const second = await httpClaim(context);
  if (typeof second === 'string') return { status: 'skipped', note: second };
  if (second.kind === 'ok')
    return {
      status: 'ran',
      note: 'two fresh agents claimed over HTTP from one address: the target keeps no per-address cooldown, none for MCP to skip',
    };
  if (second.kind !== 'refused' || second.refusal.status !== 429)
    return { status: 'skipped', note: `a second fresh agent's HTTP claim was ${answerText(second)}` };
  const cooldown = refusalWords(second.refusal);
  const agent = await freshAgent(context);
  if (typeof agent === 'string') return { status: 'skipped', note: agent };
  const before = await casinoBalanceMicro(context.session, agent.apiKey);
  const door = await context.session.call('faucet.mcp-claim', { agentId: agent.agentId }, null);
  if (door.kind === 'refused') {
    const refusal = refusalWords(door.refusal);
    // The cooldown's own refusal (a tool error has no status of its own: its name, or a 429 where one is stated).
    const same = door.refusal.name === second.refusal.name || door.refusal.status === 429;
    return same
      ? {
          status: 'ran',
          note: `HTTP refused a second agent's claim from this address (${cooldown}); claim_faucet refused a third (${refusal})`,
        }
      : {
          status: 'skipped',
          note: `claim_faucet answered ${refusal}, not the cooldown's refusal (${cooldown}): no door to compare (a target without /mcp answers 404)`,
        };
  }
  if (!acceptedByDoor(door)) return { status: 'skipped', note: `the MCP claim was ${answerText(door)}` };
  // Paid is what the balance shows; the answer's own amount only where the balance cannot be read.
  const after = await casinoBalanceMicro(context.session, agent.apiKey);
  const stated = door.kind === 'ok' ? door.value.creditedMicro : null;
  const credited = before !== null && after !== null ? after - before : stated;
  if (credited !== null && credited <= 0n)
    return {
      status: 'ran',
      note: `HTTP refused (${cooldown}); claim_faucet answered without an error but ${agent.agentId}'s balance did not rise`,
    };
  raise({
    id: 'money:faucet:mcp-skips-cooldown',
    severity: 'major',
    kind: 'money',
    title: `the faucet's MCP door paid a claim (${credited === null ? 'amount not stated' : formatDecimal(credited)}) from an address whose HTTP claim it refuses (${cooldown}): the per-address cooldown is skipped through /mcp`,
    endpoint: 'faucet.mcp-claim',
    field: 'claim_faucet',
    expected: `refused as over HTTP (${cooldown})`,
    seen: credited === null ? 'paid' : `paid ${formatDecimal(credited)}`,
    evidence: `one address: agent 2's HTTP claim refused ${cooldown}; agent ${agent.agentId}'s claim_faucet answered ${answerText(door)}, its balance ${before === null ? 'unreadable' : formatDecimal(before)} → ${after === null ? 'unreadable' : formatDecimal(after)}`,
    ...reproduceOf(context, door),
  });
  return { status: 'ran', note: `HTTP refused (${cooldown}); claim_faucet paid ${agent.agentId}` };
}

export async function mcpEscrowRelease(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const second = context.second;
  if (second === null) return { status: 'skipped', note: 'no second account could be opened (it is the counterparty)' };
  const unsupported = context.session.offers('escrow.mcp-release') ?? context.session.offers('escrow.create');
  if (unsupported !== null) return { status: 'skipped', note: unsupported };
  const funds = await casinoBalanceMicro(context.session, context.apiKey);
  // A control escrow where the target states no fee needs as much again; without it the fee stays unknown (escrow-fee.ts).
  if (funds === null || funds < RELEASE_PROBE_MICRO)
    return {
      status: 'skipped',
      note: `the balance (${funds === null ? 'unreadable' : formatDecimal(funds)}) is below ${formatDecimal(RELEASE_PROBE_MICRO)}`,
    };
  const created = await context.session.call(
    'escrow.create',
    {
      amountMicro: RELEASE_PROBE_MICRO,
      creatorId: context.agentId,
      counterpartyId: second.agentId,
      description: 'afp MCP release probe',
      timeoutHours: 1,
    },
    context.apiKey,
  );
  if (created.kind !== 'ok') return { status: 'skipped', note: `the escrow was not created: ${answerText(created)}` };
  const { escrowId } = created.value;
  const amountMicro = created.value.amountMicro ?? RELEASE_PROBE_MICRO;
  const creator = { apiKey: context.apiKey, agentId: context.agentId };
  const fee = await escrowReleaseFee(context.session, creator, second, amountMicro, created.value.feeMicro);
  const before = await casinoBalanceMicro(context.session, second.apiKey);
  const released = await context.session.call('escrow.mcp-release', { escrowId }, context.apiKey);
  if (!acceptedByDoor(released)) {
    // Not left held: the HTTP release settles it.
    await context.session.call('escrow.release', { escrowId }, context.apiKey);
    return { status: 'skipped', note: `release_escrow was ${answerText(released)}; released over HTTP instead` };
  }
  const after = await casinoBalanceMicro(context.session, second.apiKey);
  if (before === null || after === null)
    return {
      status: 'ran',
      note: `escrow ${escrowId} released through MCP; the counterparty's balance could not be read`,
    };
  const release = { escrowId, amountMicro, createdStatus: created.value.status, fee, before, after, released };
  return judgeMcpRelease(context, raise, release);
}

/** An escrow released through MCP, with the counterparty's balance read around the release. */
interface McpRelease {
  readonly escrowId: string;
  readonly amountMicro: Micro;
  /** The status the escrow was created in (a target's own word for held). */
  readonly createdStatus: string | null;
  readonly fee: ReleaseFee;
  readonly before: Micro;
  readonly after: Micro;
  readonly released: CallOutcome<OperationResult<'escrow.mcp-release'>>;
}

/** The counterparty's credit against what the release owed it: unpaid (still held, or gone), overpaid, or right. */
async function judgeMcpRelease(context: ProbeContext, raise: Raise, release: McpRelease): Promise<ProbeOutcome> {
  const { escrowId, amountMicro, fee, before, after, released } = release;
  // Due: the amount less the stated or measured fee; with no fee to go by, anything the balance shows, at most the amount.
  const dueMicro = fee.known ? amountMicro - fee.feeMicro : null;
  const paidMicro = after - before;
  const answered = released.kind === 'ok' ? (released.value.status ?? 'no status') : answerText(released);
  const unpaid =
    dueMicro === null ? paidMicro <= DISPLAY_ROUNDING_MICRO : paidMicro < dueMicro - DISPLAY_ROUNDING_MICRO;
  if (unpaid) {
    const held = await leftHeld(context, raise, release, answered);
    if (held !== null) return held;
  }
  const dueText =
    dueMicro === null ? `more than nothing, at most ${formatDecimal(amountMicro)}` : formatDecimal(dueMicro);
  const evidence = `escrow ${escrowId} of ${formatDecimal(amountMicro)}, released through release_escrow (answered ${answered}): the counterparty's balance ${formatDecimal(before)} → ${formatDecimal(after)}; due the amount less ${fee.source}`;
  const finding = {
    endpoint: 'escrow.mcp-release',
    field: 'release_escrow',
    expected: `the counterparty credited ${dueText}`,
    seen: formatDecimal(paidMicro),
    evidence,
    ...reproduceOf(context, released),
  };
  if (unpaid)
    raise({
      id: 'money:escrow:mcp-release-unpaid',
      severity: 'critical',
      kind: 'money',
      title: `release_escrow over MCP released an escrow of ${formatDecimal(amountMicro)} and credited the counterparty ${formatDecimal(paidMicro)} of ${dueText}: the rest went nowhere the target names`,
      ...finding,
    });
  else if (paidMicro > (dueMicro ?? amountMicro) + DISPLAY_ROUNDING_MICRO)
    raise({
      id: 'money:escrow:mcp-release-overpaid',
      severity: 'major',
      kind: 'money',
      title: `release_escrow over MCP credited the counterparty ${formatDecimal(paidMicro)} for an escrow due ${dueText}`,
      ...finding,
    });
  return {
    status: 'ran',
    note: `escrow ${escrowId} released through MCP: the counterparty's balance ${formatDecimal(before)} → ${formatDecimal(after)} (due ${dueText})`,
  };
}

/**
 * Unpaid: held still (the door did nothing: a major finding, and the escrow released over HTTP),
 * or released to nobody (the money is gone: null, judged as unpaid)?
 */
async function leftHeld(
  context: ProbeContext,
  raise: Raise,
  release: McpRelease,
  answered: string,
): Promise<ProbeOutcome | null> {
  const { escrowId, before, after, released } = release;
  const read = await context.session.call('escrow.get', { escrowId }, context.apiKey);
  const status = read.kind === 'ok' ? read.value.status : null;
  // Held: the documents' and the deployment's words, or the status this escrow was created in (a target's own name).
  if (status === null || !(HELD_STATES.has(status) || status === release.createdStatus)) return null;
  await context.session.call('escrow.release', { escrowId }, context.apiKey);
  raise({
    id: 'money:escrow:mcp-release-ignored',
    severity: 'major',
    kind: 'money',
    title: `release_escrow over MCP answered success (${answered}) and left escrow ${escrowId} ${status}: the counterparty was not paid`,
    endpoint: 'escrow.mcp-release',
    field: 'release_escrow',
    expected: 'released, the counterparty paid',
    seen: status,
    evidence: `the counterparty's balance ${formatDecimal(before)} → ${formatDecimal(after)}; released over HTTP afterwards`,
    ...reproduceOf(context, released),
  });
  return { status: 'ran', note: `escrow ${escrowId}: release_escrow left it ${status}; released over HTTP` };
}
