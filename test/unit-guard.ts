/**
 * The unit project's guard (a vitest setup file, see vitest.config.ts): a unit test file — one
 * listed in test/unit-files.ts — opens no socket, starts no child process and no worker thread. Each such
 * attempt is refused at once (it throws) and also recorded, and the file fails in its afterAll
 * even when the code under test caught the error (live code counts failures rather than throwing).
 * Why enforce it: the unit project is the inner loop; a test that waits on a socket or a child is
 * slow and machine-dependent, so it belongs in the integration project (any test file not listed).
 * Invariants: installed before the test file is imported; builtins' ESM named exports are synced,
 * so `import { spawn } from 'node:child_process'` meets the guard too. Non-goals: native addons and
 * file-system access (reading fixtures is fine in a unit test).
 */
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import workerThreads from 'node:worker_threads';
import { afterAll } from 'vitest';

const violations: string[] = [];

function refuse(what: string): never {
  const message = `${what}: a unit test (listed in test/unit-files.ts) opens no socket, starts no process or worker; take the file off that list (it is then in the integration project)`;
  violations.push(message);
  throw new Error(message);
}

function guardProcesses(): void {
  const names = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
  for (const name of names) {
    Object.defineProperty(childProcess, name, {
      value: () => refuse(`child_process.${name}`),
      writable: true,
      configurable: true,
    });
  }
}

function guardSockets(): void {
  net.Socket.prototype.connect = function connect(): never {
    return refuse('net.Socket.connect (an outgoing connection, fetch included)');
  };
  net.Server.prototype.listen = function listen(): never {
    return refuse('net.Server.listen (a listening server)');
  };
  dgram.Socket.prototype.bind = function bind(): never {
    return refuse('dgram.Socket.bind');
  };
  dgram.Socket.prototype.send = function send(): never {
    return refuse('dgram.Socket.send');
  };
}

function guardWorkers(): void {
  class RefusedWorker {
    constructor() {
      refuse('new Worker (a worker thread)');
    }
  }
  Object.defineProperty(workerThreads, 'Worker', { value: RefusedWorker, writable: true, configurable: true });
}

guardProcesses();
guardSockets();
guardWorkers();
syncBuiltinESMExports();

/** The refused attempts so far, forgotten once read (the guard's own test reads them; afterAll does). */
export function takeViolations(): string[] {
  return violations.splice(0);
}

afterAll(() => {
  const refused = takeViolations();
  if (refused.length > 0)
    throw new Error(`unit-project guard: ${refused.length} refused attempt(s):\n${[...new Set(refused)].join('\n')}`);
});
