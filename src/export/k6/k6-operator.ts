/**
 * `afp export k6 --k8s N`: what the k6-operator needs to run the exported script on a cluster —
 * the script as a ConfigMap and a TestRun (k6.io/v1alpha1) of parallelism N that runs it. The
 * operator starts N runner pods and hands each its own `--execution-segment`, so each runs its
 * share of the agents (the script partitions them by segment) under one run tag: AFP_RUN_ID is
 * set in the TestRun, the same for every pod (change it for each run against a target that keeps
 * its agents). AFP_TARGET and one AFP_TARGET_<SERVICE> per mount the script needs are the URLs the
 * export learnt from its --target (k8s-urls.ts): a pod reads no admin door to find them.
 *
 * Bounds: a ConfigMap holds at most 1 MiB (Kubernetes); a bigger script is refused with the reason.
 * Names: Kubernetes DNS labels (lower-case alphanumerics and '-', at most 63). Pure, byte-stable.
 */
import { stringify } from 'yaml';
import type { ServiceName } from '../../platform/platform.ts';
import type { K8sUrls } from './k8s-urls.ts';
import { mountEnvName } from './k6-mounts.ts';

export { PARALLELISM_MAX } from './k6-parallelism.ts';
export const CONFIG_MAP_BYTES_MAX = 1_048_576;
const NAME_LENGTH_MAX = 63;

export interface OperatorInput {
  readonly scenarioName: string;
  readonly script: string;
  /** The script's file name inside the ConfigMap. */
  readonly fileName: string;
  readonly parallelism: number;
  /** AFP_TARGET and AFP_TARGET_<SERVICE> of every runner; null for a URL run, whose script holds its URL. */
  readonly urls: K8sUrls | null;
  readonly runId: string;
}

export type OperatorResult =
  | { readonly ok: true; readonly configMap: string; readonly testRun: string; readonly name: string }
  | { readonly ok: false; readonly error: string };

/** A DNS label from the scenario's name: `afp-<name>`. */
export function resourceName(scenarioName: string): string {
  const cleaned = `afp-${scenarioName.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`
    .slice(0, NAME_LENGTH_MAX)
    .replace(/-+$/, '');
  return cleaned;
}

export function operatorResources(input: OperatorInput): OperatorResult {
  const bytes = new TextEncoder().encode(input.script).length + input.fileName.length;
  if (bytes > CONFIG_MAP_BYTES_MAX)
    return {
      ok: false,
      error: `the script is ${bytes} bytes; a ConfigMap holds at most ${CONFIG_MAP_BYTES_MAX}: serve it to the k6-operator from a volume instead`,
    };
  const name = resourceName(input.scenarioName);
  const labels = { 'app.kubernetes.io/name': 'afp', 'afp/scenario': name };
  const configMap = stringify(
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, labels },
      data: { [input.fileName]: input.script },
      // One double-quoted line: a block scalar cannot carry every script byte for byte (trailing spaces).
    },
    { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 },
  );
  const testRun = stringify({
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: { name, labels },
    spec: {
      parallelism: input.parallelism,
      script: { configMap: { name, file: input.fileName } },
      arguments: '--no-usage-report',
      runner: {
        env: [...targetEnv(input.urls), { name: 'AFP_RUN_ID', value: input.runId }],
      },
    },
  });
  return { ok: true, configMap, testRun, name };
}

/** AFP_TARGET, then AFP_TARGET_<SERVICE> in the order the URLs were given (k6-mounts.ts's). */
function targetEnv(urls: K8sUrls | null): { name: string; value: string }[] {
  if (urls === null) return [];
  const services = Object.entries(urls.services) as [ServiceName, string | undefined][];
  return [
    { name: 'AFP_TARGET', value: urls.api },
    ...services.flatMap(([mount, url]) => (url === undefined ? [] : [{ name: mountEnvName(mount), value: url }])),
  ];
}
