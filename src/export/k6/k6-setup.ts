/**
 * setup() of the exported k6 script: what every VU needs to know once, found before the load
 * starts — the target's URLs, its clock's offset, the run tag of the agents' ids and whether the
 * target is an afp serve (whose admin doors set tiers and starting deposits). Sends no agent
 * traffic: agents register in their own first iteration, as in afp load.
 *
 * URLs: AFP_TARGET (or the export's --target) is the style-B api URL; each style-A service from
 * AFP_TARGET_<SERVICE>, else what an afp serve announces at GET /_afp/mounts. Run tag: AFP_RUN_ID,
 * else random; a segmented run (--execution-segment) must set AFP_RUN_ID, as every process runs
 * its own setup() and they must name the same agents. Admin calls carry AFP_ADMIN_TOKEN when set
 * (a serve shared beyond loopback answers them only with it: src/server/admin-access.ts). A bad or missing setting aborts the test
 * with the reason (k6's exec.test.abort), before any load.
 * A serve whose mounts announce the deployed dialect is refused as `afp load` refuses it (the same
 * reading of /_afp/mounts and the same message: src/live/afp-mounts.ts): the agents speak the
 * documents' styles only, and every registration would fail.
 */
import type { MountUrls } from '../../client/transport.ts';
import type { K6SetupData } from './k6-agent-run.ts';
import { missingMounts, type K6Http } from './k6-transport.ts';
import { deployedDialectRefusal, mountField, servedDialects } from '../../live/afp-mounts.ts';
import { ADMIN_TOKEN_ENV, adminHeaders } from '../../http/admin-token.ts';

export interface K6SetupApi {
  readonly http: K6Http;
  readonly expected: unknown;
  readonly defaultTarget: string | null;
  readonly timeout: string;
  env(name: string): string | undefined;
  randomTag(): string;
  nowMs(): number;
  segment(): string | null;
  abort(message: string): never;
  /** The style-A mounts the script's agents send to (k6-mounts.ts): each must have a URL before any iteration. */
  readonly needs: readonly string[];
}

const STYLE_A_MOUNTS = ['faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino'] as const;
const RUN_TAG = /^[A-Za-z0-9_.]{1,16}$/;

export async function k6Setup(api: K6SetupApi): Promise<K6SetupData> {
  const target = (api.env('AFP_TARGET') ?? api.defaultTarget ?? '').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(target))
    api.abort('no target: export with --target URL or run k6 with -e AFP_TARGET=<the style-B api URL>');
  const given = api.env('AFP_RUN_ID');
  if (given === undefined && api.segment() !== null)
    api.abort('a segmented run (--execution-segment) needs -e AFP_RUN_ID=<tag>, the same in every process');
  const runTag = given ?? api.randomTag();
  if (!RUN_TAG.test(runTag)) api.abort('AFP_RUN_ID must be 1 to 16 characters of A-Z a-z 0-9 _ .');
  const adminToken = api.env(ADMIN_TOKEN_ENV) ?? null;
  const mounts = await get(api, `${target}/_afp/mounts`, adminToken);
  if (mounts.status === 200) {
    const deployed = Object.entries(servedDialects(mounts.body))
      .filter(([, dialect]) => dialect === 'deployed')
      .map(([service]) => service);
    if (deployed.length > 0) api.abort(deployedDialectRefusal(target, deployed));
  }
  const urls: MountUrls = { api: target };
  for (const mount of STYLE_A_MOUNTS) {
    const announced = mounts.status === 200 ? mountField(mounts.body, mount) : undefined;
    const value = api.env(`AFP_TARGET_${mount.toUpperCase()}`) ?? announced;
    if (typeof value === 'string' && /^https?:\/\//.test(value)) urls[mount] = value.replace(/\/+$/, '');
  }
  const missing = api.needs.filter((mount) => urls[mount as keyof MountUrls] === undefined);
  const heard = `GET ${target}/_afp/mounts ${mounts.status === 0 ? 'had no answer' : `answered ${mounts.status}`}`;
  if (missing.length > 0) api.abort(missingMounts(missing, heard));
  const askedMs = api.nowMs();
  const clock = mounts.status === 200 ? await get(api, `${target}/_afp/clock`, adminToken) : null;
  const nowMs = clock?.status === 200 ? recordOf(clock.body)['now_ms'] : undefined;
  const offsetMs = typeof nowMs === 'number' ? nowMs - (askedMs + api.nowMs()) / 2 : 0;
  return { urls, offsetMs, runTag, admin: mounts.status === 200, adminToken };
}

async function get(
  api: K6SetupApi,
  url: string,
  adminToken: string | null,
): Promise<{ status: number; body: unknown }> {
  const answer = await api.http.asyncRequest('GET', url, null, {
    headers: adminHeaders({ accept: 'application/json' }, adminToken),
    tags: { endpoint: 'afp.setup', name: 'afp.setup' },
    timeout: api.timeout,
    responseCallback: api.expected,
  });
  let body: unknown;
  try {
    body = typeof answer.body === 'string' ? (JSON.parse(answer.body) as unknown) : null;
  } catch {
    body = null;
  }
  return { status: answer.status, body };
}

function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
