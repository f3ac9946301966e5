/**
 * The account a live audit plays with.
 *
 * With `--key`: the caller's own (funded) account, used as it is — its agent id from GET
 * /auth/balance; nothing about it is changed besides the bets and rotations of the audit.
 * Without: only against an `afp serve` (it has the admin doors): register a fresh casino agent
 * (POST /api/v1/auth/register), lift its rate-limit tier to enterprise (POST /_afp/tier, so the
 * audit measures the casino, not the limiter), and fund it by a simulated chain deposit (POST
 * /_afp/casino/deposit on Solana, the fastest chain). The deposit is credited on the server's
 * clock: a manual clock is moved to the credit instant (POST /_afp/clock); a wall clock is waited
 * for (GET /auth/balance every POLL_MS, up to the deadline).
 * Failures are returned with the exit kind the CLI maps: 'invalid' (flags), 'trouble' (the target
 * refused a step), 'deadline'.
 */
import { AfpClient } from '../client/client.ts';
import type { TransportResponse } from '../client/transport.ts';
import { formatDecimal, parseNumber, type Micro } from '../core/money.ts';
import { callPatiently, type Deadline, type LiveClock, type LiveTarget } from './live-target.ts';

export const FUNDING_CHAIN = 'solana';
const POLL_MS = 1_000;

export type LiveFailure = { readonly ok: false; readonly kind: 'invalid' | 'trouble' | 'deadline'; readonly message: string };
export type LiveOutcome<T> = { readonly ok: true; readonly value: T } | LiveFailure;

export interface AuditAccount {
  readonly client: AfpClient;
  readonly agentId: string;
  /** How the account came to be, for the report. */
  readonly note: string;
}

const trouble = (message: string): LiveFailure => ({ ok: false, kind: 'trouble', message });
const fieldOf = (body: unknown, name: string): unknown => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined);

export interface AccountOptions {
  readonly target: LiveTarget;
  readonly key: string | undefined;
  readonly fundMicro: Micro;
  readonly clock: LiveClock;
  readonly deadline: Deadline;
}

export async function openAuditAccount(options: AccountOptions): Promise<LiveOutcome<AuditAccount>> {
  const { target, key } = options;
  if (key !== undefined) return existingAccount(new AfpClient(target.transport, { apiKey: key }), options);
  if (!target.afpServe) return { ok: false, kind: 'invalid', message: `${target.url} is not an afp serve (no /_afp/mounts): pass --key KEY of a funded account` };
  const registered = await callPatiently(() => new AfpClient(target.transport).casino.call('casino.A.register', { body: {} }), options.clock, options.deadline);
  if (registered === 'deadline') return { ok: false, kind: 'deadline', message: 'registration was rate limited past --max-seconds' };
  const apiKey = fieldOf(registered.body, 'api_key');
  const agentId = fieldOf(registered.body, 'agent_id');
  if (!registered.ok || typeof apiKey !== 'string' || typeof agentId !== 'string') return trouble(`registration refused: ${registered.status} ${JSON.stringify(registered.body)}`);
  const client = new AfpClient(target.transport, { apiKey });
  const tier = await admin(client, '/_afp/tier', { agent_id: agentId, tier: 'enterprise' });
  if (tier.status !== 200) return trouble(`POST /_afp/tier answered ${tier.status}: ${JSON.stringify(tier.body)}`);
  const funded = await fund(client, agentId, options);
  if (!funded.ok) return funded;
  return { ok: true, value: { client, agentId, note: `registered ${agentId} on ${target.url}, tier enterprise, funded ${formatDecimal(options.fundMicro)} USDC by a simulated ${FUNDING_CHAIN} deposit` } };
}

async function existingAccount(client: AfpClient, options: AccountOptions): Promise<LiveOutcome<AuditAccount>> {
  const balance = await callPatiently(() => client.casino.balance(), options.clock, options.deadline);
  if (balance === 'deadline') return { ok: false, kind: 'deadline', message: 'GET /auth/balance was rate limited past --max-seconds' };
  const agentId = fieldOf(balance.body, 'agent_id');
  if (!balance.ok || typeof agentId !== 'string') return trouble(`GET /api/v1/auth/balance with --key answered ${balance.status}: ${JSON.stringify(balance.body)}`);
  return { ok: true, value: { client, agentId, note: `the account of --key (${agentId}) on ${options.target.url}` } };
}

function admin(client: AfpClient, path: string, body?: unknown): Promise<TransportResponse> {
  return client.raw({ mount: 'api', method: body === undefined ? 'GET' : 'POST', path, ...(body === undefined ? {} : { body }) });
}

/** Deposit, then bring the server's clock to the credit instant (manual) or wait for it (wall). */
async function fund(client: AfpClient, agentId: string, options: AccountOptions): Promise<LiveOutcome<null>> {
  const deposit = await admin(client, '/_afp/casino/deposit', { agent_id: agentId, chain: FUNDING_CHAIN, amount: formatDecimal(options.fundMicro) });
  const confirmAtMs = fieldOf(deposit.body, 'confirm_at_ms');
  if (deposit.status !== 200 || typeof confirmAtMs !== 'number') return trouble(`POST /_afp/casino/deposit answered ${deposit.status}: ${JSON.stringify(deposit.body)}`);
  const clock = await admin(client, '/_afp/clock');
  const nowMs = fieldOf(clock.body, 'now_ms');
  if (fieldOf(clock.body, 'mode') === 'manual' && typeof nowMs === 'number' && nowMs < confirmAtMs) {
    const moved = await admin(client, '/_afp/clock', { to_ms: confirmAtMs });
    if (moved.status !== 200) return trouble(`POST /_afp/clock answered ${moved.status}: ${JSON.stringify(moved.body)}`);
  }
  // At least one look, however late: a manual clock has credited the deposit already.
  for (;;) {
    const balance = await callPatiently(() => client.casino.balance(), options.clock, options.deadline);
    if (balance === 'deadline') break;
    const amount = fieldOf(balance.body, 'balance');
    const balanceMicro = typeof amount === 'number' ? parseNumber(amount) : null;
    if (typeof balanceMicro === 'bigint' && balanceMicro >= options.fundMicro) return { ok: true, value: null };
    if (!balance.ok) return trouble(`GET /api/v1/auth/balance answered ${balance.status}: ${JSON.stringify(balance.body)}`);
    if (options.deadline.passed()) break;
    await options.clock.sleep(Math.min(POLL_MS, options.deadline.remainingMs()));
  }
  return { ok: false, kind: 'deadline', message: `the ${FUNDING_CHAIN} deposit was not credited within --max-seconds` };
}
