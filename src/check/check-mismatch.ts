/**
 * The check model's one failure: a target's answer (or a read-back) differs from the prediction.
 * A returned outcome cannot carry it through fast-check's command runner, so it is thrown, and
 * the frame (model-command.ts) turns it into a failed check. Why a file of its own: the model's
 * parts (casino, time) throw it and the frame catches it, without importing each other.
 */
export class CheckMismatch extends Error {
  override readonly name = 'CheckMismatch';
}
