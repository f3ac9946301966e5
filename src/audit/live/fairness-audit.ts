/**
 * The live fairness audit through a target's dialect and fairness scheme (`afp audit fairness
 * --target URL|FILE --key KEY`): every bet of the account's history checked under the target's own
 * published scheme — the commitment, the result hash, that the outcome follows the target's rule,
 * that the amount paid is right — each a separate finding when it fails (verification-findings.ts).
 * A bet whose hashes verify but whose mapping differs is a rule finding, never "unfair".
 *
 * Steps: rotate the seed (revealing the active one); page the history (`casino.history`, newest
 * first) up to `maxBets` ids; read each bet's audit trail (`casino.audit`, at most `concurrency` in
 * flight); read the seed list; verify every bet in the history's order, whatever order the answers
 * arrived in. A bet's seed comes from the rotation or the seed list, else from its own audit
 * trail when that reveals it (the commitment check guards every source alike). Its parameters are
 * the audit trail's, else the scheme's reading of its result (FairnessScheme.paramsOf); when
 * neither has them the outcome and payout are not checked, with the reason.
 * Also: two bets with the same (seed, nonce) are a critical finding; a seed never revealed is major;
 * where the target's rule gives another exact edge than the documents' table for a variant seen,
 * an info finding (edge-findings.ts `rule:<variant>:documents`).
 * Budgets: `maxBets` (≤ FAIRNESS_BETS_MAX) and the deadline; once the deadline passes, the seed
 * list is still read (LiveSession.windUp) and what was audited is verified.
 * Limits: history pages ≤ maxBets + 1 (each must add a new id); variants compared ≤ VARIANTS_COMPARED_MAX.
 */
import { runBounded, type Deadline } from '../../core/deadline.ts';
import type { JsonObject } from '../../core/errors.ts';
import { findGame } from '../../services/casino/games/index.ts';
import type { FairnessScheme, SchemeBet, SchemeVerdict } from '../fairness/scheme.ts';
import {
  type CallOutcome,
  type LiveSession,
  type SentRequest,
  endpointOf,
  type AuditedBet,
  refusalWords,
} from '../../live.ts';
import type { FindingsCollector } from '../../report/findings/finding.ts';
import { recordDocumentsDifference } from './edge-findings.ts';
import { proofHolds, recordNonceReused, recordVerification, selfContradiction } from './verification-findings.ts';
import { AnswerTally } from './answer-consistency.ts';
import { payoutFieldsOf } from './edge-tier.ts';
import { DrawTally } from './draw-agreement.ts';

import { FAIRNESS_BETS_MAX } from '../fairness/bets-limits.ts';

/** Bets asked per history page (the dialects cap it: style B 100, the deployment 200). */
export const HISTORY_PAGE_BETS = 200;
export const VARIANTS_COMPARED_MAX = 200;

export interface FairnessAuditOptions {
  readonly session: LiveSession;
  readonly apiKey: string;
  readonly scheme: FairnessScheme;
  readonly maxBets: number;
  readonly concurrency: number;
  readonly deadline: Deadline;
  readonly findings: FindingsCollector;
  /** A request as a curl line (the `$AFP_KEY` form): a failed commitment's reproduce, the call that revealed the seed. */
  readonly curlOf?: (request: SentRequest) => string;
}

/** The call that revealed a seed: a failed commitment's endpoint and curl (the GET that shows the seed, where one did). */
type SeedReveal = { readonly endpoint: string; readonly reproduce?: string };

/** Where a seed came from, as a failed commitment's evidence. */
function revealOf(options: FairnessAuditOptions, op: string, request: SentRequest): SeedReveal {
  const curl = options.curlOf?.(request);
  return { endpoint: endpointOf(op, request), ...(curl === undefined ? {} : { reproduce: curl }) };
}

/** One game's bets, by what their verification said. */
export interface GameTally {
  readonly game: string;
  /** Audit trails read. */
  audited: number;
  /** Verified against a revealed seed (the four checks ran). */
  verified: number;
  /** Outcome checked and following the rule. */
  followedRule: number;
  /** Payout checked and right. */
  paidRight: number;
  /** Outcome or payout not checked (parameters unknown, a field lacking, no rule). */
  notChecked: number;
  /** Seed never revealed. */
  notRevealed: number;
}

