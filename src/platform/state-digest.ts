/**
 * A digest of a platform's whole state: SHA-256 of its state-codec text in the inline form (plain
 * records written out wherever met: their sharing comes from process-wide parse memos, not from
 * the state) with the transient fields (the Authorization memo) written empty. Equal digests mean equal states, which is how the tests
 * prove that a recovery from a checkpoint plus the log's tail, a full replay of the log and the
 * live server hold the same platform, and that time travel leaves the state a linear history has.
 * The text is written without recursion (state-codec.ts encodeStateText): a rate limiter holding
 * thousands of entries (their list by last use) made the digest fail with a too-deep nesting.
 */
import { createHash } from 'node:crypto';
import type { Platform } from './platform.ts';
import { encodeStateText } from './state-codec.ts';
import { PLATFORM_TRANSIENT, stateClassRegistry } from './state-classes.ts';

export function platformStateText(platform: Platform): string {
  return encodeStateText(platform, stateClassRegistry(), PLATFORM_TRANSIENT, { inline: true });
}

export function platformDigest(platform: Platform): string {
  return createHash('sha256').update(platformStateText(platform)).digest('hex');
}
