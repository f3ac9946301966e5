/**
 * The I/O half of replay set-up (src/replay/replay-setup.ts is the pure half): reads the target's
 * `GET /_afp/platform` and compares it with the record, and sends `POST /_afp/tier`,
 * `POST /_afp/casino/deposit` and `POST /_afp/wallet/mint` calls.
 * Both are afp serve admin endpoints on the api mount; a target without them (a real deployment,
 * an older afp serve) is noted, never an error; so is a platform check that gets no answer (the
 * target answered discovery already). A tier, deposit or mint call that gets no answer is a liveness failure
 * (LivenessError, exit 4), as for the exchanges and the clock moves.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { AdminClient, type AdminAnswer } from '../client/admin-client.ts';
import { isObject } from '../replay/json-pointer.ts';
import {
  recordedDomainGraceMs,
  recordedDomainYearMs,
  recordedPlatformOf,
  type RecordHeader,
} from '../replay/record-format.ts';
import {
  DEPOSIT_ENDPOINT,
  MINT_ENDPOINT,
  PLATFORM_ENDPOINT,
  TIER_ENDPOINT,
  parsePlatformView,
  platformFindings,
  setupCommand,
  unverifiableNote,
  type DepositCall,
  type MintCall,
  type SetupOutcome,
  type TierCall,
  type TierOutcome,
} from '../replay/replay-setup.ts';
import { LivenessError } from '../replay/replay-run.ts';
import type { ReplaySession } from '../replay/replay-session.ts';
import { DEFAULT_CONFIG } from '../services/shared/config.ts';

const SETUP_TIMEOUT_MS = 5_000;
/** A refused mint's answer is kept up to this many characters in its difference's note. */
const MESSAGE_CHARS_MAX = 300;
/** Where `afp run` users keep scenarios; the hint names the file when it is there. */
const SCENARIO_DIRECTORY = 'scenarios';

/**
 * Reads the target's platform settings, files `setup` differences and notes (with the afp serve
 * command that fixes a mismatch) into the session; returns the line printed before the replay.
 */
export async function checkTargetPlatform(options: {
  api: string;
  header: RecordHeader;
  session: ReplaySession;
  timeoutMs: number;
}): Promise<string> {
  const { api, header, session } = options;
  const recorded = recordedPlatformOf(header);
  const answer = await readPlatform(api, Math.min(options.timeoutMs, SETUP_TIMEOUT_MS));
  session.countSetupCall(PLATFORM_ENDPOINT);
  if ('why' in answer) {
    session.note(unverifiableNote(recorded, answer.why));
    return `setup: platform settings not verified (${answer.why})`;
  }
  const findings = platformFindings(recorded, answer.platform);
  session.fileSetup(0, PLATFORM_ENDPOINT, findings);
  const closures = recorded.casino_closures?.length ?? 0;
  const shocks = recorded.trading_shocks?.length ?? 0;
  const marketClosures = recorded.market_closures?.length ?? 0;
  const trading =
    shocks + marketClosures > 0 ? `, ${shocks} trading price shock(s), ${marketClosures} market closure(s)` : '';
  const yearMs = recordedDomainYearMs(recorded);
  const graceMs = recordedDomainGraceMs(recorded);
  const domains =
    yearMs === DEFAULT_CONFIG.domains.yearMs && graceMs === DEFAULT_CONFIG.domains.graceMs
      ? ''
      : `, domain year ${yearMs} ms, grace ${graceMs} ms`;
  const described = `dispute_outcome ${recorded.dispute_outcome}, ${recorded.faults.length} fault window(s)${closures > 0 ? `, ${closures} casino game closure(s)` : ''}${trading}${domains}`;
  if (findings.length === 0) return `setup: the target's platform settings match the record's (${described})`;
  const scenarioFile = await scenarioFileOf(header.scenario);
  const hint = setupCommand({
    platform: recorded,
    startMs: header.start_ms,
    scenarioName: header.scenario,
    scenarioFile,
  });
  session.note(
    `the target is not set up like the recorded run (${findings.length} setup difference(s)); start it as: ${hint}`,
  );
  return `setup: ${findings.length} platform setting(s) differ from the record's (${described}); start the target as: ${hint}`;
}

