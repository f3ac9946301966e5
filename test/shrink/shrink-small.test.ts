/**
 * `afp shrink` on small scenarios, in-process and in about a second each: what the shrunk run's
 * reports say and how a run that fails otherwise than by an invariant is answered. The shipped
 * scenarios' shrinks (tens of seconds) are in shrink.test.ts and every-defect-*.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as runEnding } from '../../src/cli/run.ts';
import { main as shrinkEnding } from '../../src/cli/shrink.ts';
import { commandLine } from '../../src/core/shell-words.ts';
import { escapeHtml } from '../../src/report/html/html-text.ts';
import { coded } from '../cli/ending-code.ts';

const runMain = coded(runEnding);
const shrinkMain = coded(shrinkEnding);

const work = mkdtempSync(join(tmpdir(), 'afp-shrink-small-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function capture(): {
  io: { out(text: string): void; err(text: string): void; errIsTty: boolean };
  out: () => string;
  err: () => string;
} {
  let out = '';
  let err = '';
  return {
    io: { out: (text) => (out += text), err: (text) => (err += text), errIsTty: false },
    out: () => out,
    err: () => err,
  };
}

/** Six property agents on the escrow: the fee defect fails agent-assertions at the first escrow. */
const PROPERTY_FAILS = `name: propfail
duration: 1d
populations:
  - agent: property
    count: 6
    params: { services: [escrow], max_actions: 60 }
  - agent: faucet-farmer
    count: 5
`;

/** Disputes that never close (escrow-dispute-stuck) leave escrows unsettled: the liveness check fails. */
const LIVENESS_FAILS = `name: live
duration: 1d
liveness: 3d
populations:
  - agent: escrow-seller
    count: 10
  - agent: escrow-buyer
    count: 10
    params: { release: 0.2, refund: 0.1, dispute: 0.6, let_expire: 0.1 }
`;

describe('afp shrink, small runs', () => {
  it("names the shrunk file, shell-quoted, in the shrunk run's reports", async () => {
    const file = join(work, 'propfail.yaml');
    writeFileSync(file, PROPERTY_FAILS);
    const out = join(work, 'shrunk out');
    const shrink = capture();
    expect(await shrinkMain([file, '--defect', 'escrow-fee-2pct', '--out', out], shrink.io), shrink.err()).toBe(3);
    const reproduce = commandLine(['npx', 'afp', 'run', join(out, 'shrunk.yaml'), '--defect', 'escrow-fee-2pct']);
    expect(reproduce).toContain(`'${join(out, 'shrunk.yaml')}'`);
    expect(shrink.out()).toContain(`reproduce: ${reproduce}\n`);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { reproduce: string };
    expect(summary.reproduce).toBe(reproduce);
    expect(readFileSync(join(out, 'timeline.html'), 'utf8')).toContain(escapeHtml(reproduce));
    expect(readFileSync(join(out, 'shrunk.yaml'), 'utf8')).toContain(`# Reproduce: ${reproduce}\n`);
  });

  it('prints one progress line per kept run on stderr, none with --quiet', async () => {
    const file = join(work, 'propfail-quiet.yaml');
    writeFileSync(file, PROPERTY_FAILS);
    const loud = capture();
    expect(await shrinkMain([file, '--defect', 'escrow-fee-2pct', '--out', join(work, 'loud')], loud.io)).toBe(3);
    expect(loud.err()).toMatch(/^afp shrink: run \d+: kept /m);
    const quiet = capture();
    expect(await shrinkMain([file, '--defect', 'escrow-fee-2pct', '--out', join(work, 'quiet'), '-q'], quiet.io)).toBe(
      3,
    );
    expect(quiet.err()).toBe('');
    expect(quiet.out()).toBe(loud.out().replaceAll(join(work, 'loud'), join(work, 'quiet')));
  });

  it('shrinks a run that fails its liveness check and exits 4, as afp run of the file does', async () => {
    const file = join(work, 'live.yaml');
    writeFileSync(file, LIVENESS_FAILS);
    const out = join(work, 'live-shrunk');
    const shrink = capture();
    const code = await shrinkMain([file, '--defect', 'escrow-dispute-stuck', '--out', out, '--json'], shrink.io);
    expect(code, shrink.err()).toBe(4);
    const json = JSON.parse(shrink.out()) as Record<string, unknown>;
    expect(json).toMatchObject({
      exit_code: 4,
      verdict: 'liveness',
      holds: false,
      failed: 'liveness',
      invariant: null,
    });
    const shrunk = json['shrunk'] as { agents: number };
    expect(shrunk.agents).toBeLessThan(20);
    expect(readFileSync(join(out, 'shrunk.yaml'), 'utf8')).toContain('its liveness check still fails');

    const run = capture();
    const rerun = join(work, 'live-rerun');
    expect(await runMain([join(out, 'shrunk.yaml'), '--defect', 'escrow-dispute-stuck', '--out', rerun], run.io)).toBe(
      4,
    );
    expect(run.out()).toMatch(/limit reached: liveness: \d+ items? did not settle/);
    expect(readFileSync(join(rerun, 'events.jsonl'), 'utf8')).toBe(readFileSync(join(out, 'events.jsonl'), 'utf8'));

    const human = capture();
    expect(await shrinkMain([file, '--defect', 'escrow-dispute-stuck', '--out', out], human.io)).toBe(4);
    expect(human.out()).toMatch(/^seed: 1\nlimit reached: liveness\n.*\nmessage: liveness: \d+ items? did not settle/);
  });
});
