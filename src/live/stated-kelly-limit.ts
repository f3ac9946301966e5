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
 * one number its message writes (stated-amount.ts). DEPLOYED.md §2.4's refusal also carries a
 * `kelly` object, the bet response's (`max_bet_this_game` among its fields): a Kelly-named refusal
 * stating its limit only there (a prober's honest deployment left `max_bet` out) is read from it,
 * after the body's own fields; `afp check` called such a working target broken.
 * A refusal that states no limit, or none below what was sent, teaches nothing (null): whether it
 * is the target's Kelly rule at all, unstated, is kellyNamed's. Zero is a limit (a game the rule
 * forbids at this balance).
 */
import type { Micro } from '../core/money.ts';
import type { Refusal } from './operations.ts';
import { amountMicroOf, soleNumberInMessage, statedField } from './stated-amount.ts';

const KELLY = /kelly/i;
const MESSAGE_PATTERN = /kelly limit(?: of| is)?:? *\$? *(\d{1,9}(?:\.\d{1,20})?)/i;

/** A field naming the limit, read in a refusal whose name says Kelly only. */
const LIMIT_FIELD = /^(?:max(?:imum)?(?:_(?:bet|amount|stake))?|kelly(?:_limit|_max(?:_bet)?)?)(?:_usdc?)?$/i;

/** The limit's field inside a Kelly-named refusal's `kelly` object (§2.4's bet response names it `max_bet_this_game`). */
const NESTED_LIMIT_FIELD = /^max(?:imum)?_bet(?:_this_game)?(?:_usdc?)?$/i;

/** A limit as the target writes it (a double's noise included), rounded down to the micro: a bet at it stays within. */
const limitOf = (value: unknown): Micro | null => amountMicroOf(value, 'down');

/** Whether `refusal`'s error name says Kelly: the target refused by its own Kelly rule, whether or not it states the limit. */
export function kellyNamed(refusal: Refusal): boolean {
  return KELLY.test(refusal.name);
}

/** The limit in the refusal's `kelly` object (DEPLOYED.md §2.4 names it `max_bet_this_game` there), or null. */
function nestedKellyLimit(refusal: Refusal): Micro | null {
  const body = refusal.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const kelly: unknown = (body as Readonly<Record<string, unknown>>)['kelly'];
  if (typeof kelly !== 'object' || kelly === null || Array.isArray(kelly)) return null;
  for (const [name, value] of Object.entries(kelly as Readonly<Record<string, unknown>>)) {
    if (!NESTED_LIMIT_FIELD.test(name)) continue;
    const got = limitOf(value);
    if (got !== null) return got;
  }
  return null;
}

/** The Kelly limit `refusal` states, when it is a Kelly refusal and the limit is below `sentMicro` (the refused stake); else null. */
export function statedKellyLimitMicro(refusal: Refusal, sentMicro: Micro): Micro | null {
  const named = kellyNamed(refusal);
  if (!named && !KELLY.test(refusal.message)) return null;
  let stated =
    statedField(refusal, /^max_bet$/, limitOf) ??
    (named ? (statedField(refusal, LIMIT_FIELD, limitOf) ?? nestedKellyLimit(refusal)) : null);
  if (stated === null) {
    const found = MESSAGE_PATTERN.exec(refusal.message);
    stated = found?.[1] === undefined ? null : limitOf(found[1]);
  }
  if (stated === null && named) stated = limitOf(soleNumberInMessage(refusal));
  return stated !== null && stated < sentMicro ? stated : null;
}
