/**
 * The most worker threads `afp load --workers N` splits a run over (load-workers.ts runs them).
 * Why a file of its own: the flag is checked before the run loads, and load-workers.ts brings the
 * plan, the recorder and the worker pool.
 */
export const WORKERS_MAX = 64;
