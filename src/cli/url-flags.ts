/**
 * The flags of a URL run, read once for every command that takes them — `afp load URL` (afp's
 * generator, or --engine autocannon) and `afp export k6 --url URL` — into one request and one
 * `load:` section, the very section a scenario file would hold, so the run's plan
 * (executors.ts `resolveLoadPlan`), its thresholds (threshold-parser.ts) and the k6 script's options
 * (k6-options.ts) come from the same data as a scenario's.
 *
 *   URL | --url URL   an absolute http(s) URL (the positional or the flag; not both, unless equal);
 *                     credentials in it (user:pw@) go as `authorization: Basic …` (unless a --header
 *                     gives one), as k6 sends them, and are taken out of the URL; the URL every
 *                     line and report shows has the password as *** (`shownUrl`)
 *   --method M        GET (default), POST, PUT, DELETE
 *   --header 'K: V'   repeatable; names lower-cased; host and content-length are the client's
 *   --body TEXT | --body-file FILE   at most BODY_BYTES_MAX; the file's bytes go as they are (binary too)
 *   --rate N/s | -u/--vus N | --stage D:T… [--max-vus N] [-d D | -i N]   the profile, as
 *                     profile-flags.ts reads it for every command (one of --rate, --vus and --stage
 *                     is required here: a URL has no default profile); -d defaults to URL_DEFAULTS.durationMs
 *   --check SPEC      repeatable; status=200, status=200,201, body~TEXT, json:$.path=VALUE (url-check-spec.ts)
 *   --requests FILE   instead of the URL and its request flags: several requests per iteration, in
 *                     order, each with its own checks (url-requests-file.ts)
 *   --insecure-skip-tls-verify   https: take the target's certificate unchecked (k6's flag)
 *   --threshold 'METRIC: EXPR'   repeatable; k6's syntax, as a scenario's load.thresholds
 *   --timeout D       per request, within URL_LIMITS.timeoutMs
 * Every problem is reported, all at once; nothing is sent before they are. Light to import (no zod,
 * no thresholds' parser until a --threshold is given): `afp load` reads its flags before its run loads.
 */
import { readBoundedFile } from '../core/text-file.ts';
import type { LoadSection } from '../scenario/load-schema.ts';
import type { UrlRequest } from '../load.ts';
import { checksOfFlags, urlEndpointName, urlMethodOf } from '../load/options.ts';
import { UNIT_MS } from '../scenario/duration-text.ts';
import { parseCommand, stringFlag, type ParsedArgs } from './args.ts';
import { durationFlag, readProfileFlags, sectionOfFlags } from './profile-flags.ts';
import { definitionOf } from './commands.ts';
import { HEADER_LIMITS, headersOf, urlCredentials } from './url-request-parts.ts';

export { headersOf, urlCredentials, type UrlCredentials } from './url-request-parts.ts';

export const URL_DEFAULTS = { durationMs: 30_000, timeoutMs: 10_000 } as const;
export const URL_LIMITS = { timeoutMs: { min: 100, max: 10 * UNIT_MS.m }, ...HEADER_LIMITS } as const;
export const BODY_BYTES_MAX = 1_048_576;

export interface UrlRun {
  /**
   * Sent in order every iteration: the URL's one request (without credentials: a URL's user:pw is
   * its authorization header), or a --requests file's.
   */
  readonly requests: readonly UrlRequest[];
  /** The URL as every printed line and report shows it (the password replaced by ***), or `FILE (N requests)`. */
  readonly shownUrl: string;
  /** --insecure-skip-tls-verify: an https target's certificate is taken unchecked. */
  readonly insecureSkipTlsVerify: boolean;
  /** The profile as a scenario's `load:` section (durations in ms, as the schema gives them). */
  readonly section: LoadSection;
  readonly durationMs: number;
  readonly timeoutMs: number;
  /** --vus N: the closed loop's configured concurrency; null in the open model. */
  readonly vus: number | null;
}

