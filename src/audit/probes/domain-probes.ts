/**
 * The domains' money-path probes of `afp audit money` (money-probes.ts runs them after its own):
 *   - double registration: two registrations of one fresh name sent at once by the audit account:
 *     exactly one may win, the other must be refused 409 (the name is taken), and exactly one
 *     yearly price may leave the balance;
 *   - unpaid transfer: the audit account offers its name to the second account at more than that
 *     account holds; the buyer's acceptance must be refused (it cannot pay), a transfer to itself
 *     without price must be refused (no gift was made), and afterwards the name must still be the
 *     audit account's and the buyer's balance unchanged.
 * Where the domains service keeps its own accounts (the deployment, DEPLOYED.md §7: the dialect
 * offers `domains.account`), both probes open their own domains accounts — the audit account
 * funded the target's way (`fundOwnAccount`), the buyer unfunded — and read balances there. A shape
 * with no priced transfer (the deployment's transfer is a gift) cannot offer or sell: the sale steps
 * are reported as an info finding with the reason, and the rest (a non-owner's transfer to itself
 * without price is refused, the owner and the buyer's balance unchanged) still runs. A loser
 * refused with the dialect's documented name for a taken name (400 `domain_unavailable`) is an info
 * finding (documented-rules.ts), not a failure.
 * Names: `afp-probe-<account>-race.xyz`, the cheapest TLD the documents sell (14.40 a year); the race
 * needs twice its price in the balance (so a refusal for funds cannot hide a lost race), the won name
 * is reused by the transfer probe, so the two cost one registration together. The price a won
 * registration must take is the target's: the one its answer states, else the one `domains.check`
 * quotes for the name; with neither, the charge is not judged (said in the note), never held to the
 * documents' 14.40.
 */
import { formatDecimal, type Micro } from '../../core/money.ts';
import { refusalText, ruleFinding, type OperationName } from '../../live.ts';
import type { FindingInput } from '../../report/findings/finding.ts';
import { answerText, DISPLAY_ROUNDING_MICRO, reproduceOf, type ProbeContext } from './probe-context.ts';

/** The documents' yearly price of .xyz (spec/NOTES.md price table). */
export const XYZ_YEARLY_MICRO = 14_400_000n;
/** Above the second account's balance by this much, so its acceptance cannot be paid. */
const PRICE_ABOVE_BALANCE_MICRO = 5_000_000n;

type Raise = (finding: FindingInput) => void;
type ProbeOutcome = { status: 'ran' | 'skipped'; note: string };

/** The name (and its id, where the answer shows one) each audit context won in the race, for the transfer probe. */
const wonNames = new WeakMap<ProbeContext, { domain: string; domainId: string | null }>();

interface Account {
  readonly apiKey: string;
  readonly agentId: string;
}

/** The accounts the domain probes act as, and where their balances are read. */
interface DomainAccounts {
  readonly main: Account;
  readonly second: Account | null;
  readonly balanceOp: 'casino.balance' | 'domains.balance';
}

const accountsByContext = new WeakMap<ProbeContext, Promise<DomainAccounts | string>>();

/** The probes' accounts: the audit's own, or fresh domains accounts where the domains service keeps its own (else why not). */
function domainAccounts(context: ProbeContext): Promise<DomainAccounts | string> {
  let accounts = accountsByContext.get(context);
  if (accounts === undefined) {
    accounts = openDomainAccounts(context);
    accountsByContext.set(context, accounts);
  }
  return accounts;
}

async function openDomainAccounts(context: ProbeContext): Promise<DomainAccounts | string> {
  if (context.session.offers('domains.account') !== null)
    return {
      main: { apiKey: context.apiKey, agentId: context.agentId },
      second: context.second,
      balanceOp: 'casino.balance',
    };
  const main = await context.session.call('domains.account', {}, null);
  if (main.kind !== 'ok')
    return `the domains service keeps its own accounts, and registering one was ${answerText(main)}`;
  if (context.fundOwnAccount === undefined)
    return 'the domains service keeps its own accounts, and this audit cannot fund one';
  const funded = await context.fundOwnAccount('domains', main.value.agentId, main.value.apiKey);
  if (!funded.ok)
    return `the domains service keeps its own accounts, and funding ${main.value.agentId} failed: ${funded.message}`;
  const second = await context.session.call('domains.account', {}, null);
  return { main: main.value, second: second.kind === 'ok' ? second.value : null, balanceOp: 'domains.balance' };
}

