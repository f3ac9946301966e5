/**
 * What one probed URL is: which services answer there and which dialect each speaks, decided from
 * the answers of probe-url.ts by counting evidence (pure, deterministic: the same answers give the
 * same verdict and the same evidence lines).
 *
 * Evidence, each piece one vote:
 *   - a dialect table's marker holds (its path answers as the row says): a vote for each of its
 *     dialects for its service, or for its dialect family when the row names no service;
 *   - an operation of `openapi.json`: afp's documents tag each operation [service, style]; any
 *     other document's paths are matched against the markers (method and path, parameters alike);
 *   - the dialect family (the documents' styles or deployed) from every error body's shape
 *     ({ error, code } vs { error: snake_case, message }), from `_info.service` (a deployment names
 *     its repository, spec/DEPLOYED.md §1.2), and from an afp serve's `/_afp/mounts`.
 * The family with more votes narrows the dialects; each service gets its dialect with the most
 * votes within it (ties: the order of DIALECT_NAMES). Where the deployed answers' `_info.service`
 * all name one service, the URL is that service alone (the others' markers are ruled out, saying so). A URL that answers a path no service serves
 * with anything but 404 answers everything: its path markers are ignored, only markers that
 * check a body's fields still count.
 * Non-goals: sending (probe-url.ts); choosing between URLs (probe-target.ts).
 */
import { announcedMounts, mountUrlsNamed } from '../afp-mounts.ts';
import type { MountUrls } from '../../client/transport.ts';
import type { ServiceName } from '../../platform/platform.ts';
import { SERVICE_NAMES as SERVICES } from '../../platform/service-names.ts';
import type { AnnouncedLimit } from '../announced-limit.ts';
import { DEPLOYED_INFO_SERVICES } from '../dialects/deployed/markers.ts';
import { normalizeServiceUrl } from '../service-url.ts';
import { DIALECT_NAMES, type DialectName } from '../target.ts';
import { ALL_MARKERS, MOUNTS_PATH, OPENAPI_PATH, UNKNOWN_PATH, type Observation, type UrlProbe } from './probe-url.ts';
import { describeServer, type ServerDescription } from './plain-server.ts';
import { sentPath, type WireMarker } from '../dialects/wire-marker.ts';

export type Family = 'documents' | 'deployed';

const FAMILY_DIALECTS: Readonly<Record<Family, readonly DialectName[]>> = {
  documents: ['A', 'B', 'short'],
  deployed: ['deployed'],
};
const MAX_OPENAPI_PATHS = 2_000;
const OPENAPI_METHODS = ['get', 'post', 'put', 'delete'] as const;

export type DialectVotes = Partial<Record<DialectName, number>>;

export interface ServiceVerdict {
  readonly service: ServiceName;
  readonly dialect: DialectName;
  readonly votes: Readonly<DialectVotes>;
}

export interface EndpointEvidence {
  readonly path: string;
  readonly status: number | null;
  readonly evidence: readonly string[];
  /** The rate limit the answer announced (probe-url.ts), or null. */
  readonly rateLimit: AnnouncedLimit | null;
}

export interface UrlVerdict {
  readonly url: string;
  /** At least one request got an HTTP answer. */
  readonly answered: boolean;
  /** The mounts an afp serve announced here (GET /_afp/mounts), or null. */
  readonly mounts: MountUrls | null;
  /**
   * The mounts announced here name this URL among the serve's own addresses (its `api` mount
   * included): the serve was reached directly. false when they name only other addresses (a proxy,
   * or another name for the host, stands in front of it); null without mounts.
   */
  readonly announcesItself: boolean | null;
  readonly catchAll: boolean;
  readonly family: Family | null;
  readonly familyVotes: Readonly<Record<Family, number>>;
  /** In the order of the services list. */
  readonly services: readonly ServiceVerdict[];
  readonly endpoints: readonly EndpointEvidence[];
  /** Services with evidence only in the dialects the family rules out. */
  readonly ruledOut: readonly string[];
  /** What answered, whatever it is (plain-server.ts): said when no service is recognized. */
  readonly server: ServerDescription;
}

class Tally {
  readonly services = new Map<ServiceName, DialectVotes>();
  readonly family: Record<Family, number> = { documents: 0, deployed: 0 };
  /** The services the answers' `_info.service` named (a deployment's repository, DEPLOYED.md §1.2). */
  readonly named = new Set<ServiceName>();

