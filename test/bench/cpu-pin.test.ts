// bench/cpu-pin.ts's thread split, on a real Node child: every thread but the main one moves to the
// core asked, the main thread stays on its own (read back from /proc/PID/task/TID/status). Linux
// with taskset and two cores only; elsewhere the function says why it cannot, and that is checked.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { expect, test } from 'vitest';
import { pinned, pinThreadsApart, unpinnedReason } from '../../bench/cpu-pin.ts';

const splittable = existsSync('/proc/self/task') && unpinnedReason() === null && availableParallelism() >= 2;

function allowedCpus(pid: number, tid: string): string {
  const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
  return /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1] ?? '?';
}

test.skipIf(!splittable)("every thread but the loop's moves to the core asked; the loop stays", async () => {
  const command = pinned(1, process.execPath, ['-e', 'setTimeout(() => {}, 20_000)']);
  const child = spawn(command.command, command.args, { stdio: 'ignore' });
  try {
    const pid = child.pid ?? 0;
    // Node starts its helper threads before it runs the script; wait until they are there.
    for (let tries = 0; tries < 50 && readdirSync(`/proc/${pid}/task`).length < 3; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const before = readdirSync(`/proc/${pid}/task`).filter((tid) => tid !== String(pid));
    const moved = pinThreadsApart(pid, 0);
    if (typeof moved === 'string') throw new Error(moved);
    // Every thread there before the call moved (Node may start one more meanwhile: it stays put).
    expect(moved).toEqual(expect.arrayContaining(before));
    expect(moved).not.toContain(String(pid));
    expect(allowedCpus(pid, String(pid))).toBe('1');
    for (const tid of moved) expect(allowedCpus(pid, tid)).toBe('0');
  } finally {
    child.kill('SIGKILL');
  }
});

test.skipIf(splittable)('where threads cannot be split, it says why and moves none', () => {
  expect(typeof pinThreadsApart(process.pid, 0)).toBe('string');
});