export function probeDomainName(agentId: string, suffix: string): string {
  const label = agentId
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `afp-probe-${label}-${suffix}.xyz`;
}

async function balance(context: ProbeContext, apiKey: string, op: DomainAccounts['balanceOp']): Promise<Micro | null> {
  const outcome = await context.session.call(op, {}, apiKey);
  return outcome.kind === 'ok' ? outcome.value.balanceMicro : null;
}

/** The yearly price the target quotes for `domain` (domains.check), or null where it quotes none or the dialect has no check. */
async function quotedPriceMicro(context: ProbeContext, domain: string, apiKey: string): Promise<Micro | null> {
  if (context.session.offers('domains.check') !== null) return null;
  const checked = await context.session.call('domains.check', { names: [domain] }, apiKey);
  if (checked.kind !== 'ok') return null;
  return checked.value.results.find((result) => result.domain === domain)?.priceMicro ?? null;
}

function missing(context: ProbeContext, ops: readonly OperationName[]): string | null {
  for (const op of ops) {
    const reason = context.session.offers(op);
    if (reason !== null) return reason;
  }
  return null;
}

/** Two simultaneous registrations of one fresh name, answered, with the balance around them. */
interface Race {
  readonly domain: string;
  readonly main: Account;
  readonly quote: Micro | null;
  readonly before: Micro;
  readonly after: Micro | null;
  readonly outcomes: readonly RegisterOutcome[];
  readonly won: readonly RegisterOutcome[];
  readonly evidence: string;
}

type RegisterOutcome = Awaited<ReturnType<typeof registerOnce>>;

function registerOnce(context: ProbeContext, domain: string, apiKey: string) {
  return context.session.call('domains.register', { domain, years: 1 }, apiKey);
}

export async function doubleRegistration(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const reason = missing(context, ['domains.register', 'domains.lookup']);
  if (reason !== null) return { status: 'skipped', note: reason };
  const accounts = await domainAccounts(context);
  if (typeof accounts === 'string') return { status: 'skipped', note: accounts };
  const { main, balanceOp } = accounts;
  const domain = probeDomainName(main.agentId, 'race');
  const quote = await quotedPriceMicro(context, domain, main.apiKey);
  const before = await balance(context, main.apiKey, balanceOp);
  // Twice the price (the target's quote, else the documents'), so a loser refused for funds cannot hide a lost race.
  const needed = 2n * (quote ?? XYZ_YEARLY_MICRO);
  if (before === null || before < needed) {
    return {
      status: 'skipped',
      note: `the audit account's balance (${before === null ? 'unreadable' : formatDecimal(before)}) is below ${formatDecimal(needed)} USDC: a loser refused for funds would hide a lost race`,
    };
  }
  const outcomes = await Promise.all([0, 1].map(() => registerOnce(context, domain, main.apiKey)));
  const after = await balance(context, main.apiKey, balanceOp);
  const won = outcomes.filter((outcome) => outcome.kind === 'ok');
  const evidence = `${domain}: ${outcomes.map(answerText).join(', ')}; balance ${formatDecimal(before)} → ${after === null ? 'unreadable' : formatDecimal(after)}`;
  const race: Race = { domain, main, quote, before, after, outcomes, won, evidence };
  judgeWinners(context, race, raise);
  const judged = judgeCharge(race, raise);
  if (won.length >= 1) await judgeOwner(context, race, raise);
  const { charged, price } = judged;
  return {
    status: 'ran',
    note: `${domain}: ${outcomes.map(answerText).join(', ')}; ${charged === null ? 'balance unreadable' : `charged ${formatDecimal(charged)}`}${won.length > 0 && price === null ? ' (not judged: no answer states the price, neither the registration nor domains.check)' : ''}`,
  };
}