  vote(service: ServiceName | null, dialects: readonly DialectName[]): void {
    if (service === null) {
      for (const dialect of dialects) this.family[dialect === 'deployed' ? 'deployed' : 'documents'] += 1;
      return;
    }
    const votes = this.services.get(service) ?? {};
    for (const dialect of dialects) votes[dialect] = (votes[dialect] ?? 0) + 1;
    this.services.set(service, votes);
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function isService(value: unknown): value is ServiceName {
  return (SERVICES as readonly unknown[]).includes(value);
}

function isDialect(value: unknown): value is DialectName {
  return (DIALECT_NAMES as readonly unknown[]).includes(value);
}

/**
 * The dialect an afp openapi tag's style is read in: its own name, or A for the wallet's primary
 * interface (every documents style serves it; afp reads it as style A's, as replay does). Without
 * this, the documents' wallet's primary operations matched the deployed wallet's markers (the same
 * paths) and its evidence read `deployed 6, A 5` beside a choice of A.
 */
function tagDialect(service: ServiceName, style: unknown): DialectName | null {
  if (isDialect(style)) return style;
  return style === 'primary' && service === 'wallet' ? 'A' : null;
}

/** Whether the mounts answer `body` names `url` among the serve's own addresses (the `api` mount too). */
function namesItself(body: unknown, url: string): boolean {
  return mountUrlsNamed(body).some((named) => URL.canParse(named) && normalizeServiceUrl(named) === url);
}

/** Whether `observation` answers as `marker` says it does where the marker holds. */
export function markerHolds(marker: WireMarker, observation: Observation): boolean {
  const status = observation.status;
  if (status === null) return false;
  switch (marker.answer) {
    case 'needs-key':
      return status === 401;
    case 'exists':
      return (status >= 200 && status < 300) || [400, 401, 403, 422].includes(status);
    case 'ok': {
      if (status < 200 || status >= 300) return false;
      if (marker.has === undefined) return true;
      const body = record(observation.json);
      if (body === undefined) return false;
      return Object.entries(marker.has).every(([field, expected]) => {
        const value = body[field];
        if (expected === null) return value !== undefined;
        return Array.isArray(value) ? value.includes(expected) : value === expected;
      });
    }
  }
}

function markerLabel(marker: WireMarker): string {
  return `${marker.service ?? 'any service'} ${marker.dialects.join('/')}`;
}

/** The dialect family an error body's shape and `_info` show, one line of evidence each. */
function familyEvidence(observation: Observation, tally: Tally, evidence: string[]): void {
  const body = record(observation.json);
  if (body === undefined || observation.status === null) return;
  const error = body['error'];
  const code = body['code'];
  if (observation.status >= 400 && typeof error === 'string') {
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(code)) {
      tally.family.documents += 1;
      evidence.push('documents: error { error, code }');
    } else if (code === undefined && /^[a-z][a-z0-9_]*$/.test(error) && typeof body['message'] === 'string') {
      tally.family.deployed += 1;
      evidence.push('deployed: error { error: snake_case, message }');
    }
  }
  const infoService = record(body['_info'])?.['service'];
  if (typeof infoService !== 'string') return;
  const deployedService = DEPLOYED_INFO_SERVICES[infoService];
  if (deployedService !== undefined) {
    tally.family.deployed += 1;
    tally.vote(deployedService, ['deployed']);
    tally.named.add(deployedService);
    evidence.push(`${deployedService} deployed: _info.service ${infoService}`);
  } else if (isService(infoService) || infoService === 'platform') {
    tally.family.documents += 1;
    evidence.push(`documents: _info.service ${infoService}`);
  }
}

/** `/api/v1/escrow/{id}` and `/api/v1/escrow/{escrowId}` are the same endpoint. */
function pathShape(path: string): string {
  return path.replace(/\{[^}]+\}/g, '{}').replace(/:[A-Za-z_]\w*/g, '{}');
}

function openApiPrefix(document: Record<string, unknown>): string {
  const servers = document['servers'];
  const first = Array.isArray(servers) ? record(servers[0])?.['url'] : undefined;
  if (typeof first !== 'string') return '';
  const pathname = first.startsWith('/') ? first : URL.canParse(first) ? new URL(first).pathname : '';
  return pathname.replace(/\/+$/, '');
}

/** Votes from an openapi.json document; one evidence line summing them. */
function openApiEvidence(observation: Observation, tally: Tally, evidence: string[]): void {
  const document = record(observation.json);
  const paths = record(document?.['paths']);
  if (document === undefined || paths === undefined || observation.status !== 200) return;
  const prefix = openApiPrefix(document);
  const counts = new Map<string, number>();
  let taggedCount = 0;
  for (const [path, item] of Object.entries(paths).slice(0, MAX_OPENAPI_PATHS)) {
    for (const method of OPENAPI_METHODS) {
      const operation = record(record(item)?.[method]);
      if (operation === undefined) continue;
      const tags: readonly unknown[] = Array.isArray(operation['tags']) ? operation['tags'] : [];
      const service = tags[0];
      const tagged = isService(service) ? tagDialect(service, tags[1]) : null;
      if (isService(service) && tagged !== null) {
        tally.vote(service, [tagged]);
        taggedCount += 1;
        counts.set(`${service} ${tagged} (tag)`, (counts.get(`${service} ${tagged} (tag)`) ?? 0) + 1);
        continue;
      }
      const shape = pathShape(`${prefix}${path}`);
      for (const marker of ALL_MARKERS) {
        if (marker.method.toLowerCase() !== method || pathShape(marker.path) !== shape) continue;
        tally.vote(marker.service, marker.dialects);
        counts.set(markerLabel(marker), (counts.get(markerLabel(marker)) ?? 0) + 1);
      }
    }
  }
  if (taggedCount > 0) tally.family.documents += 1;
  const summary = [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, count]) => `${label} ×${count}`);
  evidence.push(summary.length === 0 ? 'openapi: no known endpoint' : `openapi: ${summary.join(', ')}`);
}

