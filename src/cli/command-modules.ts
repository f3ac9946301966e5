/**
 * The command table the entry dispatches: every definition of commands.ts with the module that
 * runs it, loaded lazily so `afp run` does not pay for the HTTP server's imports. A subcommand row
 * (`['audit', 'money']`) loads the module of its command (`audit.ts`), which is given the argv
 * after the command's name (the subcommand's name first). Why apart from commands.ts: the command
 * modules import their definitions, and this table imports the modules.
 */
import type { CommandDefinition } from './command-definition.ts';
import type { Ending } from '../core/command-failure.ts';
import { DEFINITIONS } from './commands.ts';

export interface CommandModule {
  main(argv: string[]): Promise<Ending>;
}

export interface CommandRow {
  readonly definition: CommandDefinition;
  readonly load: () => Promise<CommandModule>;
}

/** Each command's module, by the command's name (the first word of its path). */
const MODULES: Readonly<Record<string, () => Promise<CommandModule>>> = {
  run: () => import('./run.ts'),
  serve: () => import('./serve.ts'),
  load: () => import('./load.ts'),
  sweep: () => import('./sweep.ts'),
  shrink: () => import('./shrink.ts'),
  replay: () => import('./replay.ts'),
  check: () => import('./check.ts'),
  audit: () => import('./audit.ts'),
  export: () => import('./export.ts'),
  scenario: () => import('./scenario.ts'),
  agents: () => import('./agents.ts'),
  target: () => import('./target.ts'),
};

function moduleOf(definition: CommandDefinition): () => Promise<CommandModule> {
  const load = MODULES[definition.path[0] ?? ''];
  if (load === undefined) throw new Error(`no module for afp ${definition.path.join(' ')}`);
  return load;
}

export const COMMANDS: readonly CommandRow[] = DEFINITIONS.map((definition) => ({
  definition,
  load: moduleOf(definition),
}));