/** Exactly one registration may win, and the loser must be refused 409 (or the dialect's documented name for it). */
function judgeWinners(context: ProbeContext, race: Race, raise: Raise): void {
  const { domain, outcomes, won, evidence } = race;
  const lost = outcomes.filter((outcome) => outcome.kind !== 'ok');
  const first = outcomes[0];
  const reproduce = first === undefined ? {} : reproduceOf(context, first);
  if (won.length > 1) {
    raise({
      id: 'money:domains:double-registration',
      severity: 'critical',
      kind: 'money',
      title: `both of two simultaneous registrations of ${domain} were accepted`,
      endpoint: 'domains.register',
      expected: 'exactly one accepted, the other 409',
      seen: won.length,
      evidence,
      ...reproduce,
    });
  }
  if (won.length === 0) {
    raise({
      id: 'rule:domains:registration-race-none-won',
      severity: 'major',
      kind: 'rule',
      title: `neither of two simultaneous registrations of the fresh name ${domain} was accepted`,
      endpoint: 'domains.register',
      expected: 'exactly one accepted',
      seen: outcomes.map(answerText).join(', '),
      evidence,
      ...reproduce,
    });
  }
  const dialect = context.session.target.services.domains?.dialect ?? 'A';
  for (const loser of lost) {
    if (won.length === 1 && loser.kind === 'refused' && loser.refusal.status !== 409) {
      // Refused, and nothing charged (judged below): the refusal's name is the target's rule to choose.
      const finding = ruleFinding('domains.refusal.taken', dialect, refusalText(loser.refusal), {
        endpoint: 'domains.register',
        evidence,
        ...reproduceOf(context, loser),
      });
      if (finding !== null) raise(finding);
      continue;
    }
    if (won.length === 1 && !(loser.kind === 'refused' && loser.refusal.status === 409)) {
      raise({
        id: 'rule:domains:registration-race-loser',
        severity: 'major',
        kind: 'rule',
        title: `the losing registration of ${domain} was answered ${answerText(loser)}, not 409 (the name is taken)`,
        endpoint: 'domains.register',
        expected: '409',
        seen: answerText(loser),
        evidence,
        ...reproduceOf(context, loser),
      });
    }
  }
}

/** Exactly one yearly price (the target's) left the balance; returns what left and the price judged by. */
function judgeCharge(race: Race, raise: Raise): { readonly charged: Micro | null; readonly price: Micro | null } {
  const { domain, won, before, after, quote, evidence } = race;
  const charged = after === null ? null : before - after;
  // The price the winner's answer states, else the one the target quoted for the name (a deployment sets
  // its own): never the documents' price recited. With neither, a won registration's charge is not judged.
  const wonCost =
    won
      .map((outcome) => (outcome.kind === 'ok' ? outcome.value.costMicro : null))
      .find((cost) => cost !== null && cost !== undefined) ?? null;
  const price = wonCost ?? quote;
  const expectedCharge = won.length === 0 ? 0n : price;
  const priceSource = wonCost !== null ? 'the price the winning answer states' : 'the price domains.check quoted';
  if (
    charged !== null &&
    expectedCharge !== null &&
    (charged - expectedCharge > DISPLAY_ROUNDING_MICRO || expectedCharge - charged > DISPLAY_ROUNDING_MICRO)
  ) {
    raise({
      id: 'money:domains:registration-charge',
      severity: 'critical',
      kind: 'money',
      title: `${won.length} won registration(s) of ${domain} took ${formatDecimal(charged)} USDC from the balance, not ${formatDecimal(expectedCharge)}`,
      endpoint: 'domains.register',
      expected: won.length === 0 ? '0 (nothing won)' : `${formatDecimal(expectedCharge)} (${priceSource})`,
      seen: formatDecimal(charged),
      evidence,
    });
  }
  return { charged, price };
}

/** The won name is the registrant's; kept for the transfer probe. */
async function judgeOwner(context: ProbeContext, race: Race, raise: Raise): Promise<void> {
  const { domain, main, won, evidence } = race;
  const lookup = await context.session.call('domains.lookup', { domain }, main.apiKey);
  if (lookup.kind === 'ok' && lookup.value.owner !== null && lookup.value.owner !== main.agentId) {
    raise({
      id: 'rule:domains:registration-owner',
      severity: 'major',
      kind: 'rule',
      title: `${domain}, registered by ${main.agentId}, is held by ${lookup.value.owner}`,
      endpoint: 'domains.lookup',
      expected: main.agentId,
      seen: lookup.value.owner,
      evidence,
      ...reproduceOf(context, lookup),
    });
  }
  const winner = won[0];
  if (won.length === 1 && winner !== undefined && winner.kind === 'ok')
    wonNames.set(context, { domain, domainId: winner.value.domainId ?? null });
}

