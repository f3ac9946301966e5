/**
 * The neutral target of the load part's rate rounds: a server that costs as little as a server can,
 * in a process of its own, so the generators compared measure themselves. nginx when it is
 * installed (on PATH or in /usr/sbin: `return 200 '{}'`, one worker, no access log, a
 * configuration and pid file in a temporary folder); else the bench's trivial node:http server in
 * a child process (load-server-child.ts). Either is stopped by its pid.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { serveInChild } from './load-server-child.ts';

export interface NeutralTarget {
  /** 'nginx' or 'node:http (child process)'. */
  readonly name: string;
  readonly url: string;
  stop(): Promise<void>;
}

const NGINX_READY_TIMEOUT_MS = 10_000;

export function nginxPath(): string | null {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter), '/usr/sbin'];
  return dirs.map((dir) => join(dir, 'nginx')).find((path) => path.startsWith('/') && existsSync(path)) ?? null;
}

export async function startNeutralTarget(): Promise<NeutralTarget> {
  const nginx = nginxPath();
  if (nginx !== null) return startNginx(nginx);
  const child = await serveInChild({ kind: 'trivial' });
  return { name: "node:http, 200 '{}' (child process; nginx not installed)", url: child.url, stop: child.stop };
}

/** A port free at the moment of asking (the OS's choice). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function startNginx(nginx: string): Promise<NeutralTarget> {
  const dir = await mkdtemp(join(tmpdir(), 'afp-bench-nginx-'));
  const port = await freePort();
  const config = `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:${port};
    location / { default_type application/json; return 200 '{}'; }
  }
}
`;
  await writeFile(join(dir, 'nginx.conf'), config);
  const child = spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const startedMs = Date.now();
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() - startedMs > NGINX_READY_TIMEOUT_MS) {
      await stop();
      throw new Error(`nginx did not listen on 127.0.0.1:${port} (see its error log under ${dir})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { name: "nginx, return 200 '{}' (one worker)", url: `http://127.0.0.1:${port}/`, stop };
}
