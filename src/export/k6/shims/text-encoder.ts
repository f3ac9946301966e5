/**
 * TextEncoder for the k6 bundle (k6's runtime has none): UTF-8 by hand, as @noble/hashes itself
 * encodes through TextEncoder (so it cannot be the shim's own encoder). esbuild injects it where
 * bundled code names the global (k6-bundle.ts). Lone surrogates become U+FFFD, as in browsers.
 */
class Utf8Encoder {
  readonly encoding = 'utf-8';

  encode(text = ''): Uint8Array {
    const bytes: number[] = [];
    for (const character of text) {
      let code = character.codePointAt(0) ?? 0xfffd;
      if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
      if (code < 0x80) bytes.push(code);
      else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
      else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
      else
        bytes.push(
          0xf0 | (code >> 18),
          0x80 | ((code >> 12) & 0x3f),
          0x80 | ((code >> 6) & 0x3f),
          0x80 | (code & 0x3f),
        );
    }
    return Uint8Array.from(bytes);
  }
}

export { Utf8Encoder as TextEncoder };
