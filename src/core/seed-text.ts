/**
 * What a seed is, wherever one is given: a scenario file's `seed`, every `--seed` flag, the seeds of
 * `--seeds`. Why one rule: the seed is printed in a reproduce line to be pasted back as `--seed`, so
 * a seed a file accepts and the flag refuses (a space in it) made a line that cannot reproduce.
 * Printable ASCII only: no quoting question in a shell, a file name or a report column.
 */

/** 1 to 128 printable ASCII characters, no space. */
export const SEED_PATTERN = /^[\x21-\x7e]{1,128}$/;

/** The rule in words, for every message that refuses a seed. */
export const SEED_RULE = '1 to 128 printable characters without spaces';

/** The `--seed` flag's error, or null when the text is a seed. */
export function seedFlagError(seed: string): string | null {
  return SEED_PATTERN.test(seed) ? null : `--seed must be ${SEED_RULE}, got '${seed.slice(0, 40)}'`;
}
