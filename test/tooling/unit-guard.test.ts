// The unit project's guard (test/unit-guard.ts) refuses what a unit test may not do: a listening
// server, an outgoing connection (fetch included, whose sockets Node makes inside), a child
// process by any of child_process's functions, a worker thread. Runs in the unit project, where
// the guard is installed; it reads the refusals itself, so its own file does not fail afterAll.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test } from 'vitest';
import { takeViolations } from '../unit-guard.ts';

afterEach(() => {
  takeViolations();
});

describe('the unit-project guard', () => {
  test('refuses a listening server and an outgoing connection, and names the list to leave', () => {
    expect(() => createServer().listen(0, '127.0.0.1')).toThrow(/net\.Server\.listen.*test\/unit-files\.ts/);
    expect(() => connect(9, '127.0.0.1')).toThrow(/net\.Socket\.connect/);
    expect(takeViolations()).toHaveLength(2);
  });

  test('refuses fetch even though fetch turns the error into a rejection', async () => {
    // Port 2: not on fetch's list of bad ports, which fetch refuses before any socket.
    await expect(fetch('http://127.0.0.1:2/')).rejects.toThrow();
    expect(takeViolations().join('\n')).toMatch(/net\.Socket\.connect/);
  });

  test('refuses child processes (named imports too) and worker threads', () => {
    expect(() => spawn(process.execPath, ['--version'])).toThrow(/child_process\.spawn/);
    expect(() => execFileSync(process.execPath, ['--version'])).toThrow(/child_process\.execFileSync/);
    expect(() => new Worker('0', { eval: true })).toThrow(/new Worker/);
    expect(takeViolations()).toHaveLength(3);
  });
});
