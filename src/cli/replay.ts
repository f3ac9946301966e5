/**
 * `afp replay FILE --target URL|TARGET_FILE [--speed X] [--out DIR] [--sync-clock auto|on|off]
 * [--concurrency 1] [--timeout-ms N] [--fail-on SEVERITY]`: sends a recorded run (`afp run
 * --record`) to a live target in recorded order and pacing.
 *
 * Two paths, chosen by the target (`replayPath`):
 *   - an afp serve URL in the documents' dialect (or any URL that is not an afp serve): the recorded
 *     requests as they are, rebinding produced identifiers, every answer diffed against the model's
 *     recorded one (src/replay/*: pure; this file does the I/O and the waiting), `diff.json` and
 *     `diff.txt` under --out. Exit 0 no difference · 3 differences.
 *   - a target file, or an afp serve URL announcing another dialect (`afp serve --dialect deployed`):
 *     each exchange sent as its afp operation through the target's layout and dialect, answers
 *     compared as operation results (src/replay/operation-replay.ts, ./replay-dialect.ts), the
 *     findings report under --out. Exit 0 · 3 a finding reaches --fail-on (default major).
 *
 * Steps: validate the whole record first (exit 2 with line numbers), print the seed and header,
 * find the target, decide clock sync (afp serve answers GET /_afp/clock: its clock is moved to each
 * exchange's instant before sending; exact comparison of time-derived values needs its manual
 * mode). The verbatim path also checks the target's platform settings against the record's
 * (GET /_afp/platform; differences are of kind `setup`, the printed hint names the afp serve command
 * that fixes them) and replays the set-up (telling the target the tier of every pro/enterprise agent
 * right after its registration, POST /_afp/tier, and its casino starting deposit, POST
 * /_afp/casino/deposit); write the reports, print the summary.
 * Exit 2 bad input · 4 the target stopped answering.
 * Progress (exchanges sent of the record's, rate, ETA) goes to stderr (progress.ts), none with
 * --quiet or --json; with --json stdout is one JSON object (json-output.ts), the human lines on stderr.
 * This file parses the flags (replay-flags.ts) and checks that the record can be read with light
 * imports; the replay itself (replay-record.ts) is loaded only once both pass.
 * Liveness: every request has a timeout and at most RETRIES retries with doubling backoff
 * (a retried request that the target did apply shows up as differences, never hidden).
 */
import { armTargetBudget } from './target-budget.ts';
import { STDERR, STDOUT } from './colour.ts';
import { access, stat } from 'node:fs/promises';
import { withJsonOutput, type RecordFields } from './json-output.ts';
import { onProcessInterrupt } from './process-interrupt.ts';
import { parseReplayArgs, USAGE } from './replay-flags.ts';
import type { ReplayIo } from './replay-record.ts';
import { type Ending, invalidInput } from '../core/command-failure.ts';

export { parseReplayArgs, reproduceReplayCommand } from './replay-flags.ts';
export type { ReplayIo };

const PROCESS_IO: ReplayIo = {
  out: STDOUT,
  err: STDERR,
  errIsTty: process.stderr.isTTY,
  onInterrupt: onProcessInterrupt,
};

export async function main(argv: string[], io: ReplayIo = PROCESS_IO): Promise<Ending> {
  return withJsonOutput('afp replay', argv, io, (human, record) => replayCommand(argv, human, record));
}

async function replayCommand(argv: readonly string[], io: ReplayIo, record: RecordFields): Promise<Ending> {
  const flags = parseReplayArgs(argv);
  if ('errors' in flags) {
    record({ errors: flags.errors });
    return invalidInput(`${flags.errors.map((error) => `afp replay: ${error}`).join('\n')}\n${USAGE}`);
  }
  const unreadable = await recordUnreadable(flags.file);
  if (unreadable !== null) return invalidInput(unreadable);
  const disarm = armTargetBudget({
    command: 'replay',
    target: flags.target,
    seconds: flags.budgetSeconds,
    write: io.err,
  });
  try {
    const { replayRecord } = await import('./replay-record.ts');
    return await replayRecord(flags, io, record);
  } finally {
    disarm();
  }
}

/** Why the record file cannot be replayed (it cannot be read, or is no regular file: replay reads it twice), else null. */
async function recordUnreadable(file: string): Promise<string | null> {
  try {
    await access(file);
  } catch {
    return `afp replay: cannot read record file '${file}'`;
  }
  if (!(await stat(file)).isFile())
    return `afp replay: '${file}' is not a regular file: replay reads the record twice (a check, then the sends), so name the file afp run --record wrote`;
  return null;
}
