/**
 * The casino's happy paths of the conformance suite, written as scripts over `client.casino`:
 * every game pays `amount_won` on top of the balance exactly (new_balance = old − amount +
 * amount_won, to the micro), proofs verify once the seed is revealed, batch and style B bets and
 * history agree, video poker deals then draws, the Kelly, stats and referral rows answer; the
 * account rows (withdraw: fee 0.50 added, minimum 1.00); and, where the clock moves exactly, a
 * tournament's 60/30/10 prizes and a challenge's 2% cut.
 * Money: agents start with the 10.00 grant of the B registration; game bets are 0.10 (the slots
 * minimum; every Kelly limit at that bankroll allows it).
 */
import type { CasinoBody } from '../../client/casino-client.ts';
import type { AfpClient, ApiResult } from '../../client/client.ts';
import { isLiveAmount, parseLiveAmount, toMicro } from '../../core/live-amount.ts';
import { formatDecimal } from '../../core/money.ts';
import { SetupError, type ScriptCase, type ScriptSession } from '../conformance-case.ts';

function must(answer: ApiResult<CasinoBody>, label: string): CasinoBody {
  if (!answer.ok) throw new Error(`${label} answered ${answer.status} ${answer.body.code}: ${answer.body.error}`);
  return answer.body;
}

/** A JSON number of money as micro-USDC (read without loss, to the nearest micro). */
function micro(value: unknown, label: string): bigint {
  const parsed = typeof value === 'number' ? parseLiveAmount(value) : 'not-a-number';
  if (!isLiveAmount(parsed)) throw new Error(`${label}: ${JSON.stringify(value)} is not an amount (${parsed})`);
  return toMicro(parsed).micro;
}

async function registered(session: ScriptSession, slot: number): Promise<AfpClient> {
  const client = session.client.withIp(session.freshIp());
  const body = await client.faucetB.register({ agent_id: session.agentId(slot) });
  if (!body.ok) throw new SetupError(`B register answered ${body.status}`);
  return client.withKey(body.body.api_key);
}

const GAMES: ReadonlyArray<readonly [string, CasinoBody]> = [
  ['coin-flip', { side: 'heads' }],
  ['dice', { direction: 'over', threshold: 50 }],
  ['simple-dice', { pick: 3 }],
  ['multiplier', { target_multiplier: 2 }],
  ['roulette', { bet_type: 'red' }],
  ['custom', { win_probability: 50 }],
  ['blackjack', { action: 'hit' }],
  ['crash', { cash_out_at: 2 }],
  ['plinko', { rows: 8, risk: 'low' }],
  ['slots', {}],
  ['hilo', { guess: 'lower' }],
  ['keno', { picks: [5, 10, 15] }],
  ['scratch-card', {}],
  ['wheel', {}],
  ['mines', { mines: 1, reveals: 1 }],
  ['baccarat', { bet_on: 'player' }],
];

