/**
 * Whether anything listens at a URL's host and port, by opening a TCP connection and closing it
 * at once — no request, so nothing is asked of the target (a POST is not sent twice). `afp load URL`
 * asks before its run so a target that is not there exits 4 at once rather than after a run of
 * refused connections. Bounded by `timeoutMs`; the answer is returned, never thrown.
 */
import { connect } from 'node:net';

export function reachable(
  url: string,
  timeoutMs: number,
): Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }> {
  const parsed = new URL(url);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (outcome: { ok: true } | { ok: false; message: string }): void => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, message: `${host}:${port} did not accept a connection within ${timeoutMs} ms` }),
    );
    socket.once('connect', () => done({ ok: true }));
    socket.once('error', (error) => done({ ok: false, message: `${host}:${port}: ${error.message}` }));
  });
}
