/**
 * A digest of a platform's whole state: SHA-256 of its state-codec text in the inline form (plain
 * records written out wherever met: their sharing comes from process-wide parse memos, not from
 * the state) with the transient fields (the Authorization memo) written empty. Equal digests mean equal states, which is how the tests
 * prove that a recovery from a checkpoint plus the log's tail, a full replay of the log and the
 * live server hold the same platform, and that time travel leaves the state a linear history has.
 * The text is written without recursion (state-codec.ts encodeStateText): a rate limiter holding
 * thousands of entries (their list by last use) made the digest fail with a too-deep nesting.
 * `platformDigestSliced` takes it in steps (afp serve's GET /_afp/digest under its platform lock):
 * the text is hashed as it is written, so the digest is the same and the text is never held whole.
 */
import { createHash } from 'node:crypto';
import type { Platform } from './platform.ts';
import { encodeStateText, stateTextSliced } from './state-codec.ts';
import { PLATFORM_TRANSIENT, stateClassRegistry } from './state-classes.ts';

export function platformStateText(platform: Platform): string {
  return encodeStateText(platform, stateClassRegistry(), PLATFORM_TRANSIENT, { inline: true });
}

export function platformDigest(platform: Platform): string {
  return createHash('sha256').update(platformStateText(platform)).digest('hex');
}

/** `platformDigest` in steps of about `units` items of text; the platform must not change between them. */
export function platformDigestSliced(platform: Platform): { step(units: number): boolean; result(): string } {
  const hash = createHash('sha256');
  const text = stateTextSliced(platform, stateClassRegistry(), PLATFORM_TRANSIENT, { inline: true });
  let digest: string | null = null;
  return {
    step: (units) => {
      const done = text.step(units);
      hash.update(text.text);
      text.text = '';
      if (done) digest = hash.digest('hex');
      return done;
    },
    result: () => {
      if (digest === null) throw new Error('a sliced digest is read before its last step');
      return digest;
    },
  };
}
