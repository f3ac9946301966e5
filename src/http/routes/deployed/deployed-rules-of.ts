/**
 * The rules the deployed dialect's casino plays (DeployedCasinoRules): the platform's
 * `config.casino.deployedRules` (`afp serve --dialect deployed --rules FILE`), else the rules
 * DEPLOYED.md publishes. Every deployed game, batch, video-poker and fairness row reads them here.
 */
import { PUBLISHED_DEPLOYED_RULES, type DeployedCasinoRules } from '../../../services/casino/deployed/deployed-casino-rules.ts';
import type { RouteContext } from '../../route.ts';

export function deployedRulesOf(context: RouteContext): DeployedCasinoRules {
  return context.platform.config.casino.deployedRules ?? PUBLISHED_DEPLOYED_RULES;
}
