/**
 * Ctrl-C (SIGINT) for the commands that stop gracefully on it (`afp run`, `afp load`, `afp sweep`): the handler
 * replaces Node's default exit while it is listening; the returned function stops listening, so a
 * later Ctrl-C is Node's own again. Live-mode code: the only place a CLI command listens for it.
 */
export function onProcessInterrupt(handler: () => void): () => void {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
