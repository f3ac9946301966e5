/**
 * afp serve's flags for a stand-in a team shares: `--public-url` (what it announces and prints)
 * and `--admin-token` (who beyond loopback may use the admin doors), with the lines it says at
 * start about them. Its own file: serve.ts parses the platform's flags; these are the edge's.
 *
 * The token comes from `--admin-token TOKEN`, else from AFP_ADMIN_TOKEN (the form to prefer: a
 * flag's value shows in `ps` to every user of the machine). Bound beyond loopback without one, the
 * doors stay local and afp serve says so at start, with the flag that opens them.
 */
import type { ParsedArgs } from './args.ts';
import { stringFlag } from './args.ts';
import { adminTokenProblem } from '../server/admin-access.ts';
import { ADMIN_TOKEN_ENV, ADMIN_TOKEN_HEADER } from '../http/admin-token.ts';
import { parsePublicUrl, URLS_MAX, type PublicUrls } from '../server/announced-urls.ts';
import { MOUNT_PORT_OFFSETS } from '../server/listeners.ts';
import type { Mount } from '../http/route.ts';

export interface TeamFlags {
  readonly adminToken?: string;
  readonly publicUrls?: PublicUrls;
}

const MOUNTS = Object.keys(MOUNT_PORT_OFFSETS) as Mount[];

/** --admin-token (or AFP_ADMIN_TOKEN) and --public-url, checked; their errors are pushed. */
export function parseTeamFlags(
  args: ParsedArgs,
  environment: Readonly<Record<string, string | undefined>>,
  errors: string[],
): TeamFlags {
  const flagToken = stringFlag(args, 'admin-token');
  const envToken = environment[ADMIN_TOKEN_ENV];
  const token = flagToken ?? (envToken === undefined || envToken === '' ? undefined : envToken);
  const problem = token === undefined ? null : adminTokenProblem(token);
  if (problem !== null) errors.push(`${flagToken === undefined ? ADMIN_TOKEN_ENV : '--admin-token'}: ${problem}`);
  const texts = args.lists['public-url'] ?? [];
  if (texts.length > URLS_MAX) errors.push(`--public-url is given at most ${URLS_MAX} times, got ${texts.length}`);
  let all: string | undefined;
  const perMount: Partial<Record<Mount, string>> = {};
  for (const text of texts.slice(0, URLS_MAX)) {
    const parsed = parsePublicUrl(text, MOUNTS);
    if ('error' in parsed) errors.push(parsed.error);
    else if (parsed.mount === null) {
      if (all !== undefined) errors.push('--public-url URL is given once (per service: --public-url SERVICE=URL)');
      all = parsed.url;
    } else if (perMount[parsed.mount] !== undefined) errors.push(`--public-url ${parsed.mount}=… is given twice`);
    else perMount[parsed.mount] = parsed.url;
  }
  return {
    ...(token === undefined || problem !== null ? {} : { adminToken: token }),
    ...(texts.length === 0 ? {} : { publicUrls: all === undefined ? { perMount } : { all, perMount } }),
  };
}

/** What afp serve says at start about its admin doors: who may use them. */
export function adminDoorsLine(team: TeamFlags, beyondLoopback: boolean): string | null {
  if (team.adminToken !== undefined)
    return `admin doors (/_afp/*): loopback callers, and callers beyond it that send the admin token in ${ADMIN_TOKEN_HEADER}`;
  if (!beyondLoopback) return null;
  return `admin doors (/_afp/*) answer loopback callers only, though it listens beyond loopback: give --admin-token (or ${ADMIN_TOKEN_ENV}) to open them to teammates and k6 pods that send it`;
}