export interface FairnessAuditResult {
  /** What the rotation did: revealed a seed, found none active, or could not be done. */
  readonly rotation: 'revealed' | 'none-active' | 'failed';
  readonly historyTotal: number | null;
  readonly listed: number;
  readonly audited: number;
  readonly verified: number;
  /** By game, in name order. */
  readonly games: readonly GameTally[];
  readonly stoppedBy: 'deadline' | 'max-bets' | null;
  /** Steps that failed outright (the history refused, say), for the report and the exit code. */
  readonly troubles: readonly string[];
}

const why = (outcome: Exclude<CallOutcome<unknown>, { kind: 'ok' }>): string => {
  switch (outcome.kind) {
    case 'refused':
      return `${outcome.refusal.status} ${outcome.refusal.name}: ${outcome.refusal.message}`;
    case 'unreadable':
      return `answered ${outcome.status} without the fields needed (see the shape findings)`;
    case 'unsupported':
      return outcome.reason;
    case 'unreachable':
      return outcome.message;
    case 'deadline':
      return 'the time budget ran out';
  }
};

export async function auditFairnessLive(options: FairnessAuditOptions): Promise<FairnessAuditResult> {
  const { session, apiKey, deadline } = options;
  const troubles: string[] = [];
  const seeds = new Map<string, string>();
  const reveals = new Map<string, SeedReveal>();
  const rotated = await session.call('casino.rotate', {}, apiKey);
  if (rotated.kind === 'ok' && rotated.value.revealedSeed !== null && rotated.value.revealedSeedHash !== null) {
    seeds.set(rotated.value.revealedSeedHash, rotated.value.revealedSeed);
    reveals.set(rotated.value.revealedSeedHash, revealOf(options, 'casino.rotate', rotated.request));
  } else if (rotated.kind !== 'ok') troubles.push(`casino.rotate: ${why(rotated)}`);
  const rotation = rotated.kind !== 'ok' ? 'failed' : rotated.value.revealedSeed !== null ? 'revealed' : 'none-active';
  const history = await readHistory(options, troubles);
  const trails = new Array<AuditedBet | null>(history.betIds.length).fill(null);
  const trailReveals = new Array<SeedReveal | null>(history.betIds.length).fill(null);
  await runBounded(
    history.betIds.length,
    options.concurrency,
    async (index) => {
      const betId = history.betIds[index] as string;
      const answer = await session.call('casino.audit', { betId }, apiKey);
      if (answer.kind === 'ok') {
        trails[index] = answer.value;
        trailReveals[index] = revealOf(options, 'casino.audit', answer.request);
      } else if (answer.kind === 'refused')
        options.findings.add({
          id: `fairness:audit:refused:${answer.refusal.name}`,
          severity: 'major',
          kind: 'fairness',
          title: `the audit trail of a bet in the history was refused (${refusalWords(answer.refusal)}): the bet cannot be verified`,
          endpoint: 'casino.audit',
          expected: "the audit trail of every one of the account's bets",
          seen: answer.refusal.body,
          evidence: `bet ${betId}: ${answer.refusal.message}`,
        });
    },
    () => deadline.passed(),
  );
  const stoppedBy = deadline.passed() ? 'deadline' : history.truncated ? 'max-bets' : null;
  session.windUp();
  const listed = await session.call('casino.seeds', {}, apiKey);
  if (listed.kind === 'ok') {
    for (const { seedHash, seed } of listed.value.seeds)
      if (seed !== null && !seeds.has(seedHash)) {
        seeds.set(seedHash, seed);
        reveals.set(seedHash, revealOf(options, 'casino.seeds', listed.request));
      }
  } else troubles.push(`casino.seeds: ${why(listed)}`);
  const games = verifyAll(options, trails, { seeds, reveals, trailReveals });
  const sum = (pick: (tally: GameTally) => number): number => games.reduce((total, tally) => total + pick(tally), 0);
  return {
    rotation,
    historyTotal: history.total,
    listed: history.betIds.length,
    audited: sum((tally) => tally.audited),
    verified: sum((tally) => tally.verified),
    games,
    stoppedBy,
    troubles,
  };
}

