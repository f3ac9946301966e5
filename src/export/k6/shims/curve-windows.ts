/**
 * The base-point windows of a wallet's two curves inside the k6 bundle: 4 in place of noble's 6.
 * The k6 entry (k6-script.ts) imports this module before the agents, for its effect only.
 *
 * Why: each VU builds a curve's base-point table in its first multiplication (the wallet
 * archetypes' warm-up, at init). In goja a window of 6 made that cost about 0.5 s of CPU per VU,
 * 4 about 0.33 s, while each later multiplication costs about the same (~0.15 s a wallet: a window
 * of 4 adds a few point additions). A VU derives only its own agents' wallets, a few. Node keeps
 * noble's default (many derivations per process, where the larger table pays). Those figures are
 * with noble's scalar blinding, which the bundle turns off (curve-random.ts): tables and
 * multiplications a third smaller again.
 * The keys do not depend on the window (test/export/k6-native-hashes.test.ts compares them on k6).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';

const BASE_WINDOW = 4;
secp256k1.Point.BASE.precompute(BASE_WINDOW);
ed25519.Point.BASE.precompute(BASE_WINDOW);