export async function unpaidTransfer(context: ProbeContext, raise: Raise): Promise<ProbeOutcome> {
  const reason = missing(context, ['domains.register', 'domains.transfer', 'domains.lookup']);
  if (reason !== null) return { status: 'skipped', note: reason };
  const accounts = await domainAccounts(context);
  if (typeof accounts === 'string') return { status: 'skipped', note: accounts };
  const { main, second, balanceOp } = accounts;
  if (second === null)
    return { status: 'skipped', note: 'no second account could be opened (the buyer that cannot pay)' };
  const won = await nameToSell(context, main, balanceOp);
  if ('status' in won) return won;
  const buyerBefore = await balance(context, second.apiKey, balanceOp);
  if (buyerBefore === null) return { status: 'skipped', note: "the second account's balance could not be read" };
  const priceMicro = ((buyerBefore + PRICE_ABOVE_BALANCE_MICRO) / 10_000n) * 10_000n;
  const sale: Sale = { ...won, main, second, balanceOp, buyerBefore, priceMicro };
  const { noSale, acceptText } = await offerAndAccept(context, sale, raise);
  const { grabText, owner } = await judgeAfterSale(context, sale, acceptText, raise);
  return {
    status: 'ran',
    note: `${won.domain} offered at ${formatDecimal(priceMicro)} to a buyer holding ${formatDecimal(buyerBefore)}: ${noSale !== null ? `offer not sent (${noSale})` : `acceptance ${acceptText}`}, transfer without price ${grabText}, owner ${owner ?? 'unreadable'}`,
  };
}

/** A name offered by the audit account to a buyer that cannot pay its price. */
interface Sale {
  readonly domain: string;
  readonly domainId: string | null;
  readonly main: Account;
  readonly second: Account;
  readonly balanceOp: DomainAccounts['balanceOp'];
  readonly buyerBefore: Micro;
  readonly priceMicro: Micro;
}

/** The name the race won, else one registered to sell (or why the probe is skipped). */
async function nameToSell(
  context: ProbeContext,
  main: Account,
  balanceOp: DomainAccounts['balanceOp'],
): Promise<{ domain: string; domainId: string | null } | ProbeOutcome> {
  const won = wonNames.get(context) ?? null;
  if (won !== null) return won;
  const own = await balance(context, main.apiKey, balanceOp);
  if (own === null || own < XYZ_YEARLY_MICRO)
    return {
      status: 'skipped',
      note: `the audit account's balance (${own === null ? 'unreadable' : formatDecimal(own)}) is below the ${formatDecimal(XYZ_YEARLY_MICRO)} USDC of a name to sell`,
    };
  const name = probeDomainName(main.agentId, 'sale');
  const registered = await context.session.call('domains.register', { domain: name, years: 1 }, main.apiKey);
  if (registered.kind !== 'ok')
    return { status: 'skipped', note: `registering ${name} to sell was ${answerText(registered)}` };
  return { domain: name, domainId: registered.value.domainId ?? null };
}

