/**
 * Casino Kelly rows, style A (NOTES.md "Kelly limit"): the limits of every game variant for the
 * caller's bankroll and risk factor, the optimal bet for one game, setting the risk factor (0.1
 * to 1.0), the bankroll curve, and a seeded, deterministic Monte Carlo simulation. The formulas
 * live in src/services/casino/kelly/; these rows only read the caller's state.
 */
import { isFailure, succeed, type Failure, type JsonObject } from '../../../core/errors.ts';
import type { Ratio } from '../../../core/ratio.ts';
import { findGame, GAMES } from '../../../services/casino/games/index.ts';
import { riskFactorOf } from '../../../services/casino/kelly-rule.ts';
import { kellyHistoryView } from '../../../services/casino/kelly/kelly-history.ts';
import {
  kellyOptimalView,
  parseOptimalRequest,
  type OptimalRequest,
} from '../../../services/casino/kelly/kelly-optimal.ts';
import {
  kellySimulateView,
  parseSimulateRequest,
  simulationRng,
  type SimulateRequest,
} from '../../../services/casino/kelly/kelly-simulate.ts';
import { kellyConfigView, kellyLimitsView } from '../../../services/casino/kelly/kelly-view.ts';
import { parseRiskFactor } from '../../../services/casino/kelly/risk-factor.ts';
import { listCall } from '../../list-call.ts';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../../route.ts';
import { knownQuery, NO_KEYS, objectBody } from '../../validate.ts';
import { casinoCaller } from './casino-games.ts';

const noQuery = (input: RouteInput): null | Failure => knownQuery(input.query, NO_KEYS) ?? null;
const bodyOnly = <T>(input: RouteInput, parse: (body: unknown) => T | Failure): T | Failure =>
  knownQuery(input.query, NO_KEYS) ?? parse(input.body);

function balanceOf(context: RouteContext): bigint {
  return context.platform.casino.balanceMicro(casinoCaller(context));
}

const limits = defineRoute<null, null>({
  id: 'casino.A.kelly.limits',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'GET',
  path: '/api/v1/kelly/limits',
  auth: 'bearer',
  summary: 'The Kelly limit of every game variant for your bankroll and risk factor.',
  parse: noQuery,
  run: () => succeed(null),
  successStatus: 200,
  render: (_value, context) =>
    kellyLimitsView(balanceOf(context), riskFactorOf(context.platform.casino.state, casinoCaller(context)), GAMES),
});

const optimal = defineRoute<OptimalRequest, OptimalRequest>({
  id: 'casino.A.kelly.optimal',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/kelly/optimal',
  auth: 'bearer',
  summary: 'The optimal (Kelly-limited) bet for one game ({ game, ...params, risk_factor?, bankroll? }).',
  parse: (input) => bodyOnly(input, (body) => parseOptimalRequest(body, findGame)),
  run: (_context, request) => succeed(request),
  successStatus: 200,
  render: (request, context) =>
    kellyOptimalView(request, {
      balanceMicro: balanceOf(context),
      riskFactor: riskFactorOf(context.platform.casino.state, casinoCaller(context)),
    }),
});

const CONFIG_KEYS = ['risk_factor'];

const config = defineRoute<Ratio, Ratio>({
  id: 'casino.A.kelly.config',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'PUT',
  path: '/api/v1/kelly/config',
  auth: 'bearer',
  summary: 'Set your risk factor ({ risk_factor: 0.1 to 1.0 }); answers the new limits.',
  parse: (input) =>
    bodyOnly(input, (body) => {
      const fields = objectBody(body, CONFIG_KEYS);
      return isFailure(fields) ? fields : parseRiskFactor(fields['risk_factor']);
    }),
  run: (context, riskFactor) => {
    context.platform.casino.setRiskFactor(casinoCaller(context), riskFactor);
    return succeed(riskFactor);
  },
  successStatus: 200,
  render: (riskFactor, context) => kellyConfigView(balanceOf(context), riskFactor, GAMES),
});

const history = listCall(
  { items: ['history'], count: 'count', keep: 'last' },
  defineRoute<null, null>({
    id: 'casino.A.kelly.history',
    service: 'casino',
    style: 'A',
    mount: 'casino',
    method: 'GET',
    path: '/api/v1/kelly/history',
    auth: 'bearer',
    summary: 'Your bankroll curve: the balance after each bet (the last 500).',
    parse: noQuery,
    run: () => succeed(null),
    successStatus: 200,
    render: (_value, context): JsonObject =>
      kellyHistoryView(context.platform.casino.state.kellyHistory.get(casinoCaller(context))?.points() ?? []),
  }),
);

const simulate = defineRoute<SimulateRequest, JsonObject>({
  id: 'casino.A.kelly.simulate',
  service: 'casino',
  style: 'A',
  mount: 'casino',
  method: 'POST',
  path: '/api/v1/kelly/simulate',
  auth: 'bearer',
  summary:
    'Monte Carlo of flat bets ({ bankroll, game, ...params, bet_amount, num_bets, simulations?, seed? }); seeded and deterministic.',
  // The caller's tier sets the request's budget of simulated bets (kelly-simulate.ts).
  parse: (input, context) =>
    bodyOnly(input, (body) => parseSimulateRequest(body, findGame, context.caller?.tier ?? 'free')),
  run: (context, request) => {
    const state = context.platform.casino.state;
    const agentId = casinoCaller(context);
    const run = (state.simulationsRun.get(agentId) ?? 0) + 1;
    state.simulationsRun.set(agentId, run);
    return succeed(
      kellySimulateView(request, simulationRng(request, state.rng.fork(`kelly-simulate/${agentId}/${run}`))),
    );
  },
  successStatus: 200,
  render: (view) => structuredClone(view),
});

export const casinoKellyRoutes: readonly Route[] = [limits, optimal, config, history, simulate];
