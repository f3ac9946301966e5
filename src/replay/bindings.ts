/**
 * Bindings: recorded identifier → live identifier, kept one-to-one. Every identifier seen on
 * both sides (a rebound request value, an identifier leaf of a compared response) is bound; the
 * same recorded value must always meet the same live value, and two recorded values must never
 * meet one live value. Values a request introduced (caller-chosen agent ids) bind to themselves.
 *
 * Limits: at most `bindingsMax` pairs (default 2M); beyond that new pairs are not kept (counted
 * in `dropped`), so their later consistency is not checked.
 */

export const BINDINGS_MAX = 2_000_000;

export type BindResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly conflict: string; readonly expected: string };

const TOKEN = /[A-Za-z0-9_-]{8,}/g;

export class Bindings {
  private readonly toLive = new Map<string, string>();
  private readonly toRecorded = new Map<string, string>();
  private readonly bindingsMax: number;
  dropped = 0;

  constructor(options: { bindingsMax?: number } = {}) {
    this.bindingsMax = options.bindingsMax ?? BINDINGS_MAX;
  }

  get size(): number {
    return this.toLive.size;
  }

  live(recorded: string): string | undefined {
    return this.toLive.get(recorded);
  }

  /** The recorded value a live one is bound to. */
  recorded(live: string): string | undefined {
    return this.toRecorded.get(live);
  }

  bind(recorded: string, live: string): BindResult {
    const known = this.toLive.get(recorded);
    if (known !== undefined) {
      return known === live
        ? { ok: true }
        : { ok: false, conflict: `recorded ${recorded} is bound to live ${known} since earlier`, expected: known };
    }
    const other = this.toRecorded.get(live);
    if (other !== undefined)
      return {
        ok: false,
        conflict: `live ${live} is already bound to recorded ${other}`,
        expected: `a live value other than ${live}`,
      };
    if (this.toLive.size >= this.bindingsMax) {
      this.dropped++;
      return { ok: true };
    }
    this.toLive.set(recorded, live);
    this.toRecorded.set(live, recorded);
    return { ok: true };
  }

  /** `text` with every bound identifier inside it (an id quoted in an error message) replaced by its live value. */
  substitute(text: string): string {
    if (this.toLive.size === 0 || text.length < 8) return text;
    return text.replace(TOKEN, (token) => this.toLive.get(token) ?? token);
  }
}
