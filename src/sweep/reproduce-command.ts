/**
 * The `afp run` command line that replays one seed exactly, shell-quoted so it pastes as is: what
 * a sweep row, a shrink and a failing `afp run` print. Why a file of its own (it was in
 * seed-run.ts): `afp run` prints it on every run, and seed-run.ts brings the whole archetype table
 * and the sweep's report writers with it.
 */
import { commandLine } from '../core/shell-words.ts';
import type { DefectName } from '../services/shared/context.ts';

/** The `afp run` command that replays one seed of a sweep exactly. */
export function reproduceCommand(file: string, seed: string, defects: readonly DefectName[], swarm = false): string {
  const words = ['npx', 'afp', 'run', file, '--seed', seed];
  if (defects.length > 0) words.push('--defect', defects.join(','));
  if (swarm) words.push('--swarm');
  return commandLine(words);
}
