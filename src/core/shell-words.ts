/**
 * POSIX shell words for the lines afp prints to be pasted back: every `reproduce:` command and
 * every finding's curl. Why one file: the reproduce lines of run, sweep, shrink, check, replay and
 * the audits, and the curl of a finding, must quote alike, or one of them pastes wrongly.
 * Non-goals: other shells.
 */

/** `text` as one single-quoted word: no expansion inside; a `'` is closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `text` as one word, quoted only where the shell would change it (a path with a space, a `'`). */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(text) ? text : shellQuote(text);
}

/** Words as one command line that pastes as is. */
export function commandLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