function decide(tally: Tally): { family: Family | null; services: ServiceVerdict[]; ruledOut: string[] } {
  const { documents, deployed } = tally.family;
  const family: Family | null = documents > deployed ? 'documents' : deployed > documents ? 'deployed' : null;
  const allowed = family === null ? DIALECT_NAMES : FAMILY_DIALECTS[family];
  const services: ServiceVerdict[] = [];
  const ruledOut: string[] = [];
  for (const service of SERVICES) {
    const votes = tally.services.get(service);
    if (votes === undefined) continue;
    let best: DialectName | null = null;
    for (const dialect of allowed) {
      if ((votes[dialect] ?? 0) > (best === null ? 0 : (votes[best] ?? 0))) best = dialect;
    }
    // Every answer that names its service names the same one: the URL is that service alone, and
    // another's markers matched only its answers to paths it does not serve (a wallet's 401 on any
    // /v1 path voted for trading and domains, which a prober's wallet URL was then written as).
    const named = tally.named.size === 1 ? [...tally.named][0] : undefined;
    if (best === null)
      ruledOut.push(
        `${service} (only ${Object.keys(votes).join('/')} evidence, but the URL speaks the ${family ?? '?'} family)`,
      );
    else if (family === 'deployed' && named !== undefined && named !== service)
      ruledOut.push(`${service} (its markers matched, but every answer names its service: ${named})`);
    else services.push({ service, dialect: best, votes: { ...votes } });
  }
  return { family, services, ruledOut };
}

export function classifyUrl(probe: UrlProbe): UrlVerdict {
  const tally = new Tally();
  const unknown = probe.observations.find((observation) => observation.path === UNKNOWN_PATH);
  const catchAll = unknown !== undefined && unknown.status !== null && unknown.status !== 404;
  let mounts: MountUrls | null = null;
  let announcesItself: boolean | null = null;
  const endpoints: EndpointEvidence[] = [];
  const shown = new Set<string>();
  for (const observation of probe.observations) {
    const evidence: string[] = [];
    if (observation.status === null) evidence.push(`no answer: ${observation.problem ?? 'unknown'}`);
    else if (observation.problem !== undefined) evidence.push(`not read: ${observation.problem}`);
    if (observation.path === MOUNTS_PATH && observation.status === 200) {
      const announced = announcedMounts(observation.json);
      if (Object.keys(announced).length > 0) {
        mounts = announced;
        announcesItself = namesItself(observation.json, normalizeServiceUrl(probe.url));
        tally.family.documents += 1;
        evidence.push(`afp serve: announces ${Object.keys(announced).sort().join(', ')}`);
      }
    }
    if (observation.path === UNKNOWN_PATH && catchAll)
      evidence.push(`answers a path no service serves (${observation.status ?? '-'}): path evidence ignored`);
    if (observation.path === OPENAPI_PATH) openApiEvidence(observation, tally, evidence);
    for (const marker of ALL_MARKERS) {
      if (marker.method !== 'GET' || sentPath(marker) !== observation.path || !markerHolds(marker, observation))
        continue;
      if (catchAll && !(marker.answer === 'ok' && marker.has !== undefined)) continue;
      tally.vote(marker.service, marker.dialects);
      evidence.push(`${markerLabel(marker)}${marker.answer === 'needs-key' ? ' (needs a key)' : ''}`);
    }
    // A family line is shown where it first appears; the verdict line counts every one.
    const family: string[] = [];
    familyEvidence(observation, tally, family);
    for (const line of family) {
      if (shown.has(line)) continue;
      shown.add(line);
      evidence.push(line);
    }
    endpoints.push({
      path: observation.path,
      status: observation.status,
      evidence,
      rateLimit: observation.rateLimit ?? null,
    });
  }
  const decided = decide(tally);
  return {
    url: probe.url,
    answered: probe.observations.some((observation) => observation.status !== null),
    mounts,
    announcesItself,
    catchAll,
    family: decided.family,
    familyVotes: { ...tally.family },
    services: decided.services,
    endpoints,
    ruledOut: decided.ruledOut,
    server: describeServer(probe.observations),
  };
}
