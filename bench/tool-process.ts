/**
 * One run of a command-line tool as a user runs it (`afp load`, autocannon, k6, wrk), in a child
 * process of its own, for the load part of the bench. Bounded: a run that outlives `timeoutMs` is
 * ended by its pid (SIGTERM, then SIGKILL), and its output is kept up to OUTPUT_KEPT_CHARS per
 * stream. Never throws for a tool's failure: the exit code and both streams are returned.
 */
import { spawn } from 'node:child_process';

const OUTPUT_KEPT_CHARS = 1_000_000;
const KILL_GRACE_MS = 2_000;

export interface ToolRun {
  /** null when the tool was ended by a signal (or could not start: `error` says why). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly error: string | null;
}

export function runTool(command: string, args: readonly string[], timeoutMs: number): Promise<ToolRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let error: string | null = null;
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < OUTPUT_KEPT_CHARS) stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < OUTPUT_KEPT_CHARS) stderr += chunk;
    });
    let killTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    }, timeoutMs);
    child.once('error', (cause) => {
      error = cause.message;
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      resolve({ code, stdout, stderr, timedOut, error });
    });
  });
}