async function betsAndFairness(session: ScriptSession): Promise<void> {
  const alice = await registered(session, 1);
  let balanceMicro = micro(must(await alice.casino.balance(), 'balance')['balance'], 'balance');
  session.expectEqual('starting balance', formatDecimal(balanceMicro), '10.00');
  const betIds: string[] = [];
  for (const [path, params] of GAMES) {
    const bet = must(
      await alice.casino.play(path, { ...params, amount: 0.1, client_seed: `conformance-${path}` }),
      `bet ${path}`,
    );
    balanceMicro = balanceMicro - 100_000n + micro(bet['amount_won'], `${path} amount_won`);
    session.expectEqual(
      `${path}: new_balance = balance − 0.10 + amount_won`,
      formatDecimal(micro(bet['new_balance'], 'new_balance')),
      formatDecimal(balanceMicro),
    );
    session.expectEqual(
      `${path}: won ⇔ amount_won > amount`,
      bet['won'],
      micro(bet['amount_won'], 'amount_won') > 100_000n,
    );
    betIds.push(String(bet['bet_id']));
  }
  const early = must(await alice.casino.verify(betIds[0] ?? ''), 'verify before rotation');
  session.expectEqual('verify before rotation', [early['verified'], early['status']], [null, 'seed not yet revealed']);
  must(await alice.casino.rotate(), 'rotate');
  for (const betId of betIds)
    session.expectEqual(`verify ${betId}`, must(await alice.casino.verify(betId), 'verify')['verified'], true);
  const batch = must(
    await alice.casino.batch([
      { game: 'dice', direction: 'under', threshold: 50, amount: 0.01 },
      { game: 'no-such-game', amount: 0.01 },
    ]),
    'batch',
  );
  session.expectEqual(
    'batch summary: total, errors, total_wagered',
    [
      (batch['summary'] as CasinoBody)['total'],
      (batch['summary'] as CasinoBody)['errors'],
      (batch['summary'] as CasinoBody)['total_wagered'],
    ],
    [2, 1, 0.01],
  );
  const betB = must(await alice.casino.betB({ game: 'coinflip', amount: '0.01', params: { side: 'tails' } }), 'B bet');
  const history = must(await alice.casino.historyB({ limit: 1 }), 'B history');
  session.expectEqual('B history: the newest bet first', (history['bets'] as CasinoBody[])[0]?.['id'], betB['bet_id']);
  const dealt = must(
    await alice.casino.call('casino.A.video-poker.deal', { body: { amount: 0.01 } }),
    'video poker deal',
  );
  session.expectEqual('video poker deal: five cards', (dealt['cards'] as unknown[]).length, 5);
  const drawn = must(
    await alice.casino.call('casino.A.video-poker.draw', { body: { nonce: dealt['nonce'], holds: dealt['cards'] } }),
    'video poker draw',
  );
  session.expectEqual(
    'video poker: holding all five keeps the hand',
    (drawn['result'] as CasinoBody)['final_cards'],
    dealt['cards'],
  );
  const stats = must(await alice.casino.call('casino.A.stats.me', {}), 'stats me');
  session.expectEqual('stats: every bet counted', stats['total_bets'], GAMES.length + 3);
  must(await alice.casino.kellyLimits(), 'kelly limits');
  must(await alice.casino.call('casino.A.fairness.seeds', {}), 'seeds');
  must(await alice.casino.call('casino.A.referral.code', {}), 'referral code');
}

async function account(session: ScriptSession): Promise<void> {
  const alice = await registered(session, 1);
  const address = must(
    await alice.casino.call('casino.A.deposit-address', { body: { chain: 'base' } }),
    'deposit address',
  );
  session.expectEqual('deposit address: 0x + 40 hex', /^0x[0-9a-fA-F]{40}$/.test(String(address['address'])), true);
  const again = must(
    await alice.casino.call('casino.A.deposit-address', { body: { chain: 'base' } }),
    'deposit address again',
  );
  session.expectEqual('deposit address is stable', again['address'], address['address']);
  const chains = must(await alice.casino.call('casino.A.supported-chains', {}), 'chains');
  session.expectEqual(
    'withdrawals: Base only',
    (chains['chains'] as CasinoBody[]).filter((chain) => chain['withdrawals'] === true).map((chain) => chain['id']),
    ['base'],
  );
  const withdrawal = must(
    await alice.casino.call('casino.A.withdraw', { body: { amount: 1, address: `0x${'ab'.repeat(20)}` } }),
    'withdraw',
  );
  session.expectEqual(
    'withdraw 1.00: fee 0.50 added, 8.50 left',
    [withdrawal['fee'], withdrawal['total_debited'], withdrawal['new_balance'], withdrawal['status']],
    [0.5, 1.5, 8.5, 'completed'],
  );
  const list = must(await alice.casino.call('casino.A.withdrawals', {}), 'withdrawals');
  session.expectEqual(
    'withdrawals list',
    (list['withdrawals'] as CasinoBody[]).map((row) => row['withdrawal_id']),
    [withdrawal['withdrawal_id']],
  );
  const ledger = must(await alice.casino.call('casino.A.ledger', { query: { limit: 2 } }), 'ledger');
  session.expectEqual(
    'ledger: the fee and the withdrawal, newest first',
    (ledger['transactions'] as CasinoBody[]).map((row) => row['amount']),
    [-0.5, -1],
  );
  must(await alice.casino.call('casino.A.deposits', {}), 'deposits');
}

