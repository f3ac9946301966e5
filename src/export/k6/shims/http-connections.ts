/**
 * src/client/http-connections.ts as the k6 bundle sees it: the same export, with no node:http
 * behind it (k6 has no node:* modules; k6-bundle.ts maps the client's import here). Why: the
 * agents reach the client module that builds afp's own HTTP transport, though inside k6 every
 * request goes through k6/http (the script's Transport); esbuild must still resolve the import,
 * and afp's modules being side-effect free, nothing of this shim is kept unless it is called.
 */
import type { ExchangeOptions, WireAnswer, WireRequest } from '../../../client/http-connections.ts';

export const SHARED_CONNECTIONS = {
  exchange(request: WireRequest, _options: ExchangeOptions): Promise<WireAnswer> {
    return Promise.reject(
      new Error(
        `afp's node:http transport is not in the k6 bundle (${request.method} ${request.url.href}): k6 sends through k6/http`,
      ),
    );
  },
};
