/**
 * `--target FILE|URL` → a Target, for every live command.
 *   - a path to an existing file, or any *.yaml / *.yml: the target file (target-file.ts);
 *   - an http(s) URL: `GET URL/_afp/mounts` (afp-mounts.ts: the one probe of it, and what its answer says).
 *     An afp serve answers with its mounts; each service mount becomes a service in the documents'
 *     style A (the dialect afp serve speaks there), unless the answer says otherwise: a top-level
 *     `dialect` and `fairness`, or a mount given as `{ url, dialect }`. Registration on the casino,
 *     funding by admin-deposit through the api mount (the admin URL), no limits (the deployment's
 *     when the serve speaks the deployed dialect, unless it announces `limits: lifted`), fairness afp unless announced.
 *     A target FILE whose casino (or admin_url) is an afp serve is marked so (fileOnAfpServe).
 *     Either way, a serve that says `forwarded_for: trusted` gets fresh client addresses for set-up calls.
 *     Any other answer: not an afp serve, so the user describes the target in a file (or lets
 *     `afp target probe URL` write one); no answer at all: the target is unreachable.
 * Failures are returned with the exit kind the CLI maps: 'invalid' (exit 2: the user must change
 * the argument or the file), 'trouble' (exit 4: the target did not answer).
 * A target file is read before its parser loads (target-file-read.ts).
 * Bounded: one request, at most `timeoutMs` (default 10 s).
 */
import { stat } from 'node:fs/promises';
import { targetUrlError } from '../client/target.ts';
import type { ServiceName } from '../platform/platform.ts';
import { readTargetFile } from './target-file-read.ts';
import type { TargetFileOptions } from './target-file.ts';
import type { PaceLimit, Target, TargetService } from './target.ts';
import {
  announcedMounts,
  forwardedForNote,
  forwardedForTrusted,
  limitsLifted,
  readMounts,
  servedDialect,
  servedDialects,
  servedFairness,
} from './afp-mounts.ts';
import { DEPLOYED_LIMITS } from './dialects/deployed/limits.ts';

/** A serve that speaks the deployed dialect keeps the deployment's limits (unless it says `limits: lifted`): pace under them. */
function deployedPaces(): Record<string, PaceLimit> {
  return Object.fromEntries(
    Object.entries(DEPLOYED_LIMITS).map(([op, row]) => [
      op,
      { perMinute: row.perMinute, ...(row.bucket === undefined ? {} : { bucket: row.bucket }) },
    ]),
  );
}

export const RESOLVE_TIMEOUT_MS = 10_000;

export type ResolveFailure = { readonly ok: false; readonly kind: 'invalid' | 'trouble'; readonly message: string };
/** `notes`: what resolving learnt that the user should know (printed, and an info finding). */
export type ResolveResult =
  | { readonly ok: true; readonly value: Target; readonly notes?: readonly string[] }
  | ResolveFailure;

export interface ResolveOptions extends TargetFileOptions {
  readonly timeoutMs?: number;
}

const FILE_PATTERN = /\.ya?ml$/i;
const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

