/**
 * The requests `afp target probe` sends to one URL, and what came back: GET only, without a key,
 * each at most once: the afp serve door `/_afp/mounts`, `/health`, `/openapi.json`, a path no
 * service serves (how the URL answers the unknown: its error shape, whether it answers everything),
 * and every GET marker of the dialect tables. Nothing is ever POSTed to a probed target.
 * Bounded: PROBE_CONCURRENCY requests in flight, each at most `timeoutMs` (body included) and
 * MAX_BODY_BYTES long; a request that fails or times out is an observation without a status.
 * Non-goals: deciding anything (classify.ts).
 */
import { runBounded } from '../../audit/live-target.ts';
import { describeError } from '../../client/target.ts';
import { DEPLOYED_MARKERS } from '../dialects/deployed/markers.ts';
import { DOCUMENTS_MARKERS } from '../dialects/documents/markers.ts';
import { sentPath, type WireMarker } from './wire-marker.ts';

export const PROBE_TIMEOUT_MS = 5_000;
export const PROBE_CONCURRENCY = 4;
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Every marker of every dialect table, documents first (their order is the tie-breaker). */
export const ALL_MARKERS: readonly WireMarker[] = [...DOCUMENTS_MARKERS, ...DEPLOYED_MARKERS];

export const MOUNTS_PATH = '/_afp/mounts';
export const HEALTH_PATH = '/health';
export const OPENAPI_PATH = '/openapi.json';
/** No service serves it: its answer shows the URL's error shape, or that the URL answers anything. */
export const UNKNOWN_PATH = '/afp-probe/no-such-path';

export interface Observation {
  readonly path: string;
  /** null: no answer (`problem` says why). */
  readonly status: number | null;
  readonly problem?: string;
  /** The body parsed as JSON; undefined when it is not JSON (or there was none). */
  readonly json: unknown;
  /** The Content-Type and Server headers, when the answer had them. */
  readonly contentType?: string | null;
  readonly server?: string | null;
}

export interface UrlProbe {
  readonly url: string;
  readonly observations: readonly Observation[];
}

/** The paths sent to every URL, in a fixed order: the generic ones, then each GET marker's once. */
export function probePaths(): string[] {
  const paths = [MOUNTS_PATH, HEALTH_PATH, OPENAPI_PATH, UNKNOWN_PATH];
  for (const marker of ALL_MARKERS) {
    const path = sentPath(marker);
    if (marker.method === 'GET' && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

export async function probeUrl(url: string, options: { timeoutMs?: number } = {}): Promise<UrlProbe> {
  const paths = probePaths();
  const observations: Observation[] = new Array<Observation>(paths.length);
  await runBounded(
    paths.length,
    PROBE_CONCURRENCY,
    async (index) => {
      observations[index] = await get(
        `${url}${paths[index] as string}`,
        paths[index] as string,
        options.timeoutMs ?? PROBE_TIMEOUT_MS,
      );
    },
    () => false,
  );
  return { url, observations };
}

async function get(url: string, path: string, timeoutMs: number): Promise<Observation> {
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const headers = { contentType: response.headers.get('content-type'), server: response.headers.get('server') };
    const text = await boundedText(response);
    if (text === null)
      return {
        path,
        status: response.status,
        json: undefined,
        problem: `body over ${MAX_BODY_BYTES} bytes`,
        ...headers,
      };
    return { path, status: response.status, json: parseJson(text), ...headers };
  } catch (error) {
    return { path, status: null, json: undefined, problem: describeError(error) };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The body as text, or null past MAX_BODY_BYTES (the rest is not read). */
async function boundedText(response: Response): Promise<string | null> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
