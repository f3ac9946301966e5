/**
 * What the k6 export knows of one agent archetype: the JavaScript function that does on the wire
 * what the afp agent does (one k6 iteration = one agent's life, compressed: its moves that do not
 * wait on hours of time), the endpoints it may call (each gets a count threshold and a tag), and
 * its params as the script reads them (plain JSON: bigint amounts become micro-USDC numbers).
 *
 * `standing` archetypes are registered once, in k6's setup(), `count` agents per population: they
 * must exist before other agents pick them (escrow sellers receive escrows); an iteration of such a
 * population is one move of one of them. The others register a fresh agent every iteration.
 */
import type { EndpointId } from '../../client/client.ts';
import { assert } from '../../core/assert.ts';
import type { Population } from '../../sim/scenario.ts';

export type ScriptParams = Readonly<Record<string, number | string | boolean>>;

export interface K6Flow {
  readonly agent: string;
  /** The emitted function's name; it is called as `name(population, agent, data)`. */
  readonly functionName: string;
  readonly standing: boolean;
  /** Endpoints the flow may call for an agent of this style with these (script) params. */
  endpoints(style: 'A' | 'B', params: ScriptParams): readonly EndpointId[];
  /** The params the function reads, as JSON values. */
  params(params: Population['params']): ScriptParams;
  /** Why this population cannot be exported faithfully (a params choice k6 cannot honour), or null. */
  refusal?(population: Population, populations: readonly Population[]): string | null;
  /** The JavaScript function (constant text). */
  readonly source: string;
}

/** A param the archetype's schema guarantees, read with its type checked (a mismatch is a bug). */
export function numberParam(params: Population['params'], name: string): number {
  const value = params[name];
  if (typeof value === 'bigint') return Number(value);
  assert(typeof value === 'number', `param '${name}' is a number after the archetype's schema`);
  return value;
}

export function stringParam(params: Population['params'], name: string): string {
  const value = params[name];
  assert(typeof value === 'string', `param '${name}' is a string after the archetype's schema`);
  return value;
}

/** `[endpoint]` when the flow may call it with these params, else nothing. */
export function only(when: boolean, endpoint: EndpointId): EndpointId[] {
  return when ? [endpoint] : [];
}
