/**
 * Whether anything listens at a URL's host and port, by opening a TCP connection and closing it
 * at once — no request, so nothing is asked of the target (a POST is not sent twice). `afp load URL`
 * asks before its run so a target that is not there exits 4 at once rather than after a run of
 * refused connections. For https:// the TLS handshake is made too, verifying the certificate as
 * the run will (unless `insecureSkipTlsVerify`), so a self-signed target is named before the run
 * with the flag that takes it, not found as a run of failed requests.
 * Bounded by `timeoutMs`; the answer is returned, never thrown.
 */
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export type Reach = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** Certificate errors node reports (its codes): the ones --insecure-skip-tls-verify takes. */
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY)|ERR_TLS_CERT_ALTNAME/;

export function reachable(url: string, timeoutMs: number, insecureSkipTlsVerify = false): Promise<Reach> {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'https:';
  const port = parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket: Socket = secure
      ? tlsConnect({
          host,
          port,
          rejectUnauthorized: !insecureSkipTlsVerify,
          ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }),
        })
      : connect({ host, port });
    const done = (outcome: Reach): void => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, message: `${host}:${port} did not accept a connection within ${timeoutMs} ms` }),
    );
    socket.once(secure ? 'secureConnect' : 'connect', () => done({ ok: true }));
    socket.once('error', (error: Error & { code?: string }) =>
      done({ ok: false, message: `${host}:${port}: ${error.message}${certificateHint(error.code)}` }),
    );
  });
}

function certificateHint(code: string | undefined): string {
  return code !== undefined && CERTIFICATE_CODES.test(code)
    ? ` (${code}: its certificate is not one this machine trusts; --insecure-skip-tls-verify takes it unchecked, as k6's flag does)`
    : '';
}
