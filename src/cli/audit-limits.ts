/**
 * The limits the audits' flags share (the time budget's default, the bets in flight), in a file of
 * their own so that a command checks its flags against them without loading an audit
 * (audit-house-edge.ts re-exports them).
 */
export const MAX_SECONDS_DEFAULT = 600;
export const CONCURRENCY_DEFAULT = 4;
export const CONCURRENCY_MAX = 16;
