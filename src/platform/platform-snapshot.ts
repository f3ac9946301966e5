/**
 * The in-memory snapshot of a whole Platform (every service, agent, balance, limiter bucket,
 * scheduled timer with its sequence numbers, rng stream position, casino book...) and the way
 * back to it, for afp serve's time travel (src/server/time-travel.ts).
 *
 * Why a graph copy and not a rebuild: the platform is one object graph of data (graph-copy.ts
 * proves it as it copies: a function or an unknown kind anywhere in it throws), so a deep copy
 * that keeps prototypes and shared references is the state. A restore copies the image again,
 * INTO the live Platform object: the dispatcher, the timer pump and the admin rows keep their
 * reference to it, and the image stays intact for another revert.
 * Both ways also come in steps (`captureSliced`, `restoreSliced`: graph-copy.ts's SlicedCopy), for
 * afp serve to run between other work; the live platform must not change between two steps, and a
 * restore changes nothing of it before its last step.
 * Non-goals: listeners added with `Platform.onEvent` or `ledger.onTransfer` from outside (the
 * simulator's monitors) are not state — a platform carrying them refuses to be copied (afp serve
 * adds none); bytes on disk are state-codec.ts's job.
 */
import { copyGraphIntoSliced, copyToEnd, copyGraphSliced, type SlicedCopy } from './graph-copy.ts';
import type { Platform } from './platform.ts';

/** A frozen-in-time copy of a platform; only `restorePlatform` reads it. */
export class PlatformImage {
  /** The platform's instant when it was taken. */
  readonly atMs: number;
  readonly copy: Platform;

  constructor(copy: Platform) {
    this.copy = copy;
    this.atMs = copy.nowMs;
  }
}

/** A copy of `platform` as it is now (throws GraphCopyError if it holds what cannot be copied: a bug). */
export function capturePlatform(platform: Platform): PlatformImage {
  return copyToEnd(captureSliced(platform));
}

/** `capturePlatform` in steps: the image once the last step is done. */
export function captureSliced(platform: Platform): SlicedCopy<PlatformImage> {
  const copy = copyGraphSliced(platform);
  return { step: (units) => copy.step(units), result: () => new PlatformImage(copy.result()) };
}

/** Makes `live` what `image` was: every field replaced by a fresh copy of the image's. */
export function restorePlatform(image: PlatformImage, live: Platform): void {
  copyToEnd(restoreSliced(image, live));
}

/** `restorePlatform` in steps: `live` is unchanged until the last one, which sets every field at once. */
export function restoreSliced(image: PlatformImage, live: Platform): SlicedCopy<void> {
  return copyGraphIntoSliced(image.copy, live);
}

/**
 * Makes `live` the platform `fresh` is (a reset: `fresh` is a new Platform of the same settings),
 * in steps: `live` is unchanged until the last one.
 */
export function replaceSliced(fresh: Platform, live: Platform): SlicedCopy<void> {
  return copyGraphIntoSliced(fresh, live);
}
