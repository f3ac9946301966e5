/**
 * The actions of a property population: drawn by fast-check from the command table `afp check`
 * uses (src/check/command-table.ts), restricted to the population's services.
 *
 * Representation: an action is one 31-bit integer, the fast-check seed that draws one command from
 * the table (`fc.sample(commandSpecOf(services), { seed, numRuns: 1 })`). An agent's list of such
 * integers is itself drawn by fast-check from a seed out of the agent's own rng stream, so the same
 * scenario and seed draw the same lists; and a list can be written back into a scenario
 * (`params.actions`) and replayed exactly, which is how `afp shrink` writes a shrunk list
 * (src/shrink/shrink-actions.ts shrinks it with fast-check's own array shrinker).
 * Why integers and not the commands' inputs: the table's rows map their inputs to commands inside
 * the arbitraries; an integer names a row and its input together, in the file, without a second
 * copy of the table.
 * Here in the harness (beside agent-kit.ts) and not in agents/property/: `afp shrink` reads and
 * writes these lists, and the harness imports nothing of agents/ for it.
 * Wallet rows fund chains through the wallet's mint door: the simulator lends it to property agents
 * (PlatformFacts.walletMint, recorded for replay). They are drawn only when `wallet` is listed — the
 * default stays the five services whose rows need no door, so the lists drawn for a default
 * population are those drawn before wallet rows existed — and they run only in the simulator (no
 * door where agents drive a deployment: the rows are skipped there).
 */
import fc from 'fast-check';
import { z } from 'zod';
import { commandSpecOf } from './command-table.ts';
import type { CommandSpec } from './model-command.ts';
import type { Rng } from '../core/rng.ts';
import type { ServiceName } from '../platform/platform.ts';

/** Actions per agent, drawn or written. */
export const PROPERTY_ACTIONS_MAX = 1_000;
/** fast-check seeds are 31-bit: an action is one. */
export const ACTION_SEED_MAX = 0x7fff_ffff;
/** The services a property agent's actions may come from. */
export const PROPERTY_SERVICES = [
  'faucet',
  'escrow',
  'casino',
  'domains',
  'trading',
  'wallet',
] as const satisfies readonly ServiceName[];
/** The services drawn from when a population lists none: every one but the wallet, whose rows need the mint door. */
export const DEFAULT_PROPERTY_SERVICES: readonly PropertyService[] = PROPERTY_SERVICES.filter(
  (service) => service !== 'wallet',
);
export type PropertyService = (typeof PROPERTY_SERVICES)[number];

function isPropertyService(name: string): name is PropertyService {
  return (PROPERTY_SERVICES as readonly string[]).includes(name);
}

/** What is wrong with the service listed at `index`, or null. All checked in one pass: every error is reported. */
function serviceProblem(services: readonly string[], index: number): string | null {
  const service = services[index] as string;
  if (!isPropertyService(service)) return `'${service}' is not a service of ${PROPERTY_SERVICES.join(', ')}`;
  if (services.indexOf(service) !== index) return `${service} is listed twice`;
  return null;
}

/** The services listed, as the command table names them (the schema let only these through). */
export function servicesOf(params: PropertyParams): PropertyService[] {
  return params.services.filter(isPropertyService);
}

const actionSeed = z
  .int({ error: 'an action is a whole number (the fast-check seed of one command)' })
  .min(0, 'an action is at least 0')
  .max(ACTION_SEED_MAX, `an action is at most ${ACTION_SEED_MAX}`);

export const propertyParams = z
  .strictObject({
    services: z
      .array(
        z
          .string()
          .max(16)
          .meta({ enum: [...PROPERTY_SERVICES] }),
      )
      .min(1)
      .max(PROPERTY_SERVICES.length)
      .default([...DEFAULT_PROPERTY_SERVICES])
      .superRefine((services, context) => {
        services.forEach((service, index) => {
          const issue = serviceProblem(services, index);
          if (issue !== null) context.addIssue({ code: 'custom', path: [index], message: issue });
        });
      })
      .describe('the services whose command-table rows the actions are drawn from (time and bad-input rows always)'),
    max_actions: z
      .int({ error: 'expected a whole number (actions per agent)' })
      .min(1, 'must be at least 1 (actions per agent)')
      .max(PROPERTY_ACTIONS_MAX, `must be at most ${PROPERTY_ACTIONS_MAX} (actions per agent)`)
      .default(100)
      .describe('at most this many actions per agent (fast-check draws a length from half of it to all of it)'),
    actions: z
      .array(actionSeed)
      .max(PROPERTY_ACTIONS_MAX)
      .optional()
      .describe(
        'an explicit action list replayed instead of a drawn one, as afp shrink writes it (default none: drawn)',
      ),
  })
  .superRefine((params, context) => {
    if (params.actions !== undefined && params.actions.length > params.max_actions)
      context.addIssue({
        code: 'custom',
        path: ['actions'],
        message: `${params.actions.length} actions are more than max_actions (${params.max_actions})`,
      });
  });

export type PropertyParams = z.output<typeof propertyParams>;

/**
 * The arbitrary of an agent's drawn list: half of max_actions to all of them (fast-check favours
 * short arrays, and a short list leaves an agent idle for most of a run). Each action shrinks only
 * by removal: another integer is another command, not a smaller one.
 */
export function actionListArbitrary(maxActions: number): fc.Arbitrary<number[]> {
  return fc.array(fc.noShrink(fc.integer({ min: 0, max: ACTION_SEED_MAX })), {
    minLength: Math.ceil(maxActions / 2),
    maxLength: maxActions,
    size: 'max',
  });
}

/** The arbitrary whose shrinker shrinks a list already drawn or written (any length down to none). */
export function shrinkableListArbitrary(length: number): fc.Arbitrary<number[]> {
  return fc.array(fc.noShrink(fc.integer({ min: 0, max: ACTION_SEED_MAX })), { maxLength: length, size: 'max' });
}

/** The fast-check seed of an agent's action list, from its own stream. */
export function actionListSeed(agentRng: Rng): number {
  return agentRng.fork('actions').int(ACTION_SEED_MAX + 1);
}

/** The agent's actions: the written list, or the one fast-check draws from the agent's seed. */
export function agentActions(params: PropertyParams, agentRng: Rng): readonly number[] {
  if (params.actions !== undefined) return params.actions;
  const [drawn] = fc.sample(actionListArbitrary(params.max_actions), { seed: actionListSeed(agentRng), numRuns: 1 });
  return drawn ?? [];
}

/**
 * The command arbitraries of the service lists seen, built once each (a property agent draws its
 * whole list at setup: rebuilding the table's arbitrary per action was 40% of that in a k6 VU).
 * At most COMMAND_ARBITRARIES_MAX lists are kept; others are built per action as before.
 * Arbitraries are stateless: the same seed draws the same command either way.
 */
const COMMAND_ARBITRARIES = new Map<string, fc.Arbitrary<CommandSpec>>();
const COMMAND_ARBITRARIES_MAX = 64;

/** The command an action names, over the rows of `services`. */
export function actionCommand(services: readonly ServiceName[], action: number): CommandSpec {
  const key = services.join(',');
  const arbitrary = COMMAND_ARBITRARIES.get(key) ?? commandSpecOf(services);
  if (COMMAND_ARBITRARIES.size < COMMAND_ARBITRARIES_MAX) COMMAND_ARBITRARIES.set(key, arbitrary);
  const [spec] = fc.sample(arbitrary, { seed: action, numRuns: 1 });
  if (spec === undefined) throw new Error(`fast-check drew no command for action ${action}`);
  return spec;
}
