/**
 * Which redirects afp follows. Why: a target answering 307 to another origin had the audits send
 * their request bodies there and describe the other origin's answers as the target's findings;
 * one pointing at a cloud metadata service would be followed the same way.
 *
 * - a Location on another origin (scheme, host or port) is never followed: the call is unanswered;
 * - a Location on a link-local, private, carrier-grade NAT, unspecified or metadata address
 *   (169.254/16, fe80::/10, 10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10, 0.0.0.0, ::,
 *   metadata.google.internal…) is never followed, whatever the flags, and says so; afp follows a
 *   same-origin redirect on such a host only when the user named that host as the target;
 * - same-origin redirects: at most REDIRECTS_MAX in one exchange.
 * Non-goals: resolving names (a name that resolves to a private address is the user's own target).
 */
import { isIP } from 'node:net';
import { RefusedAnswerError } from './answer-limits.ts';

export const REDIRECTS_MAX = 5;

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'metadata.azure.internal', 'instance-data']);

function ipv4Private(address: string): boolean {
  const [a = -1, b = -1] = address.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

function ipv6Private(address: string): boolean {
  const lower = address.toLowerCase();
  if (lower === '::') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1] !== undefined) return ipv4Private(mapped[1]);
  return /^fe[89ab][0-9a-f]:/.test(lower) || /^f[cd][0-9a-f]{2}:/.test(lower);
}

/** Whether `hostname` (as URL gives it: IPv6 in brackets) is a link-local, private or metadata address. */
export function isForbiddenHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (METADATA_NAMES.has(host)) return true;
  switch (isIP(host)) {
    case 4:
      return ipv4Private(host);
    case 6:
      return ipv6Private(host);
    default:
      return false;
  }
}

/**
 * The URL a redirect from `from` leads to, when afp follows it; throws a RefusedAnswerError naming
 * the Location otherwise. `target` is the URL the exchange began with; `followed` the redirects so far.
 */
export function followedRedirect(options: {
  readonly target: URL;
  readonly from: URL;
  readonly status: number;
  readonly location: string;
  readonly followed: number;
}): URL {
  const { target, from, status, location, followed } = options;
  const refuse = (why: string): never => {
    throw new RefusedAnswerError(
      { kind: 'redirect', status, location, why },
      `answered ${status}, a redirect to ${JSON.stringify(location.slice(0, 300))}: ${why}`,
    );
  };
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return refuse('not a URL; not followed');
  }
  if (isForbiddenHost(url.hostname) && url.hostname !== target.hostname)
    return refuse('a link-local, private or metadata address; afp never follows a redirect there');
  if (url.origin !== target.origin)
    return refuse(`another origin than the target's ${target.origin}; afp does not follow it`);
  if (followed >= REDIRECTS_MAX) return refuse(`more than ${REDIRECTS_MAX} redirects; not followed`);
  return url;
}
