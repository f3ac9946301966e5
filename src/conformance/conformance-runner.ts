/**
 * Runs conformance cases against a target and returns plain results (no vitest, no printing):
 * the test files turn each result into a test, a future `afp conform` into lines of a report.
 *
 * A rejection case: register a caller and a counterparty (style B, fresh ids, each from its own
 * X-Forwarded-For IP), optionally lock an escrow between them, read both balances, send the bad
 * request, check the answer's shape, read both balances again. A script case runs its steps.
 * Invariants: a case never throws out of the runner (transport trouble is a failed case with the
 * message); a case the target cannot run, or whose set-up cannot be done (SetupError), is
 * 'skipped' with the reason, never silently passed and never failed.
 */
import { CASINO_ENDPOINTS, type CasinoEndpointId } from '../client/casino-client.ts';
import { TRADING_ENDPOINTS, type TradingEndpointId } from '../client/trading-client.ts';
import { ENDPOINTS, type AfpClient, type EndpointId } from '../client/client.ts';
import { DOMAINS_ENDPOINTS, type DomainsEndpointId } from '../client/domains-client.ts';
import type { Mount, TransportResponse } from '../client/transport.ts';
import { runNames } from '../check.ts';
import {
  SetupError,
  type CaseAgent,
  type CaseResult,
  type CaseWorld,
  type ConformanceCase,
  type ConformanceTarget,
  type RejectionCase,
  type ScriptCase,
  type ScriptSession,
} from './conformance-case.ts';

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const SETUP_ESCROW_AMOUNT = '1.00';
const PLACEHOLDER: CaseAgent = { agentId: 'placeholder', apiKey: 'placeholder', ip: '127.0.0.1' };

/** The mounts a case sends to. */
function mountsOf(kase: ConformanceCase): Mount[] {
  if (kase.kind === 'script')
    return kase.endpoints.map(
      (endpoint) =>
        (endpoint in ENDPOINTS
          ? ENDPOINTS[endpoint as EndpointId]
          : endpoint in DOMAINS_ENDPOINTS
            ? DOMAINS_ENDPOINTS[endpoint as DomainsEndpointId]
            : endpoint in TRADING_ENDPOINTS
              ? TRADING_ENDPOINTS[endpoint as TradingEndpointId]
              : CASINO_ENDPOINTS[endpoint as CasinoEndpointId]
        ).mount,
    );
  return [kase.request({ caller: PLACEHOLDER, counterparty: PLACEHOLDER, escrowId: 'esc_placeholder' }).mount];
}

/** Why `target` cannot run `kase`, or null when it can. */
export function skipReason(target: ConformanceTarget, kase: ConformanceCase): string | null {
  const missing = mountsOf(kase).find((mount) => !target.mounts.includes(mount));
  if (missing !== undefined)
    return (
      target.mountNotes?.[missing] ??
      `the target serves no '${missing}' mount (GET <api>/_afp/mounts did not announce it)`
    );
  if (target.registrationNote !== undefined && target.registrationNote !== null) return target.registrationNote;
  if (kase.kind === 'script' && kase.needsClock && target.clock === null)
    return target.clockNote ?? "the target's clock cannot be moved";
  return null;
}

/** Runs one case; `index` makes its agent ids and IPs unique within `session`. */
export async function runCase(
  target: ConformanceTarget,
  kase: ConformanceCase,
  index: number,
  session: string,
): Promise<CaseResult> {
  const reason = skipReason(target, kase);
  if (reason !== null) return { name: kase.name, outcome: 'skipped', reason };
  const problems: string[] = [];
  try {
    if (kase.kind === 'rejection') await runRejection(target.client(), kase, index, session, problems);
    else await runScript(target, kase, index, session, problems);
  } catch (error) {
    if (error instanceof SetupError)
      return { name: kase.name, outcome: 'skipped', reason: `set-up could not be done: ${error.message}` };
    problems.push(`stopped: ${error instanceof Error ? error.message : String(error)}`);
  }
  return problems.length === 0
    ? { name: kase.name, outcome: 'passed' }
    : { name: kase.name, outcome: 'failed', problems };
}

export async function runConformance(
  target: ConformanceTarget,
  cases: readonly ConformanceCase[],
  session: string,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const [index, kase] of cases.entries()) results.push(await runCase(target, kase, index, session));
  return results;
}

