/**
 * `afp target probe URL…`: probes each URL (probe-url.ts), classifies it (classify.ts), and makes
 * one target file of what it found. An afp serve's `/_afp/mounts` adds its announced mounts to the
 * URLs probed and makes it the admin URL.
 *
 * Choosing, when several URLs speak one service: a dialect that offers afp's live operations for
 * it first, then a URL the user gave (or one a serve reached directly announced: its own address)
 * over one announced by a serve reached through something in front of it (a proxy: its announced
 * mounts go around what the user gave), then a service on its own address, more live operations, more evidence,
 * and the URL given first. A service found only at an announced mount is named in the file's
 * comment and, where the serve was not reached at one of its own addresses (something stands in
 * front of it), in a note: the target then reaches that service around what the user gave. The file: registration on the casino when one was found;
 * funding by admin-deposit on an afp serve, else by the faucet when there is one, else keys from
 * AFP_KEYS; limits: where the probe's own GET of an operation (a marker naming its `op`) was
 * answered with an announced rate limit (announced-limit.ts), that limit as the per-minute pace that
 * never exceeds it; elsewhere, for services in the deployed dialect, afp's copy of the deployed
 * limits (src/live/dialects/deployed/limits.ts), marked as such in the file (`limitSources`); fairness `deployed` for a deployed casino, else `afp`.
 * Bounded: MAX_URLS given, MAX_PROBED_URLS probed in all (announced mounts included), one URL at a
 * time. The given URLs are checked in probe-input.ts (re-exported here). Non-goals: writing the file (the CLI does, refusing to overwrite without --force).
 */
import type { ServiceName } from '../../platform/platform.ts';
import { DEPLOYED_LIMITS } from '../dialects/deployed/limits.ts';
import { dialectByName } from '../dialects/index.ts';
import { perMinuteWithin, type AnnouncedLimit } from '../announced-limit.ts';
import { OPERATION_NAMES, type OperationName } from '../operations.ts';
import type { TargetFile } from '../target-schema.ts';
import type { DialectName } from '../target.ts';
import { classifyUrl, type DialectVotes, type Family, type UrlVerdict } from './classify.ts';
import { MAX_URLS, type ProbeInput } from './probe-input.ts';
import { ALL_MARKERS, probeUrl } from './probe-url.ts';
import { sentPath } from '../dialects/wire-marker.ts';

export { MAX_URLS, probeInput, type ProbeInput } from './probe-input.ts';

export const MAX_PROBED_URLS = 32;
export const KEYS_ENV = 'AFP_KEYS';
/** The order of services in a written file: the casino first, as the shipped targets have it. */
const FILE_ORDER: readonly ServiceName[] = ['casino', 'faucet', 'escrow', 'trading', 'wallet', 'domains'];

export interface ChosenService {
  readonly service: ServiceName;
  readonly url: string;
  readonly dialect: DialectName;
  readonly votes: Readonly<DialectVotes>;
  /** The URL's dialect family votes: why a dialect of the other family is not chosen however many votes it has. */
  readonly familyVotes: Readonly<Record<Family, number>>;
  /** Not a URL the user gave: the URL whose /_afp/mounts announced it, and whether that serve was reached directly. */
  readonly announced: { readonly by: string; readonly direct: boolean } | null;
}

export interface ProbeOutcome {
  readonly verdicts: readonly UrlVerdict[];
  readonly chosen: readonly ChosenService[];
  readonly notes: readonly string[];
  /** null when no service was recognized. */
  readonly file: TargetFile | null;
  /** Where each of the file's limits came from (the written file says it per line). */
  readonly limitSources: LimitSources;
}

/** What the target announced for an operation on the probe's GET of `path`. */
export interface LimitAnnouncement {
  readonly announced: AnnouncedLimit;
  readonly path: string;
}

/**
 * 'announced': the file's limit is the target's own, as announced; 'documented': afp's copy of
 * DEPLOYED.md, the target having announced nothing usable for the operation (`unusable`: what it
 * announced that a per-minute pace cannot express, a quota without a window or under 1 a minute).
 */
export type LimitSource =
  | ({ readonly kind: 'announced' } & LimitAnnouncement)
  | { readonly kind: 'documented'; readonly why: string; readonly unusable: LimitAnnouncement | null };

export type LimitSources = Readonly<Partial<Record<OperationName, LimitSource>>>;

export async function probeTarget(
  inputs: readonly ProbeInput[],
  options: { timeoutMs?: number } = {},
): Promise<ProbeOutcome> {
  const queue = [...new Set(inputs.map((input) => input.url))].slice(0, MAX_URLS);
  const given = [...queue];
  const notes = inputs.flatMap((input) => (input.note === null ? [] : [input.note]));
  const verdicts: UrlVerdict[] = [];
  for (let index = 0; index < queue.length && index < MAX_PROBED_URLS; index++) {
    const verdict = classifyUrl(await probeUrl(queue[index] as string, options));
    verdicts.push(verdict);
    for (const mounted of Object.values(verdict.mounts ?? {})) {
      if (mounted !== undefined && !queue.includes(mounted)) queue.push(mounted);
    }
  }
  if (queue.length > MAX_PROBED_URLS)
    notes.push(`${queue.length - MAX_PROBED_URLS} announced URLs not probed (at most ${MAX_PROBED_URLS})`);
  return decideTarget(verdicts, { notes, given });
}

