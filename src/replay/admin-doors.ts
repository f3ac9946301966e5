/**
 * What of a record `afp replay` refuses to send as it stands. Why: a record is data a colleague (or
 * anyone) hands over, and afp serve's admin doors (`/_afp/reset`, `/_afp/revert`, `/_afp/clock`,
 * `/_afp/tier`, …) erase or rewrite a durable stand-in and its snapshots. afp's own recordings never
 * hold one (the harness's set-up travels in the header and is re-applied by replay-setup.ts), so an
 * exchange aimed at one is skipped unless the user says `--with-admin`, and the skips are counted per
 * door for the terminal and the report.
 *
 * Invariants: a path is an admin door when any of its segments, percent-decoded (up to
 * DECODE_ROUNDS times), lower-cased and split on `/` or `\`, is `_afp` — dot segments and a
 * target's path prefix cannot turn such a path into a harmless one or a harmless one into a door
 * (a dot segment only removes segments). A recorded `host`, `forwarded` or `x-forwarded-host`
 * header is never sent (the connection goes to --target; a proxy that routes by those headers
 * would otherwise send the request elsewhere); each exchange so stripped is counted.
 * Pure: no I/O; the filter is an async generator over the record's exchanges; the skips as findings
 * (skippedDoorFindings) for a replay through a dialect.
 */
import type { RecordedExchange } from './record-format.ts';
import type { FindingInput } from '../report/findings/finding.ts';

const DECODE_ROUNDS = 3;
/** Request headers a record may carry that name an origin: dropped before sending. */
const ORIGIN_HEADERS: readonly string[] = ['host', 'forwarded', 'x-forwarded-host'];

/** Whether `path` (a recorded request path) reaches an afp serve admin door. */
export function isAdminDoor(path: string): boolean {
  let text = path;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const decoded = decodeOnce(text);
    if (decoded === text) break;
    text = decoded;
  }
  return text
    .toLowerCase()
    .split(/[/\\]/)
    .some((segment) => segment.trim() === '_afp');
}

function decodeOnce(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A stray `%` that is no escape: decode the escapes that are.
    return text.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
  }
}

/** One admin door the replay did not send: `POST /_afp/reset` and how many times the record aims at it. */
export interface SkippedDoor {
  readonly door: string;
  readonly count: number;
}

/** What the filter held back or changed; read once the exchanges are consumed. */
export class AdminDoorFilter {
  private readonly skipped = new Map<string, number>();
  private strippedCount = 0;
  private readonly withAdmin: boolean;

  constructor(withAdmin: boolean) {
    this.withAdmin = withAdmin;
  }

  /** The exchanges to send: admin doors left out (unless --with-admin), origin headers dropped. */
  async *filter(exchanges: AsyncIterable<RecordedExchange>): AsyncGenerator<RecordedExchange> {
    for await (const exchange of exchanges) {
      const { request } = exchange;
      if (!this.withAdmin && isAdminDoor(request.path)) {
        const door = `${request.method} ${request.path}`;
        this.skipped.set(door, (this.skipped.get(door) ?? 0) + 1);
        continue;
      }
      const names = Object.keys(request.headers);
      if (!names.some((name) => ORIGIN_HEADERS.includes(name.toLowerCase()))) {
        yield exchange;
        continue;
      }
      this.strippedCount += 1;
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !ORIGIN_HEADERS.includes(name.toLowerCase())),
      );
      yield { ...exchange, request: { ...request, headers } };
    }
  }

  /** The doors skipped, by door (sorted, so reports are byte-stable). */
  skippedDoors(): SkippedDoor[] {
    return [...this.skipped]
      .map(([door, count]) => ({ door, count }))
      .sort((left, right) => (left.door < right.door ? -1 : left.door > right.door ? 1 : 0));
  }

  /** Exchanges whose recorded host/forwarded headers were dropped. */
  strippedOriginHeaders(): number {
    return this.strippedCount;
  }
}

/** The terminal and report lines saying what the filter did; none when it did nothing. */
export function adminDoorLines(filter: AdminDoorFilter, withAdmin: boolean): string[] {
  const doors = filter.skippedDoors();
  const lines: string[] = [];
  if (doors.length > 0) {
    const total = doors.reduce((sum, door) => sum + door.count, 0);
    lines.push(
      `admin doors: ${total} recorded exchange(s) aimed at afp serve's admin doors were NOT sent (give --with-admin to send them): ${doors.map((door) => `${door.door} ×${door.count}`).join(', ')}`,
    );
  } else if (withAdmin) lines.push('admin doors: --with-admin: recorded /_afp/* exchanges are sent as they are');
  const stripped = filter.strippedOriginHeaders();
  if (stripped > 0)
    lines.push(
      `origin headers: ${stripped} recorded exchange(s) carried a Host/Forwarded header; it was dropped (every request goes to --target)`,
    );
  return lines;
}

/** Each admin door held back as an info finding of a replay through a dialect, with its count. */
export function skippedDoorFindings(
  filter: AdminDoorFilter,
): { readonly finding: FindingInput; readonly count: number }[] {
  return filter.skippedDoors().map((skipped) => ({
    finding: {
      id: 'replay:admin-door:skipped',
      severity: 'info',
      kind: 'rule',
      title: "the record aims at afp serve's admin doors (/_afp/*); they were not sent (--with-admin sends them)",
      endpoint: skipped.door,
      expected: 'no admin door in a record',
      seen: skipped.door,
      evidence: `${skipped.door} ×${skipped.count} not sent`,
    },
    count: skipped.count,
  }));
}