/** The history's bet ids, newest first, page by page; each page must add an id not seen before. */
async function readHistory(
  options: FairnessAuditOptions,
  troubles: string[],
): Promise<{ betIds: string[]; total: number | null; truncated: boolean }> {
  const { session, apiKey, deadline } = options;
  const maxBets = Math.min(options.maxBets, FAIRNESS_BETS_MAX);
  const seen = new Set<string>();
  const betIds: string[] = [];
  let total: number | null = null;
  let more = true;
  for (let page = 0; page <= maxBets && more && betIds.length < maxBets && !deadline.passed(); page += 1) {
    const answer = await session.call('casino.history', { offset: betIds.length, limit: HISTORY_PAGE_BETS }, apiKey);
    if (answer.kind !== 'ok') {
      if (answer.kind !== 'deadline') troubles.push(`casino.history at offset ${betIds.length}: ${why(answer)}`);
      break;
    }
    total = answer.value.total ?? total;
    const fresh = answer.value.betIds.filter((betId) => !seen.has(betId));
    for (const betId of fresh.slice(0, maxBets - betIds.length)) {
      seen.add(betId);
      betIds.push(betId);
    }
    more = answer.value.hasMore && fresh.length > 0;
  }
  return { betIds, total, truncated: betIds.length >= maxBets && (more || (total !== null && total > maxBets)) };
}

function tallyOf(tallies: Map<string, GameTally>, game: string): GameTally {
  let tally = tallies.get(game);
  if (tally === undefined) {
    tally = { game, audited: 0, verified: 0, followedRule: 0, paidRight: 0, notChecked: 0, notRevealed: 0 };
    tallies.set(game, tally);
  }
  return tally;
}

/** The afp name of the variant the parameters play (`dice:over:50`), else the game's name. */
function variantOf(game: string, params: JsonObject | null): string {
  const module = findGame(game);
  const parsed = module === undefined || params === null ? null : module.parse(params);
  return module !== undefined && parsed?.ok === true ? module.variantName(parsed.value) : game;
}

/**
 * Two bets drawing one (seed, nonce) pair: the same result handed out twice (critical), unless both
 * belong to one shared round. `draws` maps `seed hash:nonce` to the first bet's round, else its id.
 * A bet of several draws (a parlay, FairnessScheme.legsOf) draws its legs' nonces, not its stored one.
 */
function checkDraw(
  findings: FindingsCollector,
  draws: Map<string, { owner: string; betId: string }>,
  bet: SchemeBet,
  options: { readonly round: string | null; readonly nonces: readonly number[] },
): void {
  const owner = options.round ?? bet.betId;
  for (const nonce of options.nonces) {
    const draw = `${bet.seedHash}:${nonce}`;
    const earlier = draws.get(draw);
    if (earlier === undefined) {
      draws.set(draw, { owner, betId: bet.betId });
      continue;
    }
    if (earlier.owner === owner) continue;
    recordNonceReused(
      findings,
      nonce,
      `bets ${earlier.betId} and ${bet.betId} both draw nonce ${nonce} of seed ${bet.seedHash}`,
    );
  }
}

/** The scheme's verdict with the outcome and payout not checked (the parameters are unknown). */
function withoutParams(verdict: SchemeVerdict, reason: string): SchemeVerdict {
  return {
    ...verdict,
    outcome: { status: 'not-checked', reason },
    payout: { status: 'not-checked', reason },
    multiplier: null,
  };
}