/** How many of afp's live operations `dialect` offers for `service`. */
function operationsOffered(dialect: DialectName, service: ServiceName): number {
  const rows = dialectByName(dialect).rows;
  return OPERATION_NAMES.filter((op) => op.startsWith(`${service}.`) && rows[op] !== undefined).length;
}

function evidenceCount(votes: Readonly<DialectVotes>, dialect: DialectName): number {
  return votes[dialect] ?? 0;
}

/** Which serve announced `url` (the first verdict whose mounts name it), for a URL the user did not give. */
function announcer(verdicts: readonly UrlVerdict[], url: string): ChosenService['announced'] {
  const by = verdicts.find((verdict) => Object.values(verdict.mounts ?? {}).includes(url));
  return by === undefined ? null : { by: by.url, direct: by.announcesItself === true };
}

/**
 * The target of a set of verdicts (pure: the CLI's tests and `probeTarget` share it). `given`: the
 * URLs the user named (default: every verdict's, as if all were given).
 */
export function decideTarget(
  verdicts: readonly UrlVerdict[],
  context: { readonly notes?: readonly string[]; readonly given?: readonly string[] } = {},
): ProbeOutcome {
  const notes = [...(context.notes ?? [])];
  const given = new Set(context.given ?? verdicts.map((verdict) => verdict.url));
  const candidates = new Map<ServiceName, ChosenService[]>();
  for (const verdict of verdicts) {
    const announced = given.has(verdict.url) ? null : announcer(verdicts, verdict.url);
    for (const found of verdict.services)
      candidates.set(found.service, [
        ...(candidates.get(found.service) ?? []),
        {
          service: found.service,
          url: verdict.url,
          dialect: found.dialect,
          votes: found.votes,
          familyVotes: verdict.familyVotes,
          announced,
        },
      ]);
    for (const ruledOut of verdict.ruledOut) notes.push(`${verdict.url}: ${ruledOut}`);
    // A 429 carries no evidence of the endpoint behind it: say so, or a later probe that is not
    // rate limited would seem to disagree with this one.
    const limited = verdict.endpoints.filter((endpoint) => endpoint.status === 429).length;
    if (limited > 0)
      notes.push(
        `${verdict.url}: ${limited} of ${verdict.endpoints.length} answers were 429 (rate limited), so their evidence is missing; probe again once the limit has reset`,
      );
  }
  const chosen: ChosenService[] = [];
  // How many services answer at each URL: a service on its own address (style A, a deployment)
  // is preferred to a shared one (the documents' style B api_url), as resolving an afp serve URL does.
  const servicesAt = new Map(verdicts.map((verdict) => [verdict.url, verdict.services.length]));
  const offersAny = (found: ChosenService, service: ServiceName): number =>
    operationsOffered(found.dialect, service) > 0 ? 1 : 0;
  // A mount announced by a serve reached directly is the serve's own address, as good as given; one
  // announced through something in front of the serve goes around what the user gave.
  const givenRank = (found: ChosenService): number => (found.announced === null || found.announced.direct ? 1 : 0);
  for (const [service, list] of candidates) {
    // A stable sort: the URL given first wins the remaining ties.
    const ranked = [...list].sort(
      (a, b) =>
        offersAny(b, service) - offersAny(a, service) ||
        givenRank(b) - givenRank(a) ||
        (servicesAt.get(a.url) ?? 0) - (servicesAt.get(b.url) ?? 0) ||
        operationsOffered(b.dialect, service) - operationsOffered(a.dialect, service) ||
        evidenceCount(b.votes, b.dialect) - evidenceCount(a.votes, a.dialect),
    );
    const best = ranked[0] as ChosenService;
    chosen.push(best);
    for (const other of ranked.slice(1))
      notes.push(
        `${service} also answers at ${other.url} (${other.dialect}); chose ${best.url} (${best.dialect}: ${operationsOffered(best.dialect, service)} live operations, ${evidenceCount(best.votes, best.dialect)} pieces of evidence)`,
      );
  }
  chosen.sort((a, b) => FILE_ORDER.indexOf(a.service) - FILE_ORDER.indexOf(b.service));
  notes.push(...aroundNotes(chosen));
  const adminUrl = verdicts.find((verdict) => verdict.mounts !== null)?.url ?? null;
  const limitSources = limitsOf(verdicts, chosen);
  return {
    verdicts,
    chosen,
    notes,
    file: chosen.length === 0 ? null : targetFile(verdicts, chosen, adminUrl, limitSources),
    limitSources,
  };
}

/**
 * The limits each chosen service announced on the probe's GETs of its operations: per operation, the
 * strictest per minute (a quota without a window last), a tie kept by the marker table's order.
 */
