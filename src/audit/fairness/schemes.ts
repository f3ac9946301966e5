/**
 * The fairness schemes by name (STYLE rule 6: a table): a target file names its scheme
 * (`fairness: afp | deployed`) and every live command verifies that target's bets through it.
 */
import { AFP_SCHEME } from './afp-scheme.ts';
import { DEPLOYED_SCHEME } from './deployed-scheme.ts';
import type { FairnessScheme, FairnessSchemeName } from './scheme.ts';

const SCHEMES: { readonly [N in FairnessSchemeName]: FairnessScheme } = { afp: AFP_SCHEME, deployed: DEPLOYED_SCHEME };

export function schemeByName(name: FairnessSchemeName): FairnessScheme {
  return SCHEMES[name];
}