async function readPlatform(
  api: string,
  timeoutMs: number,
): Promise<{ platform: NonNullable<ReturnType<typeof parsePlatformView>> } | { why: string }> {
  const answer = await AdminClient.ofUrl(api, { timeoutMs }).platform();
  if (!answer.ok && answer.kind === 'unreachable')
    return { why: `GET /${PLATFORM_ENDPOINT} got no answer: ${answer.detail}` };
  if (!answer.ok && answer.kind === 'status')
    return { why: `GET /${PLATFORM_ENDPOINT} answered ${answer.status}: not afp serve, or an older one` };
  const platform = parsePlatformView(answer.ok ? answer.value : answer.body);
  return platform === null
    ? { why: `GET /${PLATFORM_ENDPOINT} answered 200 without { dispute_outcome, faults }` }
    : { platform };
}

/** `scenarios/<name>.yaml` when it exists under the working directory, else null. */
async function scenarioFileOf(name: string): Promise<string | null> {
  if (!/^[a-z0-9-]{1,64}$/.test(name)) return null;
  const file = join(SCENARIO_DIRECTORY, `${name}.yaml`);
  try {
    await access(file);
    return file;
  } catch {
    return null;
  }
}

/** Sends one `POST /_afp/tier`; 200 applied, 404 naming the agent refused, anything else unsupported. */
export async function applyTier(api: string, call: TierCall, timeoutMs: number): Promise<TierOutcome> {
  return setupOutcome(
    api,
    TIER_ENDPOINT,
    call.agentId,
    await setupDoors(api, timeoutMs).setTier(call.agentId, call.tier),
  );
}

/** Sends one `POST /_afp/casino/deposit` (the agent's starting deposit); answers as `applyTier`. */
export async function sendDeposit(api: string, call: DepositCall, timeoutMs: number): Promise<SetupOutcome> {
  const deposit = { agentId: call.agentId, chain: call.deposit.chain, amount: call.deposit.amount };
  return setupOutcome(api, DEPOSIT_ENDPOINT, call.agentId, await setupDoors(api, timeoutMs).casinoDeposit(deposit));
}

/** Sends one `POST /_afp/wallet/mint` (a wallet's starting fund): 200 applied, 400 refused (the address or amount), anything else unsupported. */
export async function applyMint(api: string, call: MintCall, timeoutMs: number): Promise<SetupOutcome> {
  const answer = await setupDoors(api, timeoutMs).walletMint(call);
  if (answer.ok) return { kind: 'applied' };
  if (answer.kind === 'unreachable') throw unanswered(api, MINT_ENDPOINT, answer.detail);
  if (answer.kind === 'unreadable') return { kind: 'applied' };
  return answer.status === 400 && isObject(answer.body)
    ? { kind: 'refused', status: 400, message: JSON.stringify(answer.body).slice(0, MESSAGE_CHARS_MAX) }
    : { kind: 'unsupported', status: answer.status };
}

/** The admin doors of `api`, each call bounded by the set-up timeout. */
function setupDoors(api: string, timeoutMs: number): AdminClient {
  return AdminClient.ofUrl(api, { timeoutMs: Math.min(timeoutMs, SETUP_TIMEOUT_MS) });
}

/** 200 applied; afp serve's own 404 naming the agent refused; any other answer means the door is not there. */
function setupOutcome(api: string, endpoint: string, agentId: string, answer: AdminAnswer<unknown>): SetupOutcome {
  if (answer.ok || answer.kind === 'unreadable') return { kind: 'applied' };
  if (answer.kind === 'unreachable') throw unanswered(api, endpoint, answer.detail);
  const body = answer.body;
  if (answer.status === 404 && isObject(body) && body['agent_id'] === agentId) {
    return {
      kind: 'refused',
      status: 404,
      message: typeof body['error'] === 'string' ? body['error'] : 'unknown agent',
    };
  }
  return { kind: 'unsupported', status: answer.status };
}

/** No answer at all from a set-up door is a liveness failure. */
function unanswered(api: string, endpoint: string, detail: string): LivenessError {
  return new LivenessError(`the target does not answer POST ${api}/${endpoint}: ${detail}`);
}
