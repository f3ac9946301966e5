// Why: the k6 bundle's hashing shims call k6's own native hashing (`k6/crypto`, external to the
// bundle, provided by k6 at run time); this declares the calls they make.
declare module 'k6/crypto' {
  /** SHA-512 of `data`, computed by k6 in Go; 'binary' answers an ArrayBuffer. */
  export function sha512(data: ArrayBuffer, outputEncoding: 'binary'): ArrayBuffer;
  /** SHA-256 of `data`, computed by k6 in Go; 'binary' answers an ArrayBuffer. */
  export function sha256(data: ArrayBuffer, outputEncoding: 'binary'): ArrayBuffer;
  /** HMAC of `data` under `secret`, computed by k6 in Go; 'binary' answers an ArrayBuffer. */
  export function hmac(
    algorithm: 'sha512',
    secret: ArrayBuffer,
    data: ArrayBuffer,
    outputEncoding: 'binary',
  ): ArrayBuffer;
}