export async function resolveTarget(spec: string, options: ResolveOptions = {}): Promise<ResolveResult> {
  if (FILE_PATTERN.test(spec) || (await isFile(spec))) {
    // Read before the parser loads (a few hundred modules): a missing file is refused without it.
    const file = await readTargetFile(spec);
    if (!file.ok) return { ok: false, kind: 'invalid', message: file.message };
    const { parseTargetFile } = await import('./target-file.ts');
    const loaded = parseTargetFile(file.text, { ...options, fileName: spec });
    return loaded.ok
      ? fileOnAfpServe(loaded.value, options.timeoutMs ?? RESOLVE_TIMEOUT_MS)
      : { ok: false, kind: 'invalid', message: loaded.message };
  }
  if (!URL_PATTERN.test(spec))
    return {
      ok: false,
      kind: 'invalid',
      message: `--target '${spec}' is neither a target file (*.yaml) nor an http(s) URL`,
    };
  const urlError = targetUrlError(spec);
  if (urlError !== null) return { ok: false, kind: 'invalid', message: urlError };
  return resolveUrl(spec, options.timeoutMs ?? RESOLVE_TIMEOUT_MS);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * A target file whose casino is an afp serve (its root answers `/_afp/mounts`, as
 * `afp serve --dialect deployed` does, or its admin_url does): its admin doors may be used, and the
 * casino is verified under the fairness scheme the serve announces — the serve's own published
 * scheme — with a note when the file names another; where the serve trusts this caller's
 * X-Forwarded-For, set-up calls announce fresh client addresses (freshClientAddresses). A file that
 * names its admin_url keeps it and its fairness. Anything else keeps the file as it is (one bounded request).
 */
async function fileOnAfpServe(target: Target, timeoutMs: number): Promise<ResolveResult> {
  const casino = target.services.casino;
  if (casino === undefined) return { ok: true, value: target };
  const answer = await readMounts(target.adminUrl ?? new URL(casino.url).origin, { timeoutMs });
  if (answer.kind !== 'mounts' || Object.keys(announcedMounts(answer.body)).length === 0)
    return { ok: true, value: target };
  const fresh = forwardedForTrusted(answer.body) ? { freshClientAddresses: true } : {};
  if (target.afpServe) return { ok: true, value: { ...target, ...fresh } };
  const fairness = servedFairness(answer.body);
  const notes = [
    `${answer.api} is an afp serve (it answers /_afp/mounts): its admin doors are used where the funding needs them`,
  ];
  const forwarded = forwardedForNote(answer.api, answer.body);
  if (forwarded !== null) notes.push(forwarded);
  if (fairness !== target.fairness)
    notes.push(
      `the file names the ${target.fairness} fairness scheme; the serve announces ${fairness}, its own published scheme, and bets are verified under that`,
    );
  return { ok: true, value: { ...target, fairness, afpServe: true, adminUrl: answer.api, ...fresh }, notes };
}

function notAfpServe(api: string, why: string): ResolveFailure {
  return {
    ok: false,
    kind: 'invalid',
    message: `${api} is not an afp serve (${why}): describe it in a target file (see targets/deployed.yaml) and pass --target FILE, or let afp write one: afp target probe ${api} --out target.yaml`,
  };
}

async function resolveUrl(url: string, timeoutMs: number): Promise<ResolveResult> {
  const answer = await readMounts(url, { timeoutMs });
  switch (answer.kind) {
    case 'unreachable':
      return { ok: false, kind: 'trouble', message: answer.message };
    case 'other':
      return notAfpServe(answer.api, `GET ${answer.api}/_afp/mounts answered ${answer.status}`);
    case 'mounts':
      return serveTarget(url, answer.api, answer.body);
  }
}

/** The Target of an afp serve from its mounts answer. */
function serveTarget(spec: string, api: string, body: unknown): ResolveResult {
  const mounts = announcedMounts(body);
  const dialects = servedDialects(body);
  const dialect = servedDialect(body);
  const fairness = servedFairness(body);
  const services: Partial<Record<ServiceName, TargetService>> = {};
  // A deployed serve announces the limits it keeps; one started with --lift-deployed-limits has none to pace under.
  const paces = dialect === 'deployed' && !limitsLifted(body) ? deployedPaces() : {};
  for (const [service, serviceUrl] of Object.entries(mounts) as [ServiceName, string | undefined][]) {
    if (serviceUrl === undefined) continue;
    services[service] = { url: serviceUrl, dialect: dialects[service] ?? dialect };
  }
  if (Object.keys(services).length === 0) return notAfpServe(api, `GET ${api}/_afp/mounts names no service mount`);
  const forwarded = forwardedForNote(api, body);
  return {
    ok: true,
    ...(forwarded === null ? {} : { notes: [forwarded] }),
    value: {
      name: spec,
      source: spec,
      services,
      register: services.casino === undefined ? null : { service: 'casino' },
      funding: { method: 'admin-deposit' },
      limits: paces,
      fairness,
      afpServe: true,
      adminUrl: api,
      ...(forwardedForTrusted(body) ? { freshClientAddresses: true } : {}),
    },
  };
}
