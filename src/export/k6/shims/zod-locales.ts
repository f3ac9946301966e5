/**
 * zod's locales inside the k6 bundle: English only. zod re-exports every language's messages
 * (a quarter of the bundle, parsed again by every k6 VU); afp configures English and never
 * another, so k6-bundle.ts resolves zod's locales index here.
 */
export { default as en } from 'zod/v4/locales/en.js';
