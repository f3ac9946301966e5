/**
 * Injected first into the k6 bundle (k6-bundle.ts): zod without its JIT. zod compiles a parser
 * per object schema with `new Function` on first use; a k6 VU is a fresh goja runtime that
 * parses each schema a few times in a short run, so every VU paid the compiles in its first
 * iterations (seconds of a short window). Set before any schema is built (zod reads it then).
 */
import { config } from 'zod/v4/core';

config({ jitless: true });
