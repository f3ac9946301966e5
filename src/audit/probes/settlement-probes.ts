/**
 * Settlement over time (`afp audit money --target … --include-slow --max-minutes N`): what only a
 * clock shows. Two escrows from the audit account to the second one:
 *   - escrow-expiry: an escrow at the SHORTEST expiry the target's dialect allows (its escrow.create
 *     row's terms: the deployment clamps `timeout_hours` to ≥ 1 h and sweeps every 5 minutes) must
 *     be refunded in full with no fee once it expires (platform.md "Escrow": expiry → full amount, no
 *     fee). A refund short by exactly the commission its creation stated is the target's own rule
 *     (the deployment's, DEPLOYED.md §4): a minor rule finding. Any other short refund is a major
 *     money finding; more than the amount, critical;
 *   - escrow-dispute: a disputed escrow must leave `disputed` within the documents' 48-hour window,
 *     paying its amount (less at most the fee its creation answer stated; where it states none, the
 *     fee a control escrow released over HTTP took, escrow-fee.ts) to one of the parties.
 * Time: on an afp serve (its admin doors) the serve's clock is moved (POST /_afp/clock) past each
 * wait, so the probes take seconds; elsewhere afp polls on the wall clock, at most --max-minutes,
 * and a wait longer than that is skipped with its reason, never silent. The plan (what is awaited,
 * how long at most, travel or wait) is said before any waiting.
 * An escrow not settled when its wait ends is one liveness finding listing the escrow ids (major:
 * with --fail-on major it decides exit 3; the command itself finished). A wait cut short (Ctrl-C,
 * the run's time limit, a clock that could not be moved) observed nothing about the settlement: the
 * probe says how much of the wait passed, and raises no finding.
 * Non-goals: the sweep's exact instant (only "by expiry + sweep"); who wins a dispute.
 */
import { answerText, callCounts, skipCauseOf } from './probe-context.ts';
import { casinoBalanceMicro } from './casino-balance.ts';
import { formatDecimal, type Micro } from '../../core/money.ts';
import type { LiveSession, SentRequest, EscrowView } from '../../live.ts';
import type { FindingInput, FindingsCollector } from '../../report/findings/finding.ts';
import { escrowReleaseFee, type ReleaseFee } from './escrow-fee.ts';

const ESCROW_MICRO = 100_000n;
/**
 * Balances are read where the target keeps them unrounded (the deployment's `balance_usd` carries
 * float noise, not 2-decimal rounding): a hundredth of a cent tells the 1% fee of a 0.10 escrow apart.
 */
const ROUNDING_MICRO = 100n;
/** The documents' dispute window (platform.md "Escrow": a 48 hour resolution window). */
export const DISPUTE_WINDOW_SECONDS = 48 * 3_600;
/** Past the due instant: a timer that fires on the next request, a poll's lag. */
const GRACE_MS = 2_000;
const POLL_MS = 15_000;
/** Escrow statuses that are not yet settled, in the documents' and the deployment's words. */
const OPEN_STATUSES = new Set(['locked', 'funded', 'completed', 'disputed', 'frozen']);

/** How time passes for the probes: the serve's clock moved, or the wall clock waited on. */
export interface TimePassage {
  readonly mode: 'travel' | 'wait';
  /** What the plan line says it does. */
  readonly how: string;
  /** Lets `ms` pass; false when it could not (the reason is the note). */
  pass(ms: number): Promise<boolean>;
}

export interface SettlementContext {
  readonly session: LiveSession;
  readonly apiKey: string;
  readonly agentId: string;
  readonly second: { readonly apiKey: string; readonly agentId: string } | null;
  readonly findings: FindingsCollector;
  readonly curlOf: (request: SentRequest) => string;
  readonly maxMinutes: number;
  readonly time: TimePassage;
  /** Where the plan is said (before any wait). */
  readonly say: (line: string) => void;
}

export interface SettlementResult {
  readonly name: string;
  readonly status: 'ran' | 'skipped';
  readonly note: string;
  readonly findingIds: readonly string[];
  /** Skipped because the time budget could not hold one of its calls (probe-context.ts skipCauseOf). */
  readonly outOfTime?: true;
  /** Skipped because the target did not answer one of its calls: that call's message (skipCauseOf). */
  readonly unreachable?: string;
}