/** The offer must not move the name, and the buyer's acceptance must be refused (it cannot pay). */
async function offerAndAccept(
  context: ProbeContext,
  sale: Sale,
  raise: Raise,
): Promise<{ readonly noSale: string | null; readonly acceptText: string }> {
  const { domain, domainId, main, second, buyerBefore, priceMicro } = sale;
  const offer = await context.session.call(
    'domains.transfer',
    { domain, domainId, to: second.agentId, priceMicro },
    main.apiKey,
  );
  if (
    offer.kind === 'ok' &&
    (offer.value.status === 'completed' || (offer.value.owner !== null && offer.value.owner !== main.agentId))
  ) {
    raise({
      id: 'money:domains:offer-moved-name',
      severity: 'critical',
      kind: 'money',
      title: `an offer of ${domain} at ${formatDecimal(priceMicro)} moved the name to ${second.agentId} before it paid`,
      endpoint: 'domains.transfer',
      expected: 'status offered, owner unchanged',
      seen: `${offer.value.status ?? '?'}, owner ${offer.value.owner ?? '?'}`,
      evidence: `buyer balance ${formatDecimal(buyerBefore)}`,
      ...reproduceOf(context, offer),
    });
  }
  // A shape with no priced transfer: nothing to offer or buy; said as an info finding, the rest still runs.
  const noSale = offer.kind === 'unsupported' ? offer.reason : null;
  if (noSale !== null) {
    raise({
      id: 'rule:domains:no-priced-transfer',
      severity: 'info',
      kind: 'rule',
      title: `the sale steps of the unpaid-transfer probe were not sent: ${noSale}`,
      endpoint: 'domains.transfer',
      expected: 'a priced transfer (an offer the buyer accepts by paying)',
      seen: 'no priced transfer in this shape',
      evidence: `${domain} held by ${main.agentId}; the non-owner transfer, the owner and the buyer's balance are still checked`,
    });
  }
  const accept =
    noSale !== null
      ? null
      : await context.session.call(
          'domains.transfer',
          { domain, domainId, to: second.agentId, priceMicro },
          second.apiKey,
        );
  if (accept !== null && accept.kind === 'ok') {
    raise({
      id: 'money:domains:unpaid-transfer',
      severity: 'critical',
      kind: 'money',
      title: `${second.agentId} bought ${domain} at ${formatDecimal(priceMicro)} USDC holding only ${formatDecimal(buyerBefore)}`,
      endpoint: 'domains.transfer',
      expected: 'refused (insufficient balance)',
      seen: `${accept.value.status ?? '?'}, owner ${accept.value.owner ?? '?'}`,
      evidence: `offer answer: ${answerText(offer)}`,
      ...reproduceOf(context, accept),
    });
  }
  return { noSale, acceptText: accept === null ? 'not sent (no priced transfer)' : answerText(accept) };
}

/** A non-owner's transfer to itself without price is refused; the name stays the owner's, the buyer's balance unchanged. */
async function judgeAfterSale(
  context: ProbeContext,
  sale: Sale,
  acceptText: string,
  raise: Raise,
): Promise<{ readonly grabText: string; readonly owner: string | null }> {
  const { domain, domainId, main, second, balanceOp, buyerBefore } = sale;
  const grab = await context.session.call(
    'domains.transfer',
    { domain, domainId, to: second.agentId, priceMicro: null },
    second.apiKey,
  );
  if (grab.kind === 'ok') {
    raise({
      id: 'money:domains:transfer-without-payment',
      severity: 'critical',
      kind: 'money',
      title: `${second.agentId}, not the owner, moved ${domain} to itself with no price`,
      endpoint: 'domains.transfer',
      expected: 'refused (only the owner gives; a buyer pays the offered price)',
      seen: `${grab.value.status ?? '?'}, owner ${grab.value.owner ?? '?'}`,
      evidence: `the owner is ${main.agentId}`,
      ...reproduceOf(context, grab),
    });
  }
  const lookup = await context.session.call('domains.lookup', { domain }, main.apiKey);
  const buyerAfter = await balance(context, second.apiKey, balanceOp);
  const owner = lookup.kind === 'ok' ? lookup.value.owner : null;
  if (owner !== null && owner !== main.agentId) {
    raise({
      id: 'money:domains:owner-moved-unpaid',
      severity: 'critical',
      kind: 'money',
      title: `${domain} is held by ${owner} after refused-or-not purchases it could not pay`,
      endpoint: 'domains.lookup',
      expected: main.agentId,
      seen: owner,
      evidence: `acceptance ${acceptText}, transfer without price ${answerText(grab)}; buyer balance ${formatDecimal(buyerBefore)} → ${buyerAfter === null ? 'unreadable' : formatDecimal(buyerAfter)}`,
      ...reproduceOf(context, lookup),
    });
  }
  if (buyerAfter !== null && buyerAfter !== buyerBefore) {
    raise({
      id: 'money:domains:buyer-balance-changed',
      severity: 'critical',
      kind: 'money',
      title: `the buyer's balance moved from ${formatDecimal(buyerBefore)} to ${formatDecimal(buyerAfter)} though no purchase could be paid`,
      endpoint: 'domains.transfer',
      expected: formatDecimal(buyerBefore),
      seen: formatDecimal(buyerAfter),
      evidence: `acceptance ${acceptText}`,
    });
  }
  return { grabText: answerText(grab), owner };
}
