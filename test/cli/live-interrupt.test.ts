// Ctrl-C on a live audit (live-command.ts): the time budget ends at once, so the audit stops as at
// its limit — what was placed is verified, the reports are written — says it was interrupted, and
// exits 4 (a run cut short is not a pass). Before, Node's default ended it: no report at all.
// Against a real `afp serve` child on loopback (manual clock: the account is funded at once).
// `afp replay` the same way: a pacing wait ends at once, no further exchange is sent, the diff so far
// is written and the stop says why (exit 4).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { interruptCliChild, styleARecord } from '../fixtures/cli-child.ts';
import { startServeChild } from '../fixtures/serve-child.ts';

const work = mkdtempSync(join(tmpdir(), 'afp-live-interrupt-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('Ctrl-C on a live command', () => {
  test('house-edge stops betting, verifies what was placed, writes its reports and exits 4', async () => {
    const serve = await startServeChild(['--port', '0', '--clock', 'manual']);
    try {
      const out = join(work, 'edge');
      const args = ['audit', 'house-edge', '--target', serve.urls['api'] ?? '', '--bets', '100000'];
      const { code, stdout, stderr } = await interruptCliChild(
        [...args, '--concurrency', '1', '--json', '--out', out],
        // Once the betting is under way: the account line comes just before the first bet.
        { ready: ({ stderr }) => stderr.includes('account:'), afterMs: 500, signal: 'SIGINT' },
      );
      expect(code, stderr).toBe(4);
      expect(stderr).toContain('afp audit house-edge: interrupted: stopping and writing the reports so far');
      expect(stderr).toContain('interrupted: the run was cut short, so it is not a pass');
      const json = JSON.parse(stdout) as { stopped_by: string; placed: number; verified: number; exit_code: number };
      expect(json).toMatchObject({ stopped_by: 'interrupted', exit_code: 4 });
      expect(json.placed).toBeGreaterThan(0);
      expect(json.placed).toBeLessThan(100_000);
      expect(json.verified).toBe(json.placed);
      for (const file of ['edges.json', 'findings.json', 'findings.junit.xml'])
        expect(existsSync(join(out, file))).toBe(true);
      expect(JSON.parse(readFileSync(join(out, 'edges.json'), 'utf8'))).toBeTruthy();
    } finally {
      await serve.stop();
    }
  });

  test('replay at the recorded pace: the wait ends, nothing more is sent, the reports are written, exit 4', async () => {
    // The exchanges are minutes apart at the recorded pace: the signal lands in a wait.
    const record = await styleARecord(work);
    const serve = await startServeChild(['--port', '0', '--clock', 'manual']);
    try {
      const out = join(work, 'replay');
      const { code, stdout, stderr } = await interruptCliChild(
        ['replay', record, '--target', serve.urls['api'] ?? '', '--out', out],
        { ready: ({ stdout }) => stdout.includes('pacing:'), afterMs: 1_000, signal: 'SIGINT' },
      );
      expect(code, stderr).toBe(4);
      expect(stderr).toContain('afp replay: interrupted: sending no further exchange');
      expect(stdout).toMatch(/STOPPED at seq \d+: interrupted \(Ctrl-C\)/);
      expect(JSON.parse(readFileSync(join(out, 'diff.json'), 'utf8'))).toBeTruthy();
    } finally {
      await serve.stop();
    }
  });
});
