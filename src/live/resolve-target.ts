/**
 * `--target FILE|URL` → a Target, for every live command.
 *   - a path to an existing file, or any *.yaml / *.yml: the target file (target-file.ts);
 *   - an http(s) URL: `GET URL/_afp/mounts` (src/client/target.ts readMounts, the one probe of it).
 *     An afp serve answers with its mounts; each service mount becomes a service in the documents'
 *     style A (the dialect afp serve speaks there), unless the answer says otherwise: a top-level
 *     `dialect` and `fairness`, or a mount given as `{ url, dialect }`. Registration on the casino,
 *     funding by admin-deposit through the api mount (the admin URL), no limits, fairness afp.
 *     Any other answer: not an afp serve, so the user describes the target in a file (or lets
 *     `afp target probe URL` write one); no answer at all: the target is unreachable.
 * Failures are returned with the exit kind the CLI maps: 'invalid' (exit 2: the user must change
 * the argument or the file), 'trouble' (exit 1: the target did not answer).
 * Bounded: one request, at most `timeoutMs` (default 10 s).
 */
import { stat } from 'node:fs/promises';
import { announcedMounts, readMounts, targetUrlError } from '../client/target.ts';
import type { ServiceName } from '../platform/platform.ts';
import { FAIRNESS_SCHEME_NAMES, type FairnessSchemeName } from './fairness/scheme.ts';
import { loadTargetFile, type TargetFileOptions } from './target-file.ts';
import { DIALECT_NAMES, type DialectName, type Target, type TargetService } from './target.ts';

export const RESOLVE_TIMEOUT_MS = 10_000;

export type ResolveFailure = { readonly ok: false; readonly kind: 'invalid' | 'trouble'; readonly message: string };
export type ResolveResult = { readonly ok: true; readonly value: Target } | ResolveFailure;

export interface ResolveOptions extends TargetFileOptions {
  readonly timeoutMs?: number;
}

const FILE_PATTERN = /\.ya?ml$/i;
const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

export async function resolveTarget(spec: string, options: ResolveOptions = {}): Promise<ResolveResult> {
  if (FILE_PATTERN.test(spec) || (await isFile(spec))) {
    const loaded = await loadTargetFile(spec, options);
    return loaded.ok ? loaded : { ok: false, kind: 'invalid', message: loaded.message };
  }
  if (!URL_PATTERN.test(spec)) return { ok: false, kind: 'invalid', message: `--target '${spec}' is neither a target file (*.yaml) nor an http(s) URL` };
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

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

function dialectOf(value: unknown): DialectName | null {
  return (DIALECT_NAMES as readonly unknown[]).includes(value) ? (value as DialectName) : null;
}

/** The Target of an afp serve from its mounts answer. */
function serveTarget(spec: string, api: string, body: unknown): ResolveResult {
  const mounts = announcedMounts(body);
  const announced = field(body, 'mounts');
  const dialect = dialectOf(field(body, 'dialect')) ?? 'A';
  const fairnessField = field(body, 'fairness');
  const fairness: FairnessSchemeName = (FAIRNESS_SCHEME_NAMES as readonly unknown[]).includes(fairnessField) ? (fairnessField as FairnessSchemeName) : 'afp';
  const services: Partial<Record<ServiceName, TargetService>> = {};
  for (const [service, serviceUrl] of Object.entries(mounts) as [ServiceName, string | undefined][]) {
    if (serviceUrl === undefined) continue;
    services[service] = { url: serviceUrl, dialect: dialectOf(field(field(announced, service), 'dialect')) ?? dialect };
  }
  if (Object.keys(services).length === 0) return notAfpServe(api, `GET ${api}/_afp/mounts names no service mount`);
  return {
    ok: true,
    value: {
      name: spec,
      source: spec,
      services,
      register: services.casino === undefined ? null : { service: 'casino' },
      funding: { method: 'admin-deposit' },
      limits: {},
      fairness,
      afpServe: true,
      adminUrl: api,
    },
  };
}
