/**
 * The Kelly limit a target states when it refuses a bet above it. Why: `afp check --target` stakes
 * at most a twentieth of the balance, which the documents' default risk factor (0.25) always
 * allows, so its bets expected to be accepted; a target with a lower default risk factor (or
 * another Kelly formula) refused them, and a working target failed the run ("expected it
 * accepted"). The check now learns the limit from the refusal and bets within it
 * (dialect-commands.ts), with a minor rule finding.
 * Read from a Kelly refusal only (its error name or message says "Kelly": the deployment's
 * `kelly_limit_exceeded`, afp's "amount exceeds the Kelly limit 0.05 for this bankroll"): the
 * body's `max_bet` (a JSON number or a decimal string, read as written and rounded down to the micro), else the message's "Kelly limit (of) 0.05";
 * where the name itself says Kelly, in the target's own words too: a field named as the limit
 * (LIMIT_FIELD: `max`, `maximum`, `max_bet`, `max_amount`, `kelly_limit`, `..._usd(c)`), else the
 * one number its message writes (stated-amount.ts).
 * A refusal that states no limit, or none below what was sent, teaches nothing (null). Zero is a
 * limit (a game the rule forbids at this balance).
 */
import type { Micro } from '../core/money.ts';
import type { Refusal } from './operations.ts';
import { amountMicroOf, soleNumberInMessage, statedField } from './stated-amount.ts';

const KELLY = /kelly/i;
const MESSAGE_PATTERN = /kelly limit(?: of| is)?:? *\$? *(\d{1,9}(?:\.\d{1,20})?)/i;

/** A field naming the limit, read in a refusal whose name says Kelly only. */
const LIMIT_FIELD = /^(?:max(?:imum)?(?:_(?:bet|amount|stake))?|kelly(?:_limit|_max(?:_bet)?)?)(?:_usdc?)?$/i;

/** A limit as the target writes it (a double's noise included), rounded down to the micro: a bet at it stays within. */
const limitOf = (value: unknown): Micro | null => amountMicroOf(value, 'down');

/** The Kelly limit `refusal` states, when it is a Kelly refusal and the limit is below `sentMicro` (the refused stake); else null. */
export function statedKellyLimitMicro(refusal: Refusal, sentMicro: Micro): Micro | null {
  const named = KELLY.test(refusal.name);
  if (!named && !KELLY.test(refusal.message)) return null;
  let stated =
    statedField(refusal, /^max_bet$/, limitOf) ?? (named ? statedField(refusal, LIMIT_FIELD, limitOf) : null);
  if (stated === null) {
    const found = MESSAGE_PATTERN.exec(refusal.message);
    stated = found?.[1] === undefined ? null : limitOf(found[1]);
  }
  if (stated === null && named) stated = limitOf(soleNumberInMessage(refusal));
  return stated !== null && stated < sentMicro ? stated : null;
}
