/**
 * The limits on what a target's answer can make afp hold, in one place: every HTTP read afp makes
 * of a target goes through http-connections.ts, which applies them. Why: afp is pointed at
 * deployments its user does not control, and a 200 MB answer, a gzip bomb or 10 MB of headers
 * must cost the run a finding, never the machine (the kernel's OOM kill says nothing to the user).
 *
 * - body: at most `bodyBytesMax` bytes, counted after decompression while they stream (a gzip
 *   bomb stops at the limit); a Content-Length above it is refused before a byte is read. Default
 *   16 MiB; `--max-body-mb` on the live commands sets it for the process (`setAnswerBytesMax`).
 * - headers: at most HEADER_BYTES_MAX bytes (node's parser refuses more: HPE_HEADER_OVERFLOW).
 * - JSON: at most ANSWER_JSON_DEPTH_MAX levels of nesting (bounded-json.ts).
 * - redirects: same origin only, at most REDIRECTS_MAX (redirect-policy.ts).
 * What breaches a limit is a RefusedAnswerError: the exchange is unanswered, and its message names
 * the limit and the flag that moves it.
 */

export const MIB = 1_048_576;
export const ANSWER_BYTES_MAX_DEFAULT = 16 * MIB;
/** The largest --max-body-mb (afp holds a whole answer as text: a V8 string tops out near 512 MiB). */
export const ANSWER_MB_LIMIT = 256;
/** node's default, written out so it is afp's limit whatever NODE_OPTIONS says. */
export const HEADER_BYTES_MAX = 16_384;

let answerBytesMax = ANSWER_BYTES_MAX_DEFAULT;

/** The body limit of every exchange that names none (set once, from `--max-body-mb`). */
export function setAnswerBytesMax(bytes: number): void {
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new Error(`an answer limit is a positive whole number of bytes, not ${bytes}`);
  answerBytesMax = bytes;
}

export function currentAnswerBytesMax(): number {
  return answerBytesMax;
}

/** `bytes` as the user gives the limit: in MiB when whole. */
export function bytesText(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

export type AnswerBreach =
  | { readonly kind: 'too-large'; readonly bytesMax: number }
  | { readonly kind: 'too-deep'; readonly depthMax: number }
  | { readonly kind: 'too-many'; readonly valuesMax: number }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string; readonly why: string };

/** An answer afp refused to read or follow: the exchange counts as unanswered. */
export class RefusedAnswerError extends Error {
  readonly breach: AnswerBreach;

  constructor(breach: AnswerBreach, message: string) {
    super(message);
    this.breach = breach;
  }
}

/** The RefusedAnswerError behind `error` (itself or its causes), or null. */
export function refusedAnswerOf(error: unknown): RefusedAnswerError | null {
  for (let current = error, hops = 0; current instanceof Error && hops < 8; current = current.cause, hops++)
    if (current instanceof RefusedAnswerError) return current;
  return null;
}

export function tooLargeMessage(bytesMax: number): string {
  return `its answer's body is over ${bytesText(bytesMax)}, afp's limit (--max-body-mb): not read`;
}
