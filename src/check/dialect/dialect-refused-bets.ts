/**
 * What a bet the target refused teaches `afp check --target` (dialect-commands.ts): a minimum bet
 * above the stake (learned, and later bets go out at it), or the Kelly limit the target states for
 * the balance; either way the refusal moved nothing. Any other refusal is left to the command.
 */
import { formatDecimal, type Micro } from '../../core/money.ts';
import {
  type SentRequest,
  type BetInput,
  type Refusal,
  kellyNamed,
  statedKellyLimitMicro,
  documentsMinimumMicro,
  minimumBetFinding,
} from '../../live.ts';
import { learnedMinimum } from './dialect-command-kit.ts';
import type { DialectAccount, DialectModel, DialectSystem } from './dialect-model.ts';

const text = (micro: Micro): string => formatDecimal(micro);

/** A bet (or a batch element) the target refused: what was sent, by whom, and the refusal. */
export interface RefusedBet {
  readonly label: string;
  readonly account: Readonly<DialectAccount>;
  readonly sent: BetInput;
  readonly refusal: Refusal;
  readonly request: SentRequest | null;
}

/**
 * A bet refused below its game's minimum, stated or named without an amount (learnedMinimum), with
 * the minimum-bet finding: expected the documents' minimum of the casino's dialect, seen the stake refused.
 */
function learnedBetMinimum(system: DialectSystem, model: DialectModel, refused: RefusedBet): boolean {
  const { label, sent, refusal, request } = refused;
  const dialect = system.session.target.services.casino?.dialect ?? 'A';
  return learnedMinimum(system, model, sent.game, sent.amountMicro, refusal, true, (statedMicro, learnedMicro) =>
    minimumBetFinding({
      game: sent.game,
      statedMicro,
      sentMicro: sent.amountMicro,
      documentsMicro: documentsMinimumMicro(sent.game, dialect),
      refusal,
      then: statedMicro === null ? `later bets go out at ${text(learnedMicro)} or more` : 'later bets go out at it',
      evidence: `${label}: ${refusal.message}`,
      ...(request === null ? {} : { reproduce: system.curlOf(request) }),
    }),
  );
}

/**
 * A bet refused above a Kelly limit the target states below the stake (stated-kelly-limit.ts), or
 * refused by an error named as the Kelly rule that states no limit (the share is then taken as half
 * the stake refused, and halves again at each such refusal): learned with the balance it was met at
 * (later bets of the game stake within that share of the balance: stakeFor), with a rule finding
 * the first time for the game (minor, saying so where the limit is below the game's minimum, so
 * that no bet of it can be placed), and true; the refusal moved nothing. A share only falls. Why the
 * unstated one too: the risk factor is the deployment's to set (DEPLOYED.md §2.8), so a Kelly
 * refusal of a stake the documents' default allows is the target's rule at work, not a mismatch.
 * Any other refusal: false.
 */
function learnedKellyLimit(system: DialectSystem, model: DialectModel, refused: RefusedBet): boolean {
  const { label, account, sent, refusal, request } = refused;
  const stated = statedKellyLimitMicro(refusal, sent.amountMicro);
  if (stated === null && !kellyNamed(refusal)) return false;
  const limitMicro = stated ?? sent.amountMicro / 2n;
  const balanceMicro = account.balanceMicro;
  const known = model.kellyLimits.get(sent.game);
  if (known === undefined || limitMicro * known.balanceMicro < known.limitMicro * balanceMicro)
    model.kellyLimits.set(sent.game, { limitMicro, balanceMicro });
  if (known !== undefined) return true;
  const minimumMicro = model.minimums.get(sent.game) ?? 10_000n;
  // One decimal, or two significant digits below 0.1% (0.02 of 200 read "0.0%").
  const percent = balanceMicro > 0n ? Number((limitMicro * 100_000_000n) / balanceMicro) / 1_000_000 : null;
  const share = percent === null ? 'all' : `${percent < 0.1 ? percent.toPrecision(2) : percent.toFixed(1)}%`;
  const forbids = limitMicro < minimumMicro;
  const limit =
    stated === null
      ? `below ${text(sent.amountMicro)} (its refusal, ${refusal.name}, states no limit) on a balance of ${text(balanceMicro)}`
      : `${text(stated)} on a balance of ${text(balanceMicro)}`;
  const within =
    stated === null
      ? `later bets stake within half the stake refused (${share} of the balance), halved again at each such refusal`
      : 'later bets stake within that share';
  system.raise({
    id: `rule:${sent.game}:kelly-limit`,
    // Minor either way: the limit is the target's own rule, kept consistently (docs/check.md: a
    // game's Kelly limit is never a failed run); that it leaves no bet of the game is said.
    severity: 'minor',
    kind: 'rule',
    title: forbids
      ? `${sent.game}'s Kelly limit on the target is ${limit}, below its minimum bet of ${text(minimumMicro)}: no bet of it can be placed`
      : `${sent.game}'s Kelly limit on the target is ${limit}${stated === null ? '' : ` (${share} of it)`}, where the documents' default risk factor (0.25) allows a twentieth: ${within}`,
    endpoint: 'casino.bet',
    field: 'amount',
    expected: `${text(sent.amountMicro)} accepted (${text(sent.amountMicro)} is at most a twentieth of the balance)`,
    seen: refusal.body,
    evidence: `${label}: ${refusal.message}`,
    ...(request === null ? {} : { reproduce: system.curlOf(request) }),
  });
  return true;
}

/** A bet refused below its game's stated minimum or above its stated Kelly limit: a rule learned, not a mismatch. */
export function learnedBetRule(system: DialectSystem, model: DialectModel, refused: RefusedBet): boolean {
  return learnedBetMinimum(system, model, refused) || learnedKellyLimit(system, model, refused);
}