/** The URL a run names: the positional or --url; null (with an error) when none or two different ones. */
export function urlOf(args: ParsedArgs, errors: string[]): string | null {
  const given = [
    ...args.positionals,
    ...(stringFlag(args, 'url') === undefined ? [] : [stringFlag(args, 'url') ?? '']),
  ];
  const distinct = [...new Set(given)];
  if (distinct.length !== 1) {
    errors.push(
      distinct.length === 0
        ? 'name the URL to load (afp load URL, or --url URL)'
        : `name one URL, got ${distinct.length}: ${distinct.map((url) => `'${shownOf(url).slice(0, 200)}'`).join(', ')}`,
    );
    return null;
  }
  const url = distinct[0] ?? '';
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    errors.push(`'${shownOf(url).slice(0, 200)}' is not an absolute http(s) URL`);
    return null;
  }
  // As the sender will send it (non-ASCII percent-encoded, the host lower-cased): the k6 export
  // bakes this text into its script, and k6 sends a URL as it is given.
  return new URL(url).href;
}

/** The body's bytes: --body as UTF-8, --body-file as the file holds them (never decoded: a binary body stays whole). */
export async function bodyOf(args: ParsedArgs, errors: string[]): Promise<Buffer | undefined> {
  const text = stringFlag(args, 'body');
  const file = stringFlag(args, 'body-file');
  if (text !== undefined && file !== undefined) {
    errors.push('give --body or --body-file, not both');
    return undefined;
  }
  let body: Buffer | undefined = text === undefined ? undefined : Buffer.from(text, 'utf8');
  if (file !== undefined) {
    const read = await readBoundedFile(file, BODY_BYTES_MAX);
    if (!read.ok) {
      errors.push(`--body-file: cannot read ${file}: ${read.reason}`);
      return undefined;
    }
    body = read.bytes;
  }
  if (body !== undefined && body.length > BODY_BYTES_MAX)
    errors.push(`the body is longer than ${BODY_BYTES_MAX} bytes`);
  return body;
}

/** A URL as an error line may show it: a password replaced by *** (text that is no URL as given). */
function shownOf(text: string): string {
  return URL.canParse(text) ? urlCredentials(text).shownUrl : text;
}

export { durationFlag, parseRate } from './profile-flags.ts';

/** `'http_req_duration: p(95)<200'` → key and expression; the key may hold a `{tag:value}` filter with colons. */
export function thresholdsOf(values: readonly string[], errors: string[]): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {};
  for (const value of values) {
    const match = /^\s*([a-z_]{1,40}(?:\{[^{}]{1,300}\})?)\s*:\s*(\S.*?)\s*$/s.exec(value);
    if (match === null) {
      errors.push(
        `--threshold '${value.slice(0, 200)}' is not 'METRIC: EXPR', e.g. 'http_req_duration: p(95)<200' or 'http_req_failed: rate<0.01'`,
      );
      continue;
    }
    (thresholds[match[1] ?? ''] ??= []).push(match[2] ?? '');
  }
  return thresholds;
}

/** The URL run's profile (profile-flags.ts): it has no default one, so --rate, --vus or --stage says it. */
function profileOf(
  args: ParsedArgs,
  errors: string[],
): { section: Omit<LoadSection, 'thresholds'>; vus: number | null } {
  const flags = readProfileFlags(args, errors);
  const named = ['rate', 'vus'].some((name) => stringFlag(args, name) !== undefined);
  if (!named && (args.lists['stage'] ?? []).length === 0)
    errors.push(
      'give --rate N/s (the open model: arrivals whatever the latency) or --vus N (a closed loop), one of them',
    );
  const section = sectionOfFlags(flags, {
    rate: { rate: 1, timeUnitMs: UNIT_MS.s },
    durationMs: URL_DEFAULTS.durationMs,
  });
  return { section, vus: section.executor === 'constant-vus' ? (flags.vus ?? null) : null };
}

