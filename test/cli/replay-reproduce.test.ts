// The reproduce line `afp replay` prints (src/cli/replay.ts reproduceReplayCommand): the run's own flags,
// shell-quoted only where a word needs it, so the line pastes as is, a path with a space included.
import { describe, expect, test } from 'vitest';
import { reproduceReplayCommand } from '../../src/cli/replay.ts';

const FLAGS = {
  file: 'run.jsonl',
  target: 'http://127.0.0.1:8700',
  speedText: 'max',
  sync: 'auto',
  out: 'reports/replay',
  failOn: 'major',
} as const;

describe('the replay reproduce line', () => {
  test('plain words stay as they were, and default --out and --fail-on are left out', () => {
    expect(reproduceReplayCommand(FLAGS)).toBe(
      'npx afp replay run.jsonl --target http://127.0.0.1:8700 --speed max --sync-clock auto',
    );
  });

  test('a path with a space or a quote is quoted for the shell; given --out and --fail-on are kept', () => {
    expect(reproduceReplayCommand({ ...FLAGS, file: 'my runs/a.jsonl', out: "it's here", failOn: 'minor' })).toBe(
      `npx afp replay 'my runs/a.jsonl' --target http://127.0.0.1:8700 --speed max --sync-clock auto --out 'it'\\''s here' --fail-on minor`,
    );
  });
});
