/**
 * @noble/curves/utils.js as the curve constructors (abstract/weierstrass.js, abstract/edwards.js)
 * see it inside the k6 bundle: the same module, with a `randomBytes` that refuses. The esbuild
 * plugin of k6-bundle.ts maps their `../utils.js` here.
 *
 * Why: with a random source, noble blinds every secret-scalar multiplication (scalar + r·n, 128
 * bits more), so each base-point multiplication walks 97 windows instead of 65 and each VU builds
 * a table half as large again; a wallet's keys take 9 such multiplications, and goja's BigInt is
 * the k6 VU's cost of a wallet. Blinding guards a secret key against timing side channels: a load
 * test's agents derive throwaway keys of a simulated wallet, and the keys are the same either way
 * (test/export/k6-native-hashes.test.ts compares them with Node's). noble probes the source once
 * when it builds a curve and, finding none, multiplies in constant time without blinding (and
 * signs with a constant-time inversion); nothing in the bundle draws a random key from noble.
 */
export * from '@noble/curves/utils.js';

/** noble's random source inside the k6 bundle: none (see above); a call is a bug in the bundle's reach. */
export function randomBytes(): Uint8Array {
  throw new Error('the k6 bundle gives noble curves no random source: they multiply without blinding');
}