function verifyAll(
  options: FairnessAuditOptions,
  trails: ReadonlyArray<AuditedBet | null>,
  revealed: Revealed,
): GameTally[] {
  const { scheme, findings } = options;
  const run: Verifying = {
    tallies: new Map(),
    draws: new Map(),
    variants: new Map(),
    offRule: new Set(),
    drawTally: new DrawTally(),
    answerTally: new AnswerTally(),
  };
  for (const [index, trail] of trails.entries()) {
    if (trail === null) continue;
    verifyOne(options, run, trail, {
      seedHex: revealed.seeds.get(trail.bet.seedHash) ?? trail.revealedSeed,
      seedReveal: revealed.seeds.has(trail.bet.seedHash)
        ? revealed.reveals.get(trail.bet.seedHash)
        : revealed.trailReveals[index],
    });
  }
  run.drawTally.record(findings, scheme.name);
  run.answerTally.record();
  for (const [variant, played] of [...run.variants].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (!run.offRule.has(played.game)) recordDocumentsDifference(findings, scheme, { ...played, variant });
  return [...run.tallies.values()].sort((a, b) => (a.game < b.game ? -1 : a.game > b.game ? 1 : 0));
}

/** The seeds the audit saw revealed: by seed hash, and per trail where the trail revealed its own. */
interface Revealed {
  readonly seeds: ReadonlyMap<string, string>;
  readonly reveals: ReadonlyMap<string, SeedReveal>;
  readonly trailReveals: ReadonlyArray<SeedReveal | null>;
}

/** What verifying the trails keeps across bets. */
interface Verifying {
  readonly tallies: Map<string, GameTally>;
  readonly draws: Map<string, { owner: string; betId: string }>;
  readonly variants: Map<string, { game: string; params: JsonObject }>;
  readonly offRule: Set<string>;
  readonly drawTally: DrawTally;
  readonly answerTally: AnswerTally;
}

/** One bet's trail verified by the scheme: its draw, its proof, its outcome and payout, tallied and recorded. */
function verifyOne(
  options: FairnessAuditOptions,
  run: Verifying,
  trail: AuditedBet,
  seed: { readonly seedHex: string | null; readonly seedReveal: SeedReveal | null | undefined },
): void {
  const { scheme, findings } = options;
  const { seedHex, seedReveal } = seed;
  const { bet } = trail;
  const tally = tallyOf(run.tallies, bet.game);
  tally.audited += 1;
  const params = trail.params ?? scheme.paramsOf?.(bet.game, bet.result) ?? null;
  const variant = variantOf(bet.game, params);
  if (params !== null && !run.variants.has(variant) && run.variants.size < VARIANTS_COMPARED_MAX)
    run.variants.set(variant, { game: bet.game, params });
  const schemeBet: SchemeBet = { ...bet, params: params ?? {} };
  checkDraw(findings, run.draws, schemeBet, {
    round: scheme.roundOf?.(schemeBet) ?? null,
    nonces: scheme.legsOf?.(schemeBet)?.map((leg) => leg.nonce) ?? [bet.nonce],
  });
  const checked = seedHex === null ? null : scheme.verify(schemeBet, seedHex);
  const verdict =
    checked === null || params !== null
      ? checked
      : withoutParams(
          checked,
          `the audit trail carries no parameters and the ${scheme.name} scheme cannot read them from the result`,
        );
  if (seedHex !== null && verdict !== null && proofHolds(verdict))
    run.drawTally.add(scheme, {
      bet: schemeBet,
      verdict,
      seedHex,
      ...(seedReveal === undefined || seedReveal === null ? {} : { request: seedReveal }),
    });
  const exact = verdict !== null && proofHolds(verdict) && verdict.outcome.status === 'ok';
  run.answerTally.add(findings, scheme, schemeBet, variant, exact);
  recordVerification(findings, {
    bet: schemeBet,
    variant,
    seedHex,
    verdict,
    scheme: scheme.name,
    publishedIsAdvertised: scheme.documentsAdvertise === true,
    contradictsItself: selfContradiction(scheme, schemeBet),
    ...(seedReveal === undefined || seedReveal === null ? {} : { seedReveal }),
    payoutFields: [...payoutFieldsOf(scheme, bet.game), ...(scheme.ruleFields?.(bet.game) ?? [])],
  });
  // The published rule's edge against the documents' says nothing of a game whose bets did not follow it (afp's own scheme aside).
  if (
    verdict !== null &&
    proofHolds(verdict) &&
    scheme.documentsAdvertise !== true &&
    (verdict.outcome.status === 'failed' || verdict.payout.status === 'failed')
  )
    run.offRule.add(bet.game);
  countVerdict(tally, verdict);
}

/** The game's tally of one bet's verdict. */
function countVerdict(tally: GameTally, verdict: SchemeVerdict | null): void {
  if (verdict === null) {
    tally.notRevealed += 1;
    return;
  }
  // A bet whose proof failed is not verified (its findings say so), nor judged by the rule.
  if (!proofHolds(verdict)) return;
  tally.verified += 1;
  if (verdict.outcome.status === 'ok') tally.followedRule += 1;
  if (verdict.payout.status === 'ok') tally.paidRight += 1;
  if (verdict.outcome.status === 'not-checked' || verdict.payout.status === 'not-checked') tally.notChecked += 1;
}