/** The URL run the flags describe, or every problem with them. */
export async function parseUrlRun(args: ParsedArgs): Promise<{ run: UrlRun | null; errors: string[] }> {
  const errors: string[] = [];
  const requests = await requestsOfFlags(args, errors);
  const timeoutMs = durationFlag(args, 'timeout', URL_LIMITS.timeoutMs, errors) ?? URL_DEFAULTS.timeoutMs;
  const profile = profileOf(args, errors);
  const durationMs = planLengthMs(profile.section);
  const thresholds = thresholdsOf(args.lists['threshold'] ?? [], errors);
  // The thresholds' parser (and the zod schema it reads its limits from) loads only for a run that has some.
  const judged =
    Object.keys(thresholds).length === 0
      ? ({ ok: true } as const)
      : (await import('../load/thresholds.ts')).parseThresholds(thresholds);
  if (!judged.ok) errors.push(...judged.errors.map((error) => error.replace(/^load\.thresholds\./, '--threshold ')));
  if (errors.length > 0 || requests === null) return { run: null, errors };
  const section: LoadSection = { ...profile.section, ...(Object.keys(thresholds).length === 0 ? {} : { thresholds }) };
  return {
    run: {
      requests: requests.list,
      shownUrl: requests.shown,
      section,
      durationMs,
      timeoutMs,
      vus: profile.vus,
      insecureSkipTlsVerify: args.flags['insecure-skip-tls-verify'] === true,
    },
    errors,
  };
}

/** The flags that describe one URL's request: a --requests file gives each of its requests its own. */
const SINGLE_URL_FLAGS = ['url', 'method', 'header', 'body', 'body-file', 'check'];

/** The run's requests: --requests FILE's, or the one the URL flags describe; null when they cannot be sent. */
async function requestsOfFlags(
  args: ParsedArgs,
  errors: string[],
): Promise<{ readonly list: UrlRequest[]; readonly shown: string } | null> {
  const file = stringFlag(args, 'requests');
  if (file === undefined) {
    const request = await singleRequest(args, errors);
    return request === null ? null : { list: [request.request], shown: request.shownUrl };
  }
  const single = SINGLE_URL_FLAGS.filter((name) => args.flags[name] !== undefined).map((name) => `--${name}`);
  if (args.positionals.length > 0) single.unshift(`the URL '${shownOf(args.positionals[0] ?? '').slice(0, 200)}'`);
  if (single.length > 0)
    errors.push(
      `--requests FILE gives every request its url, method, headers, body and checks: ${single.join(', ')} describe${single.length === 1 ? 's' : ''} a single URL's`,
    );
  const list = await (await import('./url-requests-file.ts')).readRequestsFile(file, BODY_BYTES_MAX, errors);
  return list === null ? null : { list, shown: `${file} (${list.length} request${list.length === 1 ? '' : 's'})` };
}

/** The one request of `afp load URL`'s flags, and its URL as lines show it. */
async function singleRequest(
  args: ParsedArgs,
  errors: string[],
): Promise<{ readonly request: UrlRequest; readonly shownUrl: string } | null> {
  const url = urlOf(args, errors);
  const headers = headersOf(args.lists['header'] ?? [], errors);
  const body = await bodyOf(args, errors);
  const method = urlMethodOf(stringFlag(args, 'method') ?? 'GET', body !== undefined);
  if ('error' in method) errors.push(method.error);
  const checks = checksOfFlags(args.lists['check'] ?? [], errors);
  if (url === null || 'error' in method) return null;
  const credentials = urlCredentials(url);
  // A --header authorization wins over the URL's credentials (the user said which to send).
  const sent =
    credentials.authorization === null || headers['authorization'] !== undefined
      ? headers
      : { ...headers, authorization: credentials.authorization };
  const request = { url: credentials.url, method: method.method, headers: sent, body };
  return { request: { ...request, name: urlEndpointName(request), checks }, shownUrl: credentials.shownUrl };
}

/** How long a flags' profile runs: its duration, or its stages' sum. */
function planLengthMs(section: Omit<LoadSection, 'thresholds'>): number {
  return section.duration ?? (section.stages ?? []).reduce((total, stage) => total + stage.duration, 0);
}

/**
 * Whether argv names a URL run: --url, --requests FILE, or a positional that starts with a URL scheme (`ftp://…`,
 * `http:/…` too, so that the URL run says what is wrong with it rather than the scenario run).
 */
export function isUrlRun(argv: readonly string[]): boolean {
  const args = parseCommand(argv, definitionOf('load'));
  return (
    stringFlag(args, 'url') !== undefined ||
    stringFlag(args, 'requests') !== undefined ||
    /^(?:https?:|[a-z][a-z0-9+.-]*:\/\/)/i.test(args.positionals[0] ?? '')
  );
}
