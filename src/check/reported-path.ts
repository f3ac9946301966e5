/**
 * A failing path as `afp check` reports it (`<digits:...>@<replayPath>`), read back. Why apart from
 * replay-path.ts: `afp check` checks a --path before it loads fast-check and the model.
 */

export interface ReplayPath {
  /** fast-check's path (digits joined by ':'). */
  readonly path: string;
  /** The commands' replay path (fc.commands `replayPath`); '' when the report had none. */
  readonly replayPath: string;
}

/** The two parts of a reported path; null when `text` is not one. */
export function splitPath(text: string): ReplayPath | null {
  const match = /^(\d+(?::\d+)*)@([A-Za-z0-9+/]*:[A-Za-z0-9+/]*)?$/.exec(text);
  return match === null ? null : { path: match[1] as string, replayPath: match[2] ?? '' };
}
