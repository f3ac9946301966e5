/**
 * How `afp check` ends on the terminal, for the documents' model and for the check through a
 * target's dialect alike: the lines given, then `ok: …`, or the failure with its shrunk command
 * sequence, seed, path and the exact command that replays it.
 */
import type { CheckResult } from '../check/run-check.ts';

/** What `--json` records of a check's outcome, in-process or through a target's dialects alike. */
export function checkRecordFields(result: CheckResult): Readonly<Record<string, unknown>> {
  const failure = result.failure;
  return {
    runs: result.runs,
    shrinks: result.shrinks,
    target: result.target,
    notes: result.notes,
    ...(result.interrupted === true ? { interrupted: true } : {}),
    failure:
      failure === undefined
        ? null
        : { kind: failure.kind, error: failure.error, commands: failure.commands, path: failure.path },
    reproduce: failure === undefined ? (result.reproduce ?? null) : failure.reproduce,
  };
}

/** `lines`, then `ok: …` or the failure with its shrunk sequence, seed, path and reproduce command. */
export function formatOutcome(head: readonly string[], result: CheckResult, maxCommands: number): string {
  const lines = [...head];
  const failure = result.failure;
  if (failure === undefined) {
    lines.push(
      result.interrupted === true
        ? `interrupted: ${result.runs} runs held (at most ${maxCommands} command${maxCommands === 1 ? '' : 's'} each) before the check was cut short, so it is not a pass`
        : `ok: ${result.runs} runs held (at most ${maxCommands} command${maxCommands === 1 ? '' : 's'} each)`,
    );
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `FAILED: ${failure.kind === 'mismatch' ? 'an answer differs from the model' : 'the check could not run'} (run ${result.runs}, ${result.shrinks} shrinks)`,
    `error: ${failure.error}`,
    `shrunk command sequence (${failure.commands.length} commands; the last one failed):`,
    ...failure.commands.map((command, index) => `  ${index + 1}. ${command}`),
    `counterexample: ${failure.counterexample}`,
    `seed: ${failure.seed}`,
    `path: ${failure.path}`,
    `reproduce: ${failure.reproduce}`,
  );
  if (result.interrupted === true)
    lines.push('interrupted while shrinking: the sequence above may not be the shortest that fails');
  return `${lines.join('\n')}\n`;
}
