/**
 * When `npx afp serve` is stopped by ending npx, the serve stops too. Why: npx runs afp as
 * `npm exec` → `sh -c afp …` → node, and a script's `kill %1` (no job control, so no process group
 * is signalled) ends npm exec alone; the serve went on, reparented to init, still holding its port
 * and its --data file, so the docs' "stop and restart on the same file" recipe met "in use by
 * another process" and its health check reached the orphan. Here: started by npx (npm sets
 * `npm_command=exec`), a serve whose parent process has gone (its parent pid changed) closes as on
 * SIGTERM. Not for a serve started otherwise: `afp serve &` from a script that then exits is a
 * server meant to outlive it.
 * Bounded: one check every WATCH_MS, on an unref'd timer (it never keeps the process alive).
 */

/** How often the parent pid is read. */
const WATCH_MS = 500;

export interface LauncherWatch {
  /** Resolves with the parent pid that was lost, once the npx that started this process has ended; never otherwise. */
  readonly ended: Promise<number>;
  stop(): void;
}

export function watchLauncher(
  env: Readonly<Record<string, string | undefined>> = process.env,
  parentPid: () => number = () => process.ppid,
): LauncherWatch {
  if (env['npm_command'] !== 'exec') return { ended: new Promise<number>(() => undefined), stop: () => undefined };
  const first = parentPid();
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<number>((resolve) => {
    timer = setInterval(() => {
      if (parentPid() === first) return;
      clearInterval(timer);
      resolve(first);
    }, WATCH_MS);
    timer.unref();
  });
  return { ended, stop: () => clearInterval(timer) };
}
