/**
 * The URLs `afp export k6 --k8s` writes into the TestRun's runner env (AFP_TARGET and one
 * AFP_TARGET_<SERVICE> per mount the script needs: k6-mounts.ts), learnt once at export so a pod
 * never depends on reading the stand-in's admin doors, which a cluster rarely reaches.
 *
 * From `--target`:
 *   - an afp serve URL: one GET of its `/_afp/mounts` (which honours the serve's --public-url):
 *     the api mount it announces (else the URL given) and its service mounts;
 *   - a target file: its services as `afp load` reads them (resolve-target.ts, loadMounts).
 * Anything that leaves a needed mount without a URL is refused with the way to give one, rather
 * than a TestRun whose pods fail: a serve whose doors refuse the exporter, a URL that is no afp
 * serve, a file that names no style-A URL for a service. A serve or file in the deployed dialect is
 * refused with afp load's words (the agents speak the documents' styles only).
 * Bounded: at most one request of RESOLVE_TIMEOUT_MS (a target file on an afp serve: the same one).
 */
import { targetUrlError } from '../../client/target.ts';
import type { MountUrls } from '../../client/transport.ts';
import type { ServiceName } from '../../platform/platform.ts';
import { RESOLVE_TIMEOUT_MS, resolveTarget } from '../../live/options.ts';
import { announcedApi, announcedMounts, deployedDialectRefusal, readMounts, servedDialects } from '../../live.ts';
import { loadMounts } from '../../load/load-run.ts';

export type K8sUrls = { readonly api: string; readonly services: Readonly<Partial<Record<ServiceName, string>>> };

export type K8sUrlsResult = ({ readonly ok: true } & K8sUrls) | { readonly ok: false; readonly message: string };

type Learnt = { readonly ok: true; readonly urls: MountUrls } | { readonly ok: false; readonly message: string };

const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\//i;

const FILE_FIX =
  'pass a target file that names every service (--target FILE; see targets/, or let afp write one: afp target probe URL --out target.yaml)';

/** The api URL and the `needed` mounts' URLs from `spec` (an afp serve URL or a target file), or why not. */
export async function k8sUrls(spec: string, needed: readonly ServiceName[]): Promise<K8sUrlsResult> {
  const learnt = URL_PATTERN.test(spec) ? await serveUrls(spec) : await fileUrls(spec);
  if (!learnt.ok) return learnt;
  const { api } = learnt.urls;
  const missing = needed.filter((mount) => learnt.urls[mount] === undefined);
  if (api === undefined || missing.length > 0) {
    const lacking = [...(api === undefined ? ['the style-B api'] : []), ...missing].join(', ');
    return {
      ok: false,
      message: `${spec} gives no URL for ${lacking}, which the scenario's agents send to; a pod would abort on it: ${FILE_FIX}`,
    };
  }
  const services: Partial<Record<ServiceName, string>> = {};
  for (const mount of needed) services[mount] = learnt.urls[mount];
  return { ok: true, api, services };
}

async function serveUrls(url: string): Promise<Learnt> {
  const urlError = targetUrlError(url);
  if (urlError !== null) return { ok: false, message: urlError };
  const answer = await readMounts(url, { timeoutMs: RESOLVE_TIMEOUT_MS });
  switch (answer.kind) {
    case 'unreachable':
      return { ok: false, message: `${answer.message}; the export reads the service URLs there once: ${FILE_FIX}` };
    case 'other':
      return {
        ok: false,
        message: `GET ${answer.api}/_afp/mounts answered ${answer.status}, so the export cannot learn the service URLs the pods need: export from where the serve's admin doors answer (its host, or AFP_ADMIN_TOKEN set to its --admin-token), or ${FILE_FIX}`,
      };
    case 'mounts': {
      const deployed = Object.entries(servedDialects(answer.body))
        .filter(([, dialect]) => dialect === 'deployed')
        .map(([service]) => service);
      if (deployed.length > 0) return { ok: false, message: deployedDialectRefusal(answer.api, deployed) };
      return { ok: true, urls: { ...announcedMounts(answer.body), api: announcedApi(answer.body) ?? answer.api } };
    }
  }
}

async function fileUrls(file: string): Promise<Learnt> {
  const resolved = await resolveTarget(file, { timeoutMs: RESOLVE_TIMEOUT_MS });
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const mounts = loadMounts(resolved.value);
  return mounts.ok ? { ok: true, urls: mounts.urls } : { ok: false, message: mounts.message };
}
