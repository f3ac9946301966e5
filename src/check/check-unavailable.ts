/**
 * The check could not go on against its target: a call got no answer, the target's rate limits
 * outlasted the time budget, or it refused to set up the run's accounts. Thrown like CheckMismatch
 * (fast-check's command runner carries no returned outcome), and told apart from it and from an
 * afp bug: the CLI ends with exit 4 (liveness), where a broken model rule is 3 and a bug is 1.
 */
export class CheckUnavailable extends Error {
  override readonly name = 'CheckUnavailable';
}
