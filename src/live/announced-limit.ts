/**
 * A rate limit a target announces on its own answers: `X-RateLimit-Limit` or `RateLimit-Limit` (the
 * quota), with its window from `RateLimit-Policy` / `X-RateLimit-Policy` (`5;w=30`, or the later
 * drafts' `"default";q=5;w=30`). Why: a live target is judged by what it says of itself, never by
 * afp's copy of a deployment's rules; `afp target probe` writes what its GETs were told, and a
 * session judges a 429 against what the refused operation's answers announced.
 * Invariants: header names are read in any case; a window comes only from a policy's `w=` (a
 * Reset or Retry-After says when the current window ends, not how long it is, so it is never
 * taken for one); where a policy names several quotas, the strictest per minute is the one kept.
 * Numbers are bounded (QUOTA_MAX, WINDOW_SECONDS_MAX); anything else is no announcement.
 * Non-goals: pacing by it (the target file's limits are the pace), Remaining or Reset.
 */

/** Above these a header is not read as a limit (a typo, or a number of another meaning). */
const QUOTA_MAX = 1_000_000;
const WINDOW_SECONDS_MAX = 7 * 24 * 3_600;
/** Characters of the headers kept as evidence. */
const HEADER_TEXT_MAX = 160;

export interface AnnouncedLimit {
  /** Calls the target allows in its window. */
  readonly limit: number;
  /** The window in seconds; null when the answer stated none. */
  readonly windowSeconds: number | null;
  /** The headers as sent ("X-RateLimit-Limit: 5; RateLimit-Policy: 5;w=30"), for the evidence. */
  readonly headers: string;
}

function header(headers: Readonly<Record<string, string | undefined>>, name: string): string | null {
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && value !== undefined && value.trim() !== '') return value.trim();
  return null;
}

function boundedInt(text: string | undefined, max: number): number | null {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return null;
  const value = Number(text);
  return value >= 1 && value <= max ? value : null;
}

/** Each `quota;w=seconds` item of a policy (`5;w=30, 50;w=600` or `"default";q=5;w=30`). */
function policyItems(policy: string): { limit: number; windowSeconds: number }[] {
  const items: { limit: number; windowSeconds: number }[] = [];
  for (const item of policy.split(',').slice(0, 16)) {
    const parts = item.split(';').map((part) => part.trim());
    const parameters = new Map(
      parts.slice(1).map((part) => [part.slice(0, part.indexOf('=')).toLowerCase(), part.slice(part.indexOf('=') + 1)]),
    );
    const limit = boundedInt(parameters.get('q') ?? parts[0], QUOTA_MAX);
    const windowSeconds = boundedInt(parameters.get('w'), WINDOW_SECONDS_MAX);
    if (limit !== null && windowSeconds !== null) items.push({ limit, windowSeconds });
  }
  return items;
}

/** The limit an answer's headers announce, or null when they announce none. */
export function announcedLimit(headers: Readonly<Record<string, string | undefined>>): AnnouncedLimit | null {
  const limitName = header(headers, 'x-ratelimit-limit') === null ? 'RateLimit-Limit' : 'X-RateLimit-Limit';
  const limitText = header(headers, limitName.toLowerCase());
  const policyName = header(headers, 'ratelimit-policy') === null ? 'X-RateLimit-Policy' : 'RateLimit-Policy';
  const policyText = header(headers, policyName.toLowerCase());
  const shown = [
    ...(limitText === null ? [] : [`${limitName}: ${limitText}`]),
    ...(policyText === null ? [] : [`${policyName}: ${policyText}`]),
  ]
    .join('; ')
    .slice(0, HEADER_TEXT_MAX);
  // The strictest policy item per minute (integers: limit × 60 / window compared by cross-multiplying).
  const items = policyText === null ? [] : policyItems(policyText);
  items.sort((a, b) => a.limit * b.windowSeconds - b.limit * a.windowSeconds || a.windowSeconds - b.windowSeconds);
  const strictest = items[0];
  if (strictest !== undefined) return { ...strictest, headers: shown };
  // Only a quota (its first number: an old draft's `10, 10;w=1` too): announced, its window unsaid.
  const limit = limitText === null ? null : boundedInt(/^\d+/.exec(limitText)?.[0], QUOTA_MAX);
  return limit === null ? null : { limit, windowSeconds: null, headers: shown };
}

/**
 * The target file's per-minute pace that never exceeds `announced`: afp spaces paced calls evenly
 * (live-session.ts, 60 s / N + 1 ms apart), so floor(limit × 60 / window) a minute puts at most
 * `limit` calls in any window of its length. null when no window is stated, or when the limit is
 * slower than one call a minute (the file's slowest pace would exceed it).
 */
export function perMinuteWithin(announced: AnnouncedLimit): number | null {
  if (announced.windowSeconds === null) return null;
  const perMinute = Math.floor((announced.limit * 60) / announced.windowSeconds);
  return perMinute >= 1 ? perMinute : null;
}

/** "5 per 30 s", or "5 (no window stated)". */
export function announcedText(announced: AnnouncedLimit): string {
  return announced.windowSeconds === null
    ? `${announced.limit} (no window stated)`
    : `${announced.limit} per ${announced.windowSeconds} s`;
}
