/**
 * The live fairness audit (`afp audit fairness --target URL --key KEY`): rotate the account's
 * seed (so every bet's seed is revealed), read its whole retained history, and recompute every
 * bet client-side from its audit trail (verify-wire-bet.ts) — the server's own verdict is never
 * read. Also: a (seed, nonce) pair drawn twice is a failure, gaps in a seed's nonces are notes
 * (nonce-findings.ts), and a revealed seed that the seeds list shows differently is a mismatch.
 *
 * Calls: POST /fairness/rotate; GET /fairness/seeds (the newest 100, for the cross-check);
 * GET /casino-api/history?limit=100&page=N from page 1 (newest first) until a short page or
 * `total` is reached; GET /fairness/audit/:betId per bet, at most `concurrency` in flight.
 * Results keep the history's order (newest first), whatever order the answers arrive in.
 * Limits: at most `maxBets` bets (the casino retains 10,000 per agent); every wait ends at the
 * deadline, and the result says so; at most MAX_LISTED mismatches are listed (all are counted).
 */
import type { AfpClient } from '../client/client.ts';
import { callPatiently, runBounded, type Deadline, type LiveClock } from './live-target.ts';
import { MAX_LISTED, NonceLedger, type NonceFindings } from './nonce-findings.ts';
import { verifyWireBet, type BetMismatch } from './verify-wire-bet.ts';
import { parseAuditTrail, type AuditTrail } from './wire-bet.ts';

export const HISTORY_PAGE_LIMIT = 100;
export const FAIRNESS_BETS_MAX = 100_000;
export const FAIRNESS_BETS_DEFAULT = 10_000;

export interface FairnessOptions {
  readonly client: AfpClient;
  readonly maxBets: number;
  readonly concurrency: number;
  readonly clock: LiveClock;
  readonly deadline: Deadline;
}

export interface FairnessResult {
  /** The seed the audit's rotation revealed (null if the rotation failed). */
  readonly rotatedSeedHash: string | null;
  /** The history's own count of the account's bets. */
  readonly historyTotal: number;
  readonly listed: number;
  readonly checked: number;
  readonly verified: number;
  readonly mismatchCount: number;
  readonly mismatches: readonly BetMismatch[];
  readonly nonces: NonceFindings;
  readonly stoppedBy: 'deadline' | 'max-bets' | null;
  /** Steps that failed outright (a refused rotation or history page), for the report. */
  readonly troubles: readonly string[];
}

/** A result with the target and account it is about (what the renderers show). */
export interface LiveFairnessReport {
  readonly target: string;
  readonly agentId: string;
  readonly result: FairnessResult;
}

const objectOf = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

export async function auditFairnessLive(options: FairnessOptions): Promise<FairnessResult> {
  const { client, clock, deadline } = options;
  const troubles: string[] = [];
  const rotated = await callPatiently(() => client.casino.rotate(), clock, deadline);
  const revealed = rotated === 'deadline' ? undefined : objectOf(rotated.body['revealed'])['server_seed_hash'];
  if (rotated === 'deadline' || !rotated.ok) troubles.push(`POST /fairness/rotate: ${rotated === 'deadline' ? 'rate limited past --max-seconds' : `${rotated.status} ${rotated.body.error}`}`);
  const seeds = await seedsList(client, clock, deadline);
  const history = await historyIds(options, troubles);
  const trails: Array<AuditTrail | string | undefined> = new Array<AuditTrail | string | undefined>(history.ids.length);
  await runBounded(history.ids.length, options.concurrency, async (index) => {
    const betId = history.ids[index] as string;
    const answer = await callPatiently(() => client.casino.audit(betId), clock, deadline);
    if (answer === 'deadline') return;
    const parsed = answer.ok ? parseAuditTrail(answer.body) : { ok: false as const, problem: `GET /fairness/audit/${betId} answered ${answer.status}: ${answer.body.error}` };
    trails[index] = parsed.ok ? parsed.value : parsed.problem;
  }, () => deadline.passed());
  const checked = checkTrails(history.ids, trails, seeds);
  const stoppedBy = deadline.passed() ? 'deadline' : history.truncated ? 'max-bets' : null;
  return {
    rotatedSeedHash: typeof revealed === 'string' ? revealed : null,
    historyTotal: history.total,
    listed: history.ids.length,
    ...checked,
    stoppedBy,
    troubles,
  };
}