async function tournamentAndChallenge(session: ScriptSession): Promise<void> {
  const clock = session.clock;
  if (clock === null) throw new Error('needs the clock');
  const alice = await registered(session, 1);
  const bob = await registered(session, 2);
  const bobId = session.agentId(2);
  const challenge = must(
    await alice.casino.call('casino.A.challenges.create', { body: { challenged_agent_id: bobId, amount: 1 } }),
    'challenge',
  );
  const accepted = must(
    await bob.casino.call('casino.A.challenges.accept', { params: { id: String(challenge['challenge_id']) } }),
    'accept',
  );
  session.expectEqual(
    'challenge: the winner gets both stakes minus 2%',
    [accepted['status'], accepted['payout'], accepted['house_cut']],
    ['resolved', 1.96, 0.04],
  );
  const winnerBalance =
    accepted['winner'] === bobId
      ? accepted['new_balance']
      : micro(must(await alice.casino.balance(), 'balance')['balance'], 'balance') === 10_960_000n
        ? 10.96
        : 'wrong';
  session.expectEqual('challenge: winner at 10.96', winnerBalance, 10.96);
  const declined = must(
    await alice.casino.call('casino.A.challenges.create', {
      body: { challenged_agent_id: bobId, game: 'dice', amount: 0.5 },
    }),
    'challenge 2',
  );
  must(
    await bob.casino.call('casino.A.challenges.decline', { params: { id: String(declined['challenge_id']) } }),
    'decline',
  );
  const nowIso = String(must(await alice.casino.call('casino.A.stats.session', {}), 'session')['until']);
  const startMs = Date.parse(nowIso) + 60_000;
  const created = must(
    await alice.casino.call('casino.A.tournaments.create', {
      body: {
        name: 'conformance',
        game: 'coin_flip',
        entry_fee: 0,
        prize_pool: 1,
        max_agents: 10,
        starts_at: new Date(startMs).toISOString(),
        ends_at: new Date(startMs + 3_600_000).toISOString(),
      },
    }),
    'tournament',
  );
  const id = String(created['tournament_id']);
  must(await bob.casino.call('casino.A.tournaments.enter', { params: { id } }), 'enter');
  await clock.advance(120_000);
  must(
    await bob.casino.call('casino.A.tournaments.play', { params: { id }, body: { side: 'heads', amount: 0.01 } }),
    'play',
  );
  await clock.advance(3_600_000);
  const finished = must(
    await bob.casino.call('casino.A.tournaments.get', { params: { id } }),
    'tournament after its end',
  );
  session.expectEqual(
    'tournament: completed, one entrant takes 60%, the rest back to the creator',
    [finished['status'], (finished['prizes'] as CasinoBody[]).map((prize) => prize['amount'])],
    ['completed', [0.6]],
  );
}

export const CASINO_HAPPY_CASES: readonly ScriptCase[] = [
  {
    kind: 'script',
    name: 'casino: a bet on every game pays exactly, proofs verify after rotation, batch, B bet and history, video poker, stats',
    needsClock: false,
    run: betsAndFairness,
    endpoints: [
      'faucet.B.register',
      'casino.A.balance',
      ...GAMES.map(([path]) => `casino.A.game.${path.replaceAll('-', '_')}` as 'casino.A.game.dice'),
      'casino.A.fairness.verify',
      'casino.A.fairness.rotate',
      'casino.A.batch',
      'casino.B.bet',
      'casino.B.history',
      'casino.A.video-poker.deal',
      'casino.A.video-poker.draw',
      'casino.A.stats.me',
      'casino.A.kelly.limits',
      'casino.A.fairness.seeds',
      'casino.A.referral.code',
    ],
  },
  {
    kind: 'script',
    name: 'casino account: deposit address, chains, withdraw with the 0.50 fee, withdrawals, ledger',
    needsClock: false,
    run: account,
    endpoints: [
      'casino.A.deposit-address',
      'casino.A.supported-chains',
      'casino.A.withdraw',
      'casino.A.withdrawals',
      'casino.A.ledger',
      'casino.A.deposits',
    ],
  },
  {
    kind: 'script',
    name: 'time: a challenge pays 2x minus 2%, a tournament pays its prizes at its end',
    needsClock: true,
    run: tournamentAndChallenge,
    endpoints: [
      'casino.A.challenges.create',
      'casino.A.challenges.accept',
      'casino.A.challenges.decline',
      'casino.A.stats.session',
      'casino.A.tournaments.create',
      'casino.A.tournaments.enter',
      'casino.A.tournaments.play',
      'casino.A.tournaments.get',
    ],
  },
];
