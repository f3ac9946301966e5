/**
 * Loading a checkpoint at a restart: the newest one this build can read whose every byte checks and
 * whose seals tie it (and the snapshot images it names) to this log at its entry; a newer one that
 * fails is skipped with the reason, and none at all means the whole log is replayed. Why a file of
 * its own: this is the recovery side of checkpoints (recovery.ts, log-salvage.ts); writing them is
 * checkpoints.ts.
 */
import { PlatformImage } from '../platform/platform-snapshot.ts';
import type { Platform } from '../platform/platform.ts';
import { stateClassRegistry } from '../platform/state-classes.ts';
import { checkpointCodec, decodeCheckpoint, stateChecksum, verifyCheckpoint } from './checkpoint-codec.ts';
import {
  checkpointSeal,
  imageSeal,
  type CheckpointHeader,
  type CheckpointSource,
  type TravelRecord,
} from './checkpoint-store.ts';
import type { SnapshotEntry, TimeTravel } from './time-travel.ts';

export interface LoadedCheckpoint {
  readonly seq: number;
  readonly atMs: number;
  readonly clockMovedMs: number;
}

/** What is wrong with a checkpoint: its own damage, or with one of the images it names (`image`: its id). */
export interface CheckpointDamage {
  readonly problem: string;
  readonly image?: string;
}

/**
 * Why checkpoint `header` (its state and the images it names) cannot be loaded whole, or null when
 * every byte of it checks and its seal and its images' seals tie it to this log at its entry
 * (checkpoint-store.ts): a checkpoint past the log's last entry, or one copied from another file
 * or row, is refused as a damaged one is.
 */
export function checkpointDamage(store: CheckpointSource, header: CheckpointHeader): CheckpointDamage | null {
  let travel: TravelRecord;
  try {
    travel = JSON.parse(header.travel) as TravelRecord;
  } catch {
    return { problem: 'damaged: its time-travel record is not JSON' };
  }
  const binding = store.logBinding(header.seq);
  if (binding === undefined)
    return { problem: `it follows entry ${header.seq}, past the log's last entry ${store.lastCommandSeq()}` };
  if (header.seal === null || header.seal === undefined)
    return { problem: 'it has no seal tying it to its log (written by an older afp; the log is replayed instead)' };
  const state = store.state(header.seq);
  if (state === undefined) return { problem: 'its state is gone' };
  const damage = verifyCheckpoint(state);
  if (damage !== null) return { problem: damage };
  if (checkpointSeal(binding, header, stateChecksum(state)) !== header.seal)
    return {
      problem: `its seal does not match this log's settings and history up to entry ${header.seq} (copied from another log, or edited)`,
    };
  for (const entry of travel.held) {
    const image = store.image(entry.id);
    if (image?.state === undefined) return { problem: `the image of ${entry.id} is missing`, image: entry.id };
    const imageDamage = verifyCheckpoint(image.state);
    if (imageDamage !== null) return { problem: `the image of ${entry.id}: ${imageDamage}`, image: entry.id };
    if (image.seal !== imageSeal(binding.metaSha256, entry.id, entry.atMs, stateChecksum(image.state)))
      return {
        problem: `the image of ${entry.id} is not the snapshot ${entry.id} of this log (copied from another snapshot or log, or edited)`,
        image: entry.id,
      };
  }
  return null;
}

/**
 * Loads the newest usable checkpoint of `log` into `platform` (a fresh one of the log's settings)
 * and `timeTravel`; null when there is none (replay everything). `skipped` lists why newer ones
 * were not used; `dirty`: a decoding failed half-way, so `platform` must be built again.
 */
export function loadCheckpoint(
  store: CheckpointSource,
  platform: Platform,
  timeTravel: TimeTravel,
): { loaded: LoadedCheckpoint | null; skipped: string[]; dirty: boolean; unusableImages: string[] } {
  const registry = stateClassRegistry();
  const codec = checkpointCodec(registry);
  const skipped: string[] = [];
  const unusableImages: string[] = [];
  for (const checkpoint of store.newestFirst()) {
    if (checkpoint.codec !== codec) {
      skipped.push(
        `checkpoint after entry ${checkpoint.seq}: written by an afp with other state classes or another layout`,
      );
      continue;
    }
    // Damage is found before anything is decoded: the previous checkpoint is then tried (and the log replayed from it).
    const damage = checkpointDamage(store, checkpoint);
    if (damage !== null) {
      skipped.push(`checkpoint after entry ${checkpoint.seq}: ${damage.problem}`);
      if (damage.image !== undefined && !unusableImages.includes(damage.image)) unusableImages.push(damage.image);
      continue;
    }
    try {
      const travel = JSON.parse(checkpoint.travel) as TravelRecord;
      const held = travel.held.map((entry): SnapshotEntry => {
        const image = store.image(entry.id);
        if (image?.codec !== codec || image.state === undefined)
          throw new Error(`the image of ${entry.id} is missing or of another codec`);
        return {
          id: entry.id,
          atMs: entry.atMs,
          image: new PlatformImage(decodeCheckpoint(image.state, registry) as Platform),
        };
      });
      const state = store.state(checkpoint.seq);
      if (state === undefined) throw new Error('its state is gone');
      decodeCheckpoint(state, registry, platform);
      timeTravel.restoreHeld(travel.lastNumber, held);
      return {
        loaded: { seq: checkpoint.seq, atMs: checkpoint.atMs, clockMovedMs: travel.clockMovedMs },
        skipped,
        dirty: false,
        unusableImages,
      };
    } catch (error) {
      // A half-decoded platform is not reused: the caller builds a fresh one for the full replay.
      skipped.push(
        `checkpoint after entry ${checkpoint.seq}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return { loaded: null, skipped, dirty: true, unusableImages };
    }
  }
  return { loaded: null, skipped, dirty: false, unusableImages };
}
