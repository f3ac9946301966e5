/**
 * The check could not go on against its target: a call got no answer, the target's rate limits
 * outlasted the time budget, or it refused to set up the run's accounts. Thrown like CheckMismatch
 * (fast-check's command runner carries no returned outcome), and told apart from it and from an
 * afp bug: the CLI ends with exit 4 (liveness), where a broken model rule is 3 and a bug is 1.
 */
export class CheckUnavailable extends Error {
  override readonly name = 'CheckUnavailable';
}

/**
 * A failure's message when the shrunk sequence, run once more, did not fail. For a broken rule
 * the target then answered two ways to the same sequence; for a target that did not answer (a
 * gateway's page, a timeout) it simply answered this time, which says nothing of determinism.
 */
export function unrepeatedFailureText(error: unknown, message: string): string {
  return error instanceof CheckUnavailable
    ? `${message} (the shrunk sequence ran through when replayed once more: the target answered that time)`
    : `${message} (the shrunk sequence passed when replayed once more: the target is not deterministic)`;
}
