/**
 * Types for the part of snappyjs 0.7.0 (a CommonJS package without declarations) that afp uses:
 * `compress`, Snappy's block format (what Prometheus remote write 1.0 asks for, not the framed
 * stream format), returning the same kind of buffer it is given.
 */
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
  export function uncompress(input: Uint8Array): Uint8Array;
  const snappy: { compress: typeof compress; uncompress: typeof uncompress };
  export default snappy;
}
