/**
 * One line for a transport failure: the error's name (unless plain Error), its message and its
 * cause's message (a transport's "failed" error keeps the network reason, ECONNREFUSED or a timeout, in `cause`).
 * Its own file so the transports, the admin client and target discovery share it without a cycle.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}${cause}`;
}
