/**
 * The environment a target file's funding `command` runs in: the user's own, without afp's Node.
 * Why: afp pins Node 24 with the `node` package, and npm (`npx afp`, `npm run`) puts
 * node_modules/.bin — where that package links its `node` — first on PATH; a user's funding script
 * that loads a native module built for their own Node then fails under afp's, and so does the run.
 * So the child's PATH drops every `node_modules/.bin` directory npm prepended and the bin
 * directories of the `node` package (`…/node_modules/node/bin`, and the directory of the running
 * Node when it lives inside a node_modules tree); everything else, order included, is kept.
 * Non-goals: other npm_* variables (harmless to a shell command).
 */
import { delimiter, dirname, sep } from 'node:path';

/** Whether `directory` is one of afp's own Node directories, which the user's command must not see. */
function isAfpNodeDirectory(directory: string, afpNodeDirectory: string | null): boolean {
  const normalized = directory.replace(/[\\/]+$/, '');
  if (normalized === '') return false;
  if (afpNodeDirectory !== null && normalized === afpNodeDirectory) return true;
  const parts = normalized.split(/[\\/]/);
  const last = parts.at(-1);
  const parent = parts.at(-2);
  if (last === '.bin' && parent === 'node_modules') return true;
  return last === 'bin' && parent === 'node' && parts.at(-3) === 'node_modules';
}

/** PATH without afp's Node: `execPath` is the running Node (process.execPath). */
export function userPath(path: string, execPath: string): string {
  const execDirectory = dirname(execPath);
  const afpNodeDirectory = execDirectory.includes(`${sep}node_modules${sep}`)
    ? execDirectory.replace(/[\\/]+$/, '')
    : null;
  return path
    .split(delimiter)
    .filter((directory) => !isAfpNodeDirectory(directory, afpNodeDirectory))
    .join(delimiter);
}

/** The funding command's environment: the user's, PATH without afp's Node, plus the account's variables. */
export function fundingEnvironment(
  env: NodeJS.ProcessEnv,
  execPath: string,
  account: Readonly<Record<string, string>>,
): NodeJS.ProcessEnv {
  const { PATH: path, ...rest } = env;
  return { ...rest, ...(path === undefined ? {} : { PATH: userPath(path, execPath) }), ...account };
}
