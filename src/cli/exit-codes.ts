/**
 * Exit codes of every afp command (DESIGN.md): the contract CI scripts rely on.
 */
export const EXIT = {
  ok: 0,
  crash: 1,
  invalidInput: 2,
  checkFailed: 3,
  liveness: 4,
  loadThreshold: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