export interface Watched {
  readonly name: 'escrow-expiry' | 'escrow-dispute';
  readonly escrowId: string;
  readonly dueMs: number;
  /** What it waits for, for the plan and the liveness finding. */
  readonly awaited: string;
  readonly creatorBefore: Micro | null;
  readonly secondBefore: Micro | null;
  /** The fee a release takes (the dispute's): stated, or measured by a control escrow; unknown with why. */
  readonly fee: ReleaseFee | null;
  /** The fee (commission) the creation answer stated, or null: a refund short by exactly it is the target's rule. */
  readonly statedFeeMicro: Micro | null;
  readonly reproduce: string;
  /**
   * The statuses of an escrow not yet settled: the documents' and the deployment's words, and the
   * ones this escrow was seen in while it was surely open (after its creation, after its dispute),
   * so a target with names of its own is never taken as settled at once.
   */
  readonly openStatuses: ReadonlySet<string>;
  view: EscrowView | null;
}

export const duration = (ms: number): string => {
  const seconds = Math.round(ms / 1000);
  const parts = [
    [Math.floor(seconds / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'min'],
    [seconds % 60, 's'],
  ] as const;
  return (
    parts
      .filter(([value]) => value > 0)
      .map(([value, unit]) => `${value} ${unit}`)
      .join(' ') || '0 s'
  );
};

export const skipped = (name: string, note: string): SettlementResult => ({
  name,
  status: 'skipped',
  note,
  findingIds: [],
});

export interface SlowPlan {
  readonly name: Watched['name'];
  /** The escrow's expiry to ask for. */
  readonly seconds: number;
  readonly waitMs: number;
  readonly awaited: string;
  /** Why it cannot run (then nothing else matters). */
  readonly skip: string | null;
}

/**
 * The two probes' plans: what each waits for and how long at most, or why it cannot be observed
 * (`leaving`: opened and left for a later run, so no wait has to fit the budget).
 */
export function plansOf(context: SettlementContext, leaving = false): SlowPlan[] {
  const { session } = context;
  const budgetMs = context.maxMinutes * 60_000;
  const missing =
    context.second === null
      ? 'no second account could be opened (the escrows need a counterparty)'
      : ((['escrow.create', 'escrow.get'] as const).map((op) => session.offers(op)).find((reason) => reason !== null) ??
        null);
  const terms = session.row('escrow.create')?.expiry;
  const expiryMs = terms === undefined ? 0 : (terms.shortestSeconds + terms.sweepSeconds) * 1000 + GRACE_MS;
  const sweep =
    terms === undefined || terms.sweepSeconds === 0 ? '' : ` + ${duration(terms.sweepSeconds * 1000)} sweep`;
  const expirySkip =
    missing ??
    (terms === undefined
      ? "the dialect's escrow.create states no expiry it can set"
      : !leaving && context.time.mode === 'wait' && expiryMs > budgetMs
        ? `the shortest expiry the target allows (${duration(terms.shortestSeconds * 1000)}${sweep}: ${terms.source}) exceeds --max-minutes ${context.maxMinutes}: it cannot be observed within the budget`
        : null);
  const disputeMs = DISPUTE_WINDOW_SECONDS * 1000 + GRACE_MS;
  const disputeSkip =
    missing ??
    session.offers('escrow.dispute') ??
    (!leaving && context.time.mode === 'wait' && disputeMs > budgetMs
      ? `the documents' 48 h dispute window exceeds --max-minutes ${context.maxMinutes}: its resolution cannot be observed within the budget`
      : null);
  return [
    {
      name: 'escrow-expiry',
      seconds: terms?.shortestSeconds ?? 0,
      waitMs: expiryMs,
      awaited: `a full refund, no fee, of an escrow at the shortest expiry the target allows (${duration((terms?.shortestSeconds ?? 0) * 1000)}${sweep}; ${terms?.source ?? ''})`,
      skip: expirySkip,
    },
    {
      name: 'escrow-dispute',
      seconds: (3 * DISPUTE_WINDOW_SECONDS) / 2,
      waitMs: disputeMs,
      awaited: 'the resolution of a dispute within the documents\' 48 h window (platform.md "Escrow")',
      skip: disputeSkip,
    },
  ];
}

/**
 * Says the plan, then runs the probes one after the other (each escrow's balances are read around
 * its own wait alone), each skipped when the budget left cannot hold its wait.
 */
export async function runSettlementProbes(context: SettlementContext): Promise<SettlementResult[]> {
  const plans = plansOf(context);
  for (const plan of plans)
    context.say(
      plan.skip === null
        ? `plan: ${plan.name} waits for ${plan.awaited}: at most ${duration(plan.waitMs)}`
        : `plan: ${plan.name} skipped: ${plan.skip}`,
    );
  const runnable = plans.filter((plan) => plan.skip === null);
  if (runnable.length > 0)
    context.say(
      `plan: ${context.time.how}; at most ${duration(runnable.reduce((total, plan) => total + plan.waitMs, 0))} in all${context.time.mode === 'travel' ? " of the target's time (seconds of wall time)" : ''}`,
    );
  let leftMs = context.maxMinutes * 60_000;
  const results: SettlementResult[] = [];
  const unsettled: Watched[] = [];
  for (const plan of plans) {
    const second = context.second;
    if (plan.skip !== null || second === null) {
      results.push(skipped(plan.name, plan.skip ?? ''));
      continue;
    }
    if (context.time.mode === 'wait' && plan.waitMs > leftMs) {
      results.push(
        skipped(
          plan.name,
          `the ${duration(leftMs)} left of --max-minutes ${context.maxMinutes} cannot hold its ${duration(plan.waitMs)} wait`,
        ),
      );
      continue;
    }
    const probed = await waitAndJudge(context, second, plan, unsettled);
    leftMs -= probed.passedMs;
    results.push(probed.result);
  }
  return raiseUnsettled(context, unsettled, results);
}

/** One probe: its escrow opened, waited for and judged (an escrow still open joins `unsettled`); the time passed. */
export async function waitAndJudge(
  context: SettlementContext,
  second: { readonly apiKey: string; readonly agentId: string },
  plan: SlowPlan,
  unsettled: Watched[],
): Promise<{ readonly result: SettlementResult; readonly passedMs: number }> {
  const before = callCounts(context.session);
  const opened = await openEscrow(context, second, plan);
  if (typeof opened === 'string')
    return {
      result: { ...skipped(plan.name, opened), ...skipCauseOf('skipped', before, context.session) },
      passedMs: 0,
    };
  const passedMs = await waitFor(context, opened);
  if (passedMs < opened.dueMs && !settled(opened))
    return {
      result: {
        name: opened.name,
        status: 'ran',
        note: `escrow ${opened.escrowId}: its wait was cut short after ${duration(passedMs)} of ${duration(opened.dueMs)} (last read: ${opened.view?.status ?? 'unreadable'}), so its settlement was not observed`,
        findingIds: [],
      },
      passedMs,
    };
  const result = await judgeSettlement(context, second, opened);
  if (!settled(opened)) unsettled.push(opened);
  return { result, passedMs };
}

export async function openEscrow(
  context: SettlementContext,
  second: { apiKey: string; agentId: string },
  plan: SlowPlan,
): Promise<Watched | string> {
  const { session } = context;
  const creatorBefore = await casinoBalanceMicro(session, context.apiKey);
  const secondBefore = await casinoBalanceMicro(session, second.apiKey);
  if (creatorBefore === null || creatorBefore < ESCROW_MICRO)
    return `the audit account's balance (${creatorBefore === null ? 'unreadable' : formatDecimal(creatorBefore)}) cannot fund an escrow of ${formatDecimal(ESCROW_MICRO)}`;
  const input = {
    amountMicro: ESCROW_MICRO,
    creatorId: context.agentId,
    counterpartyId: second.agentId,
    description: `afp settlement probe: ${plan.name}`,
    timeoutHours: Math.max(1, Math.ceil(plan.seconds / 3600)),
    expiresInSeconds: plan.seconds,
  };
  const created = await session.call('escrow.create', input, context.apiKey);
  if (created.kind !== 'ok') return `the escrow was not created: ${answerText(created)}`;
  let reproduce = context.curlOf(created.request);
  const openStatuses = new Set(OPEN_STATUSES);
  if (created.value.status !== null) openStatuses.add(created.value.status);
  let fee: ReleaseFee | null = null;
  if (plan.name === 'escrow-dispute') {
    const disputed = await session.call(
      'escrow.dispute',
      { escrowId: created.value.escrowId, reason: 'afp settlement probe: the dispute window must resolve' },
      context.apiKey,
    );
    if (disputed.kind !== 'ok')
      return `escrow ${created.value.escrowId} could not be disputed: ${answerText(disputed)}`;
    reproduce = `${reproduce} && ${context.curlOf(disputed.request)}`;
    fee = await escrowReleaseFee(session, context, second, ESCROW_MICRO, created.value.feeMicro);
    // The status a dispute leaves it in, as the target names it (before any time passes).
    const read = await session.call('escrow.get', { escrowId: created.value.escrowId }, context.apiKey);
    if (read.kind === 'ok' && read.value.status !== null) openStatuses.add(read.value.status);
  }
  return {
    name: plan.name,
    escrowId: created.value.escrowId,
    dueMs: plan.waitMs,
    awaited: plan.awaited,
    // What a control escrow moved is not the watched escrow's doing.
    creatorBefore: creatorBefore === null ? null : creatorBefore + (fee?.creatorDeltaMicro ?? 0n),
    secondBefore: secondBefore === null ? null : secondBefore + (fee?.counterpartyDeltaMicro ?? 0n),
    fee,
    statedFeeMicro: created.value.feeMicro,
    reproduce,
    openStatuses,
    view: created.value,
  };
}

export const settled = (item: Watched): boolean =>
  item.view?.status != null && !item.openStatuses.has(item.view.status);

/** Lets time pass until the escrow settled or its wait ended; the time passed. */
async function waitFor(context: SettlementContext, item: Watched): Promise<number> {
  context.say(`wait: ${item.name}, escrow ${item.escrowId}: at most ${duration(item.dueMs)}`);
  let passedMs = 0;
  const stepMs = context.time.mode === 'travel' ? item.dueMs : POLL_MS;
  while (passedMs < item.dueMs && !settled(item)) {
    const moveMs = Math.min(stepMs, item.dueMs - passedMs);
    if (!(await context.time.pass(moveMs))) break;
    passedMs += moveMs;
    await refresh(context, item);
  }
  return passedMs;
}

async function refresh(context: SettlementContext, item: Watched): Promise<void> {
  const read = await context.session.call('escrow.get', { escrowId: item.escrowId }, context.apiKey);
  if (read.kind === 'ok') item.view = read.value;
}

export async function judgeSettlement(
  context: SettlementContext,
  second: { apiKey: string },
  item: Watched,
): Promise<SettlementResult> {
  const { session } = context;
  await refresh(context, item);
  const status = item.view?.status ?? 'unreadable';
  if (!settled(item))
    return {
      name: item.name,
      status: 'ran',
      note: `escrow ${item.escrowId} still ${status} after ${duration(item.dueMs)}`,
      findingIds: [],
    };
  const creatorAfter = await casinoBalanceMicro(session, context.apiKey);
  const secondAfter = await casinoBalanceMicro(session, second.apiKey);
  if (creatorAfter === null || item.creatorBefore === null)
    return {
      name: item.name,
      status: 'ran',
      note: `escrow ${item.escrowId} ${status}; the balance could not be read`,
      findingIds: [],
    };
  const creatorGain = creatorAfter - item.creatorBefore + ESCROW_MICRO;
  const secondGain = secondAfter === null || item.secondBefore === null ? 0n : secondAfter - item.secondBefore;
  const raised: FindingInput[] =
    item.name === 'escrow-expiry'
      ? judgeExpiry(item, status, creatorGain)
      : judgeDispute(item, status, creatorGain + secondGain);
  for (const finding of raised) context.findings.add(finding);
  const note =
    item.name === 'escrow-expiry'
      ? `escrow ${item.escrowId} of ${formatDecimal(ESCROW_MICRO)} ${status}; the creator got ${formatDecimal(creatorGain)} back`
      : `escrow ${item.escrowId} of ${formatDecimal(ESCROW_MICRO)} disputed, then ${status}; the parties got ${formatDecimal(creatorGain + secondGain)}${item.fee === null || (item.fee.known && item.fee.stated) ? '' : ` (a release's fee: ${item.fee.source})`}`;
  return { name: item.name, status: 'ran', note, findingIds: raised.map((finding) => finding.id) };
}

function judgeExpiry(item: Watched, status: string, refundMicro: Micro): FindingInput[] {
  const delta = refundMicro - ESCROW_MICRO;
  if (delta >= -ROUNDING_MICRO && delta <= ROUNDING_MICRO) return [];
  const short = delta < 0n;
  // Short by exactly the commission its creation answer stated: the target's own rule (the
  // deployment refunds amount − commission at expiry, DEPLOYED.md §4), a difference from the
  // documents a client must code around, not money gone astray.
  const fee = item.statedFeeMicro;
  if (short && fee !== null && fee > 0n) {
    const off = refundMicro - (ESCROW_MICRO - fee);
    if (off >= -ROUNDING_MICRO && off <= ROUNDING_MICRO)
      return [
        {
          id: 'rule:escrow:expiry-keeps-fee',
          severity: 'minor',
          kind: 'rule',
          title: `an expired escrow refunded ${formatDecimal(refundMicro)} of ${formatDecimal(ESCROW_MICRO)}: the target keeps the ${formatDecimal(fee)} commission its creation stated, where the documents refund the full amount with no fee`,
          endpoint: 'escrow.create (expiry)',
          expected: `${formatDecimal(ESCROW_MICRO)} (platform.md "Escrow": expiry → full amount, no fee)`,
          seen: formatDecimal(refundMicro),
          evidence: `escrow ${item.escrowId} of ${formatDecimal(ESCROW_MICRO)} stating a commission of ${formatDecimal(fee)}, ${status} after its shortest expiry; the creator's balance ${formatDecimal(item.creatorBefore ?? 0n)} before the escrow, ${formatDecimal((item.creatorBefore ?? 0n) - ESCROW_MICRO + refundMicro)} after`,
          reproduce: item.reproduce,
        },
      ];
  }
  return [
    {
      id: short ? 'money:escrow:expiry-refund-short' : 'money:escrow:expiry-refund-over',
      severity: short ? 'major' : 'critical',
      kind: 'money',
      title: short
        ? `an expired escrow refunded ${formatDecimal(refundMicro)} of ${formatDecimal(ESCROW_MICRO)}: ${formatDecimal(-delta)} kept, where the documents refund the full amount with no fee`
        : `an expired escrow refunded ${formatDecimal(refundMicro)}, more than its ${formatDecimal(ESCROW_MICRO)}`,
      endpoint: 'escrow.create (expiry)',
      expected: `${formatDecimal(ESCROW_MICRO)} (platform.md "Escrow": expiry → full amount, no fee)`,
      seen: formatDecimal(refundMicro),
      evidence: `escrow ${item.escrowId} of ${formatDecimal(ESCROW_MICRO)}, ${status} after its shortest expiry; the creator's balance ${formatDecimal(item.creatorBefore ?? 0n)} before the escrow, ${formatDecimal((item.creatorBefore ?? 0n) - ESCROW_MICRO + refundMicro)} after`,
      reproduce: item.reproduce,
    },
  ];
}

function judgeDispute(item: Watched, status: string, paidMicro: Micro): FindingInput[] {
  // With no fee to go by (none stated, none measured): something paid, at most the amount.
  const fee = item.fee?.known === true ? item.fee : null;
  const lowest = fee === null ? ROUNDING_MICRO + 1n : ESCROW_MICRO - fee.feeMicro - ROUNDING_MICRO;
  if (paidMicro >= lowest && paidMicro <= ESCROW_MICRO + ROUNDING_MICRO) return [];
  return [
    {
      id: 'money:escrow:dispute-resolution-paid',
      severity: paidMicro > ESCROW_MICRO ? 'critical' : 'major',
      kind: 'money',
      title: `a resolved dispute (${status}) paid the parties ${formatDecimal(paidMicro)} of an escrow of ${formatDecimal(ESCROW_MICRO)}`,
      endpoint: 'escrow.dispute (resolution)',
      expected:
        fee === null
          ? `more than nothing, at most ${formatDecimal(ESCROW_MICRO)} (refunded)`
          : `between ${formatDecimal(lowest + ROUNDING_MICRO)} (released, less ${fee.source}) and ${formatDecimal(ESCROW_MICRO)} (refunded)`,
      seen: formatDecimal(paidMicro),
      evidence: `escrow ${item.escrowId}${item.fee === null || item.fee.known ? '' : `; ${item.fee.source}`}`,
      reproduce: item.reproduce,
    },
  ];
}

/** One liveness finding for every escrow still open when its wait ended, listing their ids; the results with its id. */
export function raiseUnsettled(
  context: SettlementContext,
  open: readonly Watched[],
  results: readonly SettlementResult[],
): SettlementResult[] {
  if (open.length === 0) return [...results];
  const id = 'liveness:escrow:unsettled';
  const ids = open.map((item) => item.escrowId);
  context.findings.add({
    id,
    severity: 'major',
    kind: 'rule',
    title: `${open.length} escrow(s) did not settle within their wait: ${ids.join(', ')}`,
    endpoint: 'escrow.get',
    expected: open.map((item) => `${item.escrowId}: ${item.awaited}, within ${duration(item.dueMs)}`),
    seen: open.map((item) => `${item.escrowId}: ${item.view?.status ?? 'unreadable'}`),
    evidence: open
      .map(
        (item) =>
          `${item.name} ${item.escrowId} still ${item.view?.status ?? 'unreadable'} after ${duration(item.dueMs)} (${context.time.how})`,
      )
      .join('; '),
    reproduce: open.map((item) => item.reproduce).join(' && '),
  });
  const names = new Set(open.map((item) => item.name));
  return results.map((result) =>
    names.has(result.name as Watched['name']) ? { ...result, findingIds: [...result.findingIds, id] } : result,
  );
}
