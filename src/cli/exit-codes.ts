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

/**
 * The exit code of a target that could not be resolved, the same in every live command: a wrong
 * file or URL is invalid input (2); a target that did not answer is liveness (4: the work could
 * not settle), never a crash (1 is kept for afp's own bugs).
 */
export function exitOfUnresolvedTarget(kind: 'invalid' | 'trouble'): ExitCode {
  return kind === 'invalid' ? EXIT.invalidInput : EXIT.liveness;
}
