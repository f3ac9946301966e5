/**
 * The rules the deployed dialect's casino publishes and plays (DeployedCasinoRules). Published: the
 * platform's `config.casino.deployedRules` (`afp serve --dialect deployed --rules FILE`), else the
 * rules DEPLOYED.md publishes; the stand-in's own verify replays bets by them. Played: the same,
 * perturbed by the deployment-style defects that change a game (tests and demos only):
 * `payout-table-differs` pays a winning coin flip 2.00x, `keno-short-draw` draws keno from 1..79 —
 * so its verify sees those bets differ. Every deployed game, batch, video-poker and tournament row
 * plays by `deployedRulesOf`.
 */
import {
  PUBLISHED_DEPLOYED_RULES,
  withRuleOverrides,
  type DeployedCasinoRules,
} from '../../../services/casino/deployed/deployed-casino-rules.ts';
import type { RouteContext } from '../../route.ts';

export function publishedRulesOf(context: RouteContext): DeployedCasinoRules {
  return context.platform.config.casino.deployedRules ?? PUBLISHED_DEPLOYED_RULES;
}

/** One perturbed copy per published value and defect set (the bet path asks on every bet). */
const perturbed = new WeakMap<DeployedCasinoRules, Map<string, DeployedCasinoRules>>();

export function deployedRulesOf(context: RouteContext): DeployedCasinoRules {
  const published = publishedRulesOf(context);
  const defects = context.platform.context.defects;
  const payout = defects.has('payout-table-differs');
  const shortKeno = defects.has('keno-short-draw');
  if (!payout && !shortKeno) return published;
  const copies = perturbed.get(published) ?? new Map<string, DeployedCasinoRules>();
  perturbed.set(published, copies);
  const key = `${payout}:${shortKeno}`;
  let rules = copies.get(key);
  if (rules === undefined) {
    rules = withRuleOverrides(published, {
      casino: { ...(payout ? { coin_flip: { payout: 2 } } : {}), ...(shortKeno ? { keno: { numbers: 79 } } : {}) },
    });
    copies.set(key, rules);
  }
  return rules;
}
