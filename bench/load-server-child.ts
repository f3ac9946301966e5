/**
 * A load benchmark target (load-servers.ts) in a process of its own, so the generators measured in
 * the bench's process do not share an event loop with it. Run as
 * `node bench/load-server-child.ts trivial`, `... api`, `... stalling PERIOD_MS STALL_MS` or `... fixed
 * STATUS BODY_BASE64 HEADERS_JSON_BASE64`; prints
 * `listening <url>` once, then serves until its stdin closes (the bench ended or died) or SIGTERM.
 * `serveInChild` starts it and hands back the URL and a stop that ends it by its pid.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pinned } from './cpu-pin.ts';
import { startLoadServer, type LoadServerKind } from './load-servers.ts';

export interface ChildServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** At most this long for the child to say where it listens. */
const START_TIMEOUT_MS = 20_000;

/** Starts the server of `kind` in a child process, pinned to core `cpu` when given (cpu-pin.ts). */
export function serveInChild(kind: LoadServerKind, cpu?: number): Promise<ChildServer> {
  const script = fileURLToPath(import.meta.url);
  const args =
    kind.kind === 'stalling'
      ? ['stalling', String(kind.schedule.periodMs), String(kind.schedule.stallMs)]
      : kind.kind === 'fixed'
        ? ['fixed', String(kind.status), base64(kind.body), base64(JSON.stringify(kind.headers ?? {}))]
        : [kind.kind];
  const command = pinned(cpu, process.execPath, [script, ...args]);
  const child = spawn(command.command, command.args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error('the load server child did not start in time'));
    }, START_TIMEOUT_MS);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const url = /^listening (\S+)$/m.exec(output)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the load server child exited (${String(code)}) before listening`));
    });
  });
}

function base64(text: string): string {
  return Buffer.from(text).toString('base64');
}

function fromBase64(text: string | undefined): string {
  return Buffer.from(text ?? '', 'base64').toString('utf8');
}

async function childMain(argv: readonly string[]): Promise<void> {
  const [name, period, stall, headers] = argv;
  const kind: LoadServerKind =
    name === 'stalling'
      ? { kind: 'stalling', schedule: { periodMs: Number(period), stallMs: Number(stall) } }
      : name === 'fixed'
        ? {
            kind: 'fixed',
            status: Number(period),
            body: fromBase64(stall),
            headers: JSON.parse(fromBase64(headers) || '{}') as Record<string, string>,
          }
        : name === 'api'
          ? { kind: 'api' }
          : { kind: 'trivial' };
  const server = await startLoadServer(kind);
  const end = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.stdin.on('close', end);
  process.stdin.on('end', end);
  process.stdin.resume();
  process.on('SIGTERM', end);
  process.stdout.write(`listening ${server.url}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  childMain(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`load server child: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
