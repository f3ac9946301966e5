/**
 * The URL of one of afp's own modules, for what takes a URL rather than an import (worker threads,
 * game sources handed to workers). Why: afp runs from its TypeScript sources in a clone (Node's
 * type stripping) and from built JavaScript in the installed package; `rewriteRelativeImportExtensions`
 * rewrites import specifiers but not URL strings, so the extension follows the calling module's own.
 */
export function moduleUrl(relativeWithoutExtension: string, base: string): URL {
  const extension = new URL(base).pathname.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`${relativeWithoutExtension}${extension}`, base);
}