async function seedsList(client: AfpClient, clock: LiveClock, deadline: Deadline): Promise<Map<string, string>> {
  const listed = await callPatiently(() => client.casino.seeds(), clock, deadline);
  const seeds = new Map<string, string>();
  const list = listed === 'deadline' || !listed.ok ? [] : listed.body['seeds'];
  for (const seed of Array.isArray(list) ? (list as unknown[]) : []) {
    const { server_seed_hash: hash, server_seed: hex } = objectOf(seed);
    if (typeof hash === 'string' && typeof hex === 'string') seeds.set(hash, hex);
  }
  return seeds;
}

/** The account's bet ids, newest first, page by page. */
async function historyIds(options: FairnessOptions, troubles: string[]): Promise<{ ids: string[]; total: number; truncated: boolean }> {
  const { client, clock, deadline, maxBets } = options;
  const ids: string[] = [];
  let total = 0;
  const maxPages = Math.ceil(maxBets / HISTORY_PAGE_LIMIT) + 1;
  for (let page = 1; page <= maxPages && !deadline.passed(); page++) {
    const answer = await callPatiently(() => client.casino.historyB({ limit: HISTORY_PAGE_LIMIT, page }), clock, deadline);
    if (answer === 'deadline') break;
    if (!answer.ok) {
      troubles.push(`GET /casino-api/history page ${page}: ${answer.status} ${answer.body.error}`);
      break;
    }
    const bets = Array.isArray(answer.body['bets']) ? (answer.body['bets'] as unknown[]) : [];
    total = typeof answer.body['total'] === 'number' ? answer.body['total'] : total;
    for (const bet of bets) {
      const id = objectOf(bet)['id'];
      if (typeof id === 'string' && ids.length < maxBets) ids.push(id);
    }
    if (bets.length < HISTORY_PAGE_LIMIT || page * HISTORY_PAGE_LIMIT >= total || ids.length >= maxBets) break;
  }
  return { ids, total, truncated: ids.length >= maxBets && total > maxBets };
}

function checkTrails(ids: readonly string[], trails: ReadonlyArray<AuditTrail | string | undefined>, seeds: ReadonlyMap<string, string>): Pick<FairnessResult, 'checked' | 'verified' | 'mismatchCount' | 'mismatches' | 'nonces'> {
  const nonces = new NonceLedger();
  const mismatches: BetMismatch[] = [];
  let mismatchCount = 0;
  let checked = 0;
  ids.forEach((betId, index) => {
    const trail = trails[index];
    if (trail === undefined) return;
    checked += 1;
    const problems = typeof trail === 'string' ? [trail] : [...verifyWireBet(trail.bet, trail.serverSeed).problems];
    if (typeof trail !== 'string') {
      const listed = seeds.get(trail.bet.seedHash);
      if (listed !== undefined && trail.serverSeed !== null && listed !== trail.serverSeed) problems.push('the seeds list reveals another server seed for this commitment');
      nonces.add({ betId, seedHash: trail.bet.seedHash, nonce: trail.bet.nonce, variant: trail.bet.variant });
    }
    if (problems.length === 0) return;
    mismatchCount += 1;
    if (mismatches.length < MAX_LISTED) {
      const bet = typeof trail === 'string' ? null : trail.bet;
      mismatches.push({ betId, game: bet?.game ?? '', variant: bet?.variant ?? null, seedHash: bet?.seedHash ?? '', nonce: bet?.nonce ?? -1, problems });
    }
  });
  return { checked, verified: checked - mismatchCount, mismatchCount, mismatches, nonces: nonces.findings() };
}
