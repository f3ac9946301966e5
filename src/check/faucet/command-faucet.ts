/**
 * Faucet commands of `afp check`: register (A, B; a new agent in the next free slot, or an agent
 * again; with or without a referrer named by id, address or referral code), claim A, claim B (with a key, keyless, naming another agent), B status, and
 * GET /api/v1/agents/:id for the caller itself, another agent or an unknown one. Each sends its
 * request through the AfpClient and compares the answer with the model's prediction.
 */
import {
  describeRef,
  nextFreeSlot,
  referenceText,
  type AgentRef,
  type CheckModel,
  type CheckStyle,
} from '../check-model.ts';
import { SCOPES } from '../model-limits.ts';
import {
  predictAgentView,
  predictClaimA,
  predictClaimB,
  predictRegister,
  predictStatusB,
  type ClaimBInput,
} from './model-faucet.ts';
import { expectAnswer, keyed, keyless, keylessPrediction, type CommandSpec } from '../model-command.ts';

/** A registration: of a new agent (the next free slot), or again of a registered one (409). */
export interface RegisterCommandInput {
  readonly style: CheckStyle;
  /** null: a new agent; a slot: that (registered) agent's id again. */
  readonly again: number | null;
  readonly referrer: AgentRef | null;
}

export function registerCommand(input: RegisterCommandInput): CommandSpec {
  const { referrer, again } = input;
  const label = `register${input.style}(${again === null ? 'new' : `again a${again}`}${referrer === null ? '' : `, referrer ${describeRef(referrer)}`})`;
  const slotOf = (model: Readonly<CheckModel>): number | undefined => (again === null ? nextFreeSlot(model) : again);
  return {
    label,
    applicable: (model) => {
      const slot = slotOf(model);
      return (
        slot !== undefined &&
        (again === null || model.agents[again] !== undefined) &&
        (input.style === 'B' || model.capabilities.styleA)
      );
    },
    charges: () => [],
    parties: (model) => [slotOf(model) ?? 0],
    execute: async (model, system) => {
      const slot = slotOf(model);
      if (slot === undefined) throw new Error(`${label}: precondition broken, no free slot`);
      const prediction = predictRegister(model, { slot, style: input.style, referrer });
      const body = {
        agent_id: model.names.agentId(slot),
        ...(referrer === null ? {} : { referrer: referenceText(model, referrer) }),
      };
      const client = keyless(model, system);
      const answer = input.style === 'A' ? await client.faucetA.register(body) : await client.faucetB.register(body);
      expectAnswer(label, model, answer, keylessPrediction(model, system, answer, prediction));
    },
  };
}

export function claimACommand(slot: number): CommandSpec {
  const label = `claimA(a${slot})`;
  return {
    label,
    applicable: (model) => model.capabilities.styleA && model.agents[slot] !== undefined,
    charges: () => [{ slot, scopes: SCOPES.styleA }],
    parties: () => [slot],
    execute: async (model, system) => {
      const prediction = predictClaimA(model, slot);
      expectAnswer(label, model, await keyed(model, system, slot).faucetA.claim(), prediction);
    },
  };
}

export function claimBCommand(input: ClaimBInput): CommandSpec {
  const { slot, mode } = input;
  const label = `claimB(a${slot}, ${mode === 'key-other-id' ? `key, agent_id of a${input.otherSlot}` : mode})`;
  const withKey = mode === 'key' || mode === 'key-own-id' || mode === 'key-other-id';
  return {
    label,
    applicable: (model) => !withKey || model.agents[slot] !== undefined,
    charges: () => (withKey ? [{ slot, scopes: SCOPES.faucetB }] : []),
    parties: () => [slot],
    execute: async (model, system) => {
      const prediction = predictClaimB(model, input);
      const names = model.names;
      let answer;
      switch (mode) {
        case 'key':
          answer = await keyed(model, system, slot).faucetB.claim();
          break;
        case 'key-own-id':
          answer = await keyed(model, system, slot).faucetB.claim({ agent_id: names.agentId(slot) });
          break;
        case 'key-other-id':
          answer = await keyed(model, system, slot).faucetB.claim({ agent_id: names.agentId(input.otherSlot) });
          break;
        case 'keyless':
          answer = await keyless(model, system).faucetB.claim({ agent_id: names.agentId(slot) });
          break;
        case 'keyless-no-id':
          answer = await keyless(model, system).faucetB.claim();
          break;
      }
      expectAnswer(label, model, answer, withKey ? prediction : keylessPrediction(model, system, answer, prediction));
    },
  };
}

export function statusBCommand(slot: number): CommandSpec {
  const label = `statusB(a${slot})`;
  return {
    label,
    applicable: (model) => model.agents[slot] !== undefined,
    charges: () => [{ slot, scopes: SCOPES.faucetB }],
    parties: () => [slot],
    execute: async (model, system) => {
      const prediction = predictStatusB(model, slot);
      expectAnswer(label, model, await keyed(model, system, slot).faucetB.status(), prediction);
    },
  };
}

export function agentViewCommand(callerSlot: number, target: AgentRef): CommandSpec {
  const label = `viewAgent(a${callerSlot} views ${describeRef(target)})`;
  return {
    label,
    applicable: (model) => model.capabilities.styleA && model.agents[callerSlot] !== undefined,
    charges: () => [{ slot: callerSlot, scopes: SCOPES.styleA }],
    parties: () => [callerSlot],
    execute: async (model, system) => {
      const prediction = predictAgentView(model, callerSlot, target);
      expectAnswer(
        label,
        model,
        await keyed(model, system, callerSlot).faucetA.agent(referenceText(model, target)),
        prediction,
      );
    },
  };
}
