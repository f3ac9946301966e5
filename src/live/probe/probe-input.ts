/**
 * The URLs `afp target probe` is given, checked and turned into the URLs it probes (at most
 * MAX_URLS; a URL ending in `/api/v1` names its parent, the dialects' paths carry that prefix).
 * Why apart from probe-target.ts: the command checks its arguments with this before the probe, the
 * dialects and the target-file parser load, so a bad URL or flag is refused without them.
 */
import { targetUrlError } from '../../client/target.ts';
import { normalizeServiceUrl } from '../service-url.ts';

export const MAX_URLS = 16;

/** The documents' style A and the deployment put `/api/v1` in their paths: a URL ending so names its parent. */
const PATH_PREFIX = /\/api\/v1\/*$/;

export interface ProbeInput {
  readonly url: string;
  /** Why the URL probed differs from the one given. */
  readonly note: string | null;
}

/** The URL to probe for `given`, or an error (exit 2). */
export function probeInput(given: string): ProbeInput | { readonly error: string } {
  const error = targetUrlError(given);
  if (error !== null) return { error };
  const url = normalizeServiceUrl(given);
  if (!PATH_PREFIX.test(new URL(url).pathname)) return { url, note: null };
  const parent = url.replace(PATH_PREFIX, '');
  return { url: parent, note: `${given}: the dialects' paths carry /api/v1 themselves; probing ${parent}` };
}
