/**
 * The memory part's served rows (issue 71, part 6): bytes of resident memory per agent that an
 * `afp serve` holds once 50,000 agents registered over HTTP, as a team's stand-in gathers them.
 * The serve runs as a user runs it (bin/afp.js, its own process, in memory); 32 keep-alive
 * connections register the agents, each from an address of its own in X-Forwarded-For (a trusted
 * loopback proxy, so the per-IP limit of 10 registrations a minute holds per agent); the serve's
 * VmRSS is read from /proc before the first registration and 2 s after the last, and the growth over
 * the agents is the figure, target <= 4 KB. Two rows: the documents' style B `POST /register` and
 * the deployed casino's `POST /api/v1/auth/register`.
 * Why RSS here and heap in the simulator's rows: a served stand-in is judged from outside, by what
 * the machine gives it; RSS counts the young generation and the pages V8 keeps, so it is the
 * upper figure. Bounds: the agents (`--small`: 2,000), 60 s of registering at most, the serve
 * SIGTERMed by its pid at the end whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

export const SERVED_AGENTS = 50_000;
export const SERVED_AGENTS_SMALL = 2_000;
const LANES = 32;
const REGISTER_MS_MAX = 60_000;
const SETTLE_MS = 2_000;

export interface ServedMemory {
  readonly dialect: 'documents' | 'deployed';
  readonly agents: number;
  readonly registered: number;
  readonly rssBeforeBytes: number;
  readonly rssAfterBytes: number;
}

const DIALECTS = [
  { dialect: 'documents', flags: [], mount: 'api', path: '/register' },
  {
    dialect: 'deployed',
    flags: ['--dialect', 'deployed', '--lift-deployed-limits'],
    mount: 'casino',
    path: '/api/v1/auth/register',
  },
] as const;

export async function servedMemory(agents: number, log: (line: string) => void): Promise<ServedMemory[]> {
  const rows: ServedMemory[] = [];
  for (const form of DIALECTS) {
    log(`memory: afp serve (${form.dialect}), ${agents} agents registered over HTTP, in a fresh process`);
    const row = await servedRow(form, agents);
    log(`memory: afp serve (${form.dialect}): ${Math.round(rssPerAgent(row))} resident bytes per agent`);
    rows.push(row);
  }
  return rows;
}

export function rssPerAgent(row: ServedMemory): number {
  return row.registered === 0 ? Number.POSITIVE_INFINITY : (row.rssAfterBytes - row.rssBeforeBytes) / row.registered;
}

async function servedRow(form: (typeof DIALECTS)[number], agents: number): Promise<ServedMemory> {
  const bin = fileURLToPath(new URL('../bin/afp.js', import.meta.url));
  const args = ['--max-semi-space-size=32', bin, 'serve', '--port', '0', '--trust-proxy', '127.0.0.1/32'];
  const child = spawn(process.execPath, [...args, '--clock', 'manual', ...form.flags], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    const base = await readyUrl(child, form.mount);
    await sleep(SETTLE_MS);
    const rssBeforeBytes = residentBytes(child);
    const registered = await register(`${base}${form.path}`, agents);
    await sleep(SETTLE_MS);
    return { dialect: form.dialect, agents, registered, rssBeforeBytes, rssAfterBytes: residentBytes(child) };
  } finally {
    child.kill('SIGTERM');
  }
}

function readyUrl(child: ChildProcess, mount: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error('afp serve was not ready within 30 s')), 30_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      const url = new RegExp(`^${mount}: (http://\\S+)$`, 'm').exec(output)?.[1];
      if (url === undefined || !/^ready$/m.test(output)) return;
      clearTimeout(timer);
      resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`afp serve exited ${String(code)} before ready`)));
  });
}

function residentBytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${String(child.pid)}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

/** Registers `agents` agents on LANES keep-alive connections; the count answered 201. */
async function register(url: string, agents: number): Promise<number> {
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: LANES });
  const deadline = performance.now() + REGISTER_MS_MAX;
  let next = 0;
  let created = 0;
  const lane = async (): Promise<void> => {
    while (next < agents && performance.now() < deadline) {
      const index = next;
      next += 1;
      if ((await post(target, agent, index)) === 201) created += 1;
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  agent.destroy();
  return created;
}

function post(target: URL, agent: Agent, index: number): Promise<number> {
  const body = JSON.stringify({ agent_id: `served-memory-${index}` });
  const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  return new Promise((resolve) => {
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'x-forwarded-for': address,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on('error', () => resolve(0));
    sent.end(body);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