/** Registers a fresh style-B agent from its own IP. */
async function registerAgent(client: AfpClient, agentId: string, ip: string): Promise<CaseAgent> {
  const answer = await client.withIp(ip).faucetB.register({ agent_id: agentId });
  if (!answer.ok)
    throw new SetupError(`registering ${agentId} answered ${answer.status} ${answer.body.code}: ${answer.body.error}`);
  return { agentId, apiKey: answer.body.api_key, ip };
}

/** An agent's balance as style B renders it (GET /status with its key). */
async function balanceOf(client: AfpClient, agent: CaseAgent): Promise<string> {
  const answer = await client.withIp(agent.ip).withKey(agent.apiKey).faucetB.status();
  if (!answer.ok) throw new Error(`reading ${agent.agentId}'s balance answered ${answer.status} ${answer.body.code}`);
  return answer.body.balance;
}

async function setupWorld(client: AfpClient, kase: RejectionCase, index: number, session: string): Promise<CaseWorld> {
  const names = runNames(session, index + 1);
  const caller = await registerAgent(client, names.agentId(1), names.freshIp());
  const counterparty = await registerAgent(client, names.agentId(2), names.freshIp());
  if (kase.setup === 'pair') return { caller, counterparty, escrowId: null };
  const created = await client
    .withIp(caller.ip)
    .withKey(caller.apiKey)
    .escrowB.create({ amount: SETUP_ESCROW_AMOUNT, receiver: counterparty.agentId });
  if (!created.ok)
    throw new SetupError(`creating an escrow answered ${created.status} ${created.body.code}: ${created.body.error}`);
  return { caller, counterparty, escrowId: created.body.escrow_id };
}

async function runRejection(
  client: AfpClient,
  kase: RejectionCase,
  index: number,
  session: string,
  problems: string[],
): Promise<void> {
  const world = await setupWorld(client, kase, index, session);
  const before = [await balanceOf(client, world.caller), await balanceOf(client, world.counterparty)];
  const sender = client.withIp(world.caller.ip);
  const answer = await (kase.auth === 'caller' ? sender.withKey(world.caller.apiKey) : sender).raw(kase.request(world));
  problems.push(...rejectionProblems(answer, kase));
  const after = [await balanceOf(client, world.caller), await balanceOf(client, world.counterparty)];
  if (before[0] !== after[0]) problems.push(`the caller's balance changed: ${before[0]} → ${after[0]}`);
  if (before[1] !== after[1]) problems.push(`the counterparty's balance changed: ${before[1]} → ${after[1]}`);
}

/** What is wrong with a rejection's answer: status, `{error, code}`, `_info`, rate-limit headers. */
export function rejectionProblems(answer: TransportResponse, kase: RejectionCase): string[] {
  const problems: string[] = [];
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Record<string, unknown>;
  const shown = JSON.stringify(answer.body).slice(0, 300);
  if (answer.status !== kase.expect.status)
    problems.push(`status ${answer.status}, expected ${kase.expect.status}: ${shown}`);
  if (typeof body['error'] !== 'string' || body['error'] === '') problems.push(`no string 'error' in ${shown}`);
  if (body['code'] !== kase.expect.code)
    problems.push(`code ${JSON.stringify(body['code'])}, expected ${kase.expect.code}`);
  if (typeof body['_info'] !== 'object' || body['_info'] === null) problems.push('no _info object in the error body');
  for (const name of RATE_LIMIT_HEADERS) if (answer.headers[name] === undefined) problems.push(`no ${name} header`);
  return problems;
}

async function runScript(
  target: ConformanceTarget,
  kase: ScriptCase,
  index: number,
  session: string,
  problems: string[],
): Promise<void> {
  const names = runNames(session, index + 1);
  const scriptSession: ScriptSession = {
    client: target.client(),
    clock: kase.needsClock ? target.clock : null,
    agentId: (slot) => names.agentId(slot),
    freshIp: () => names.freshIp(),
    expectEqual: (label, actual, expected) => {
      const actualText = JSON.stringify(actual);
      const expectedText = JSON.stringify(expected);
      if (actualText !== expectedText) problems.push(`${label}: ${actualText}, expected ${expectedText}`);
    },
    problem: (text) => problems.push(text),
  };
  await kase.run(scriptSession);
}