function announcedLimits(verdicts: readonly UrlVerdict[], found: ChosenService): Map<OperationName, LimitAnnouncement> {
  const verdict = verdicts.find((candidate) => candidate.url === found.url);
  const byOp = new Map<OperationName, LimitAnnouncement>();
  for (const marker of ALL_MARKERS) {
    if (marker.op === undefined || marker.method !== 'GET' || marker.service !== found.service) continue;
    if (!marker.dialects.includes(found.dialect)) continue;
    const path = sentPath(marker);
    const announced = verdict?.endpoints.find((endpoint) => endpoint.path === path)?.rateLimit ?? null;
    if (announced === null) continue;
    const kept = byOp.get(marker.op);
    const rank = (limit: AnnouncedLimit): number => perMinuteWithin(limit) ?? Number.MAX_SAFE_INTEGER;
    if (kept === undefined || rank(announced) < rank(kept.announced)) byOp.set(marker.op, { announced, path });
  }
  return byOp;
}

/** Every limit the file gets, with its source: the target's announcement where usable, else DEPLOYED.md's row. */
function limitsOf(verdicts: readonly UrlVerdict[], chosen: readonly ChosenService[]): LimitSources {
  const sources: Partial<Record<OperationName, LimitSource>> = {};
  const announcedByService = new Map(chosen.map((found) => [found.service, announcedLimits(verdicts, found)]));
  for (const op of OPERATION_NAMES) {
    const service = chosen.find((found) => found.service === op.slice(0, op.indexOf('.')));
    if (service === undefined) continue;
    const announcement = announcedByService.get(service.service)?.get(op) ?? null;
    if (announcement !== null && perMinuteWithin(announcement.announced) !== null)
      sources[op] = { kind: 'announced', ...announcement };
    else {
      const row = DEPLOYED_LIMITS[op];
      if (row !== undefined && service.dialect === 'deployed')
        sources[op] = { kind: 'documented', why: row.why, unusable: announcement };
    }
  }
  return sources;
}

/**
 * One note per serve reached through something in front of it (its mounts do not name the URL
 * that answered them) whose announced mounts the file uses: those services bypass what the user gave.
 */
function aroundNotes(chosen: readonly ChosenService[]): string[] {
  const byAnnouncer = new Map<string, ChosenService[]>();
  for (const found of chosen)
    if (found.announced !== null && !found.announced.direct)
      byAnnouncer.set(found.announced.by, [...(byAnnouncer.get(found.announced.by) ?? []), found]);
  return [...byAnnouncer].map(
    ([by, list]) =>
      `${list.map((found) => `${found.service} (${found.url})`).join(', ')}: taken from the afp serve's announced mounts (GET ${by}/_afp/mounts), not from a URL given; ${by} is not among the addresses the serve names for itself, so something (a proxy?) stands in front of it, and the file reaches ${list.length === 1 ? 'this service' : 'these services'} around it. To test through it, give ${list.length === 1 ? 'its URL' : 'their URLs'} there too`,
  );
}

function targetName(url: string): string {
  const parsed = new URL(url);
  return `probed-${parsed.host}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/-+$/, '')
    .slice(0, 64);
}

function targetFile(
  verdicts: readonly UrlVerdict[],
  chosen: readonly ChosenService[],
  adminUrl: string | null,
  limitSources: LimitSources,
): TargetFile {
  const byService = new Map(chosen.map((found) => [found.service, found]));
  const casino = byService.get('casino');
  const services: TargetFile['services'] = {};
  for (const found of chosen) services[found.service] = { url: found.url, dialect: found.dialect };
  const limits: NonNullable<TargetFile['limits']> = {};
  for (const op of OPERATION_NAMES) {
    const source = limitSources[op];
    const perMinute =
      source === undefined
        ? null
        : source.kind === 'announced'
          ? perMinuteWithin(source.announced)
          : (DEPLOYED_LIMITS[op]?.perMinute ?? null);
    const bucket = source?.kind === 'documented' ? DEPLOYED_LIMITS[op]?.bucket : undefined;
    if (perMinute !== null) limits[op] = { per_minute: perMinute, ...(bucket === undefined ? {} : { bucket }) };
  }
  // Every method but keys registers a fresh agent, which needs the casino.
  const funding: TargetFile['funding'] =
    casino === undefined
      ? { method: 'keys', keys_env: KEYS_ENV }
      : adminUrl !== null
        ? { method: 'admin-deposit' }
        : byService.has('faucet')
          ? { method: 'faucet' }
          : { method: 'keys', keys_env: KEYS_ENV };
  return {
    name: targetName((verdicts[0] as UrlVerdict).url),
    services,
    register: casino === undefined ? 'none' : { service: 'casino' },
    funding,
    limits,
    ...(casino === undefined ? {} : { fairness: casino.dialect === 'deployed' ? 'deployed' : 'afp' }),
    ...(adminUrl === null ? {} : { admin_url: adminUrl }),
  };
}
