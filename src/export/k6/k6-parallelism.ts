/**
 * The most runner pods `afp export k6 --k8s N` asks the k6-operator for (k6-operator.ts writes the
 * TestRun). Why a file of its own: the flag is checked before the export loads, and the operator's
 * files bring the YAML writer.
 */
export const PARALLELISM_MAX = 1_000;
