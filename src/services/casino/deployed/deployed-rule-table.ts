/**
 * The deployed casino's 17 games and its parlay as DeployedRules of one DeployedCasinoRules value
 * (STYLE rule 6: one row per game; the parlay's legs are played by the rows of their own games). Tables are made once per rules value (a WeakMap): the live audit's table is
 * that of PUBLISHED_DEPLOYED_RULES, a stand-in's that of its --rules file.
 */
import { blackjackRule, baccaratRule } from './card-games.ts';
import type { DeployedCasinoRules } from './deployed-casino-rules.ts';
import type { DeployedRule } from './deployed-rule.ts';
import { minesRule } from './mines-rule.ts';
import { parlayRule } from './parlay-rule.ts';
import { hiloRule, kenoRule, scratchCardRule } from './nonce-games.ts';
import {
  coinFlipRule,
  crashRule,
  customRule,
  diceRule,
  multiplierRule,
  rouletteRule,
  simpleDiceRule,
  wheelRule,
} from './roll-games.ts';
import { plinkoRule, slotsRule } from './subdraw-games.ts';
import { videoPokerRule } from './video-poker-rule.ts';

export type DeployedRuleTable = ReadonlyMap<string, DeployedRule>;

const tables = new WeakMap<DeployedCasinoRules, DeployedRuleTable>();

function build({ casino }: DeployedCasinoRules): DeployedRuleTable {
  const rules: readonly DeployedRule[] = [
    coinFlipRule(casino.coin_flip),
    diceRule(casino.dice),
    simpleDiceRule(casino.simple_dice),
    multiplierRule(casino.multiplier),
    rouletteRule(casino.roulette),
    customRule(casino.custom),
    blackjackRule(casino.blackjack),
    crashRule(casino.crash),
    plinkoRule(casino.plinko),
    slotsRule(casino.slots),
    hiloRule(casino.hilo),
    kenoRule(casino.keno),
    scratchCardRule(casino.scratch_card),
    videoPokerRule(casino.video_poker),
    wheelRule(casino.wheel),
    minesRule(casino.mines),
    baccaratRule(casino.baccarat),
  ];
  const table = new Map(rules.map((rule) => [rule.game, rule]));
  table.set(
    'parlay',
    parlayRule(casino, (game) => table.get(game)),
  );
  return table;
}

/** The rules of every game under `rules`. */
export function deployedRuleTable(rules: DeployedCasinoRules): DeployedRuleTable {
  let table = tables.get(rules);
  if (table === undefined) {
    table = build(rules);
    tables.set(rules, table);
  }
  return table;
}
