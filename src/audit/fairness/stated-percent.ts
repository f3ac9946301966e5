/**
 * The one reader of a percentage a target or the documents state: a JSON number (`9.5`), a string
 * spelling it in plain decimal (`"9.5"`) or with a percent sign (`"9.5%"`, `"9.5 %"`, `"-1.2%"`).
 * Why one reader: DEPLOYED.md §2.5 names `house_edge_pct` without fixing its JSON type, and a
 * target writing `"9.5%"` was silently read as stating no edge while the documents' `8.3%` was
 * read; every stated percentage now goes through the same spelling rules.
 * `places` is how many decimals the figure shows (the tolerance its own rounding implies).
 * Non-goals: other scales (a fraction `0.095` is not a percentage) and text around the figure
 * beyond `percentInText`'s first match.
 */
import type { JsonValue } from '../../core/errors.ts';

export interface StatedPercent {
  /** The figure in percent (9.5 for "9.5%"). */
  readonly percent: number;
  /** Decimals the figure is written with (1 for "9.5%"; counted from the shortest form of a JSON number). */
  readonly places: number;
}

const PERCENT = /(-?\d+)(?:\.(\d+))?\s*%?/;
const WHOLE = new RegExp(`^\\s*${PERCENT.source}\\s*$`);
const IN_TEXT = /(-?\d+)(?:\.(\d+))?\s*%/;

const read = (match: RegExpExecArray | null): StatedPercent | null => {
  if (match === null) return null;
  const percent = Number(`${match[1] as string}.${match[2] ?? '0'}`);
  return Number.isFinite(percent) ? { percent, places: match[2]?.length ?? 0 } : null;
};

/** A stated value that is only a percentage (number, decimal string, with or without "%"), else null. */
export function statedPercent(value: JsonValue | undefined): StatedPercent | null {
  if (typeof value === 'number') return Number.isFinite(value) ? read(WHOLE.exec(String(value))) : null;
  return typeof value === 'string' ? read(WHOLE.exec(value)) : null;
}

/** The first "N%" in a text ("about 8.3% on average"), else null. */
export function percentInText(text: string): StatedPercent | null {
  return read(IN_TEXT.exec(text));
}
