/**
 * The exported k6 script's bundle: a small entry (k6-script.ts writes it: the options, the
 * scenario, the glue to k6's modules) plus afp's agents, client, route names and the one agent
 * runtime, bundled by esbuild into one ES module k6 runs as is.
 *
 * k6 has no node:* modules, no TextEncoder and no Buffer: node:crypto, node:util and node:net
 * resolve to the pure-JS shims of ./shims/ (@noble/hashes), and TextEncoder and Buffer are
 * injected where code names them. zod's locales are English only (shims/zod-locales.ts) and its
 * JIT off (shims/zod-jitless.ts). The script carries the scenario as parsed at export, so no YAML
 * reader and no scenario schema is bundled. Requests are named by the route rows without their
 * handlers (shims/route-rows.ts), and afp's own modules are side-effect free here: what the
 * agents and the runtime do not use is left out, with its import-time work, which every VU paid.
 * `k6`, `k6/http`, `k6/execution` stay imports, for k6 to provide. Anything else that reaches a
 * node module fails the export with esbuild's own message (never a script that breaks in k6).
 * Byte-stable: the same entry and sources give the same bytes (no timestamps, paths relative to
 * the package root). Works from the clone (.ts sources) and from the package (dist/ .js).
 */
import { build, type Plugin } from 'esbuild';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (the clone, or dist/ of the installed package: both keep src/ and agents/ under it). */
const ROOT_URL = new URL('../../../', import.meta.url);
export const SOURCE_EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** An absolute path under the package root, for the entry's imports (`src/export/k6/k6-agent-run`). */
export function rootModule(relative: string): string {
  return fileURLToPath(new URL(`${relative}${SOURCE_EXTENSION}`, ROOT_URL));
}

/** Marks the plugin's own resolve call, so it does not answer itself. */
const PURE_PROBE = Symbol('afp-pure-probe');

export type BundleResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly errors: string[] };

export async function bundleK6Script(entry: string): Promise<BundleResult> {
  const shim = (name: string): string => rootModule(`src/export/k6/shims/${name}`);
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: fileURLToPath(ROOT_URL), sourcefile: 'afp-k6-entry.js', loader: 'js' },
      absWorkingDir: fileURLToPath(ROOT_URL),
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      target: 'es2022',
      minify: true,
      legalComments: 'none',
      charset: 'utf8',
      external: ['k6', 'k6/*'],
      alias: {
        'node:crypto': shim('node-crypto'),
        'node:util': shim('node-util'),
        'node:net': shim('node-net'),
      },
      inject: [shim('zod-jitless'), shim('text-encoder'), shim('buffer')],
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [nativeShimsPlugin(shim), pureModulesPlugin(), zodEnglishPlugin(shim)],
      logLevel: 'silent',
    });
    const [file] = result.outputFiles;
    if (file === undefined) return { ok: false, errors: ['esbuild wrote no bundle'] };
    return { ok: true, text: file.text };
  } catch (error) {
    return bundleFailure(error);
  }
}

/** k6's own SHA-512 and the shims for what k6 lacks (noble's random source, node:http, the route table). */
function nativeShimsPlugin(shim: (name: string) => string): Plugin {
  return {
    // SHA-512, HMAC-SHA512 and PBKDF2 by k6 itself (shims/noble-*.ts): a shim alone reaches noble's own module.
    name: 'afp-native-sha512',
    setup(pluginBuild) {
      for (const name of ['sha2', 'hmac', 'pbkdf2']) {
        const native = shim(`noble-${name}`);
        pluginBuild.onResolve({ filter: new RegExp(`^@noble/hashes/${name}(\\.js)?$`) }, (resolved) =>
          resolved.importer === native ? undefined : { path: native },
        );
      }
      // noble's curves without a random source, so without scalar blinding (shims/curve-random.ts).
      pluginBuild.onResolve({ filter: /^\.\.\/utils\.js$/ }, (resolved) =>
        /@noble\/curves\/abstract\/(weierstrass|edwards)\.js$/.test(resolved.importer)
          ? { path: shim('curve-random') }
          : undefined,
      );
      // the client's node:http sender: k6 sends through k6/http (shims/http-connections.ts).
      pluginBuild.onResolve({ filter: /\/http-connections\.[jt]s$/ }, (resolved) =>
        /client\/http-transport\.[jt]s$/.test(resolved.importer) ? { path: shim('http-connections') } : undefined,
      );
      // endpoint-name.ts's Router over the route rows' names only (shims/route-rows.ts).
      pluginBuild.onResolve({ filter: /\/http\/routes\/index\.[jt]s$/ }, (resolved) =>
        /replay\/endpoint-name\.[jt]s$/.test(resolved.importer) ? { path: shim('route-rows') } : undefined,
      );
    },
  };
}

/** afp's own modules marked free of import-time effects, so what a script does not use is left out. */
function pureModulesPlugin(): Plugin {
  return {
    // afp's own modules have no import-time effects (no module is imported for one): a module
    // none of whose exports the script uses is left out whole, with its top-level work (the
    // route table's services and their tables, reached through a constant of platform.ts).
    name: 'afp-pure-modules',
    setup(pluginBuild) {
      const own = [fileURLToPath(new URL('src/', ROOT_URL)), fileURLToPath(new URL('agents/', ROOT_URL))];
      const shims = fileURLToPath(new URL('src/export/k6/shims/', ROOT_URL));
      const isOwn = (path: string): boolean => own.some((root) => path.startsWith(root));
      const isPure = (path: string): boolean => isOwn(path) && !path.startsWith(shims);
      pluginBuild.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === PURE_PROBE) return undefined;
        // A dependency's relative imports stay in its own package: esbuild resolves them as is.
        if (!isOwn(args.importer)) return undefined;
        // afp's own imports name their file (./x.ts; ./x.js in dist): taken as written when it
        // exists, without a second resolve through esbuild (two more messages between Node and
        // esbuild an import: about half of a bundle's CPU, ~600 imports). Else esbuild resolves it.
        const direct = join(args.resolveDir, args.path);
        if (/\.[jt]s$/.test(direct) && isPure(direct) && existsSync(direct))
          return { path: direct, sideEffects: false };
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: PURE_PROBE,
        });
        if (resolved.errors.length > 0 || !isPure(resolved.path)) return undefined;
        return { path: resolved.path, sideEffects: false };
      });
    },
  };
}

/** zod's messages in English only (shims/zod-locales.ts). */
function zodEnglishPlugin(shim: (name: string) => string): Plugin {
  return {
    name: 'afp-zod-english',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /locales\/index\.js$/ }, (resolved) =>
        resolved.importer.includes(`${'node_modules'}/zod/`) ? { path: shim('zod-locales') } : undefined,
      );
    },
  };
}

/** esbuild's errors, each with its file and line, as the result; anything else is a bug and thrown. */
function bundleFailure(error: unknown): BundleResult {
  const failures = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
  if (failures === undefined) throw error;
  return {
    ok: false,
    errors: failures.map((failure) =>
      failure.location === undefined || failure.location === null
        ? failure.text
        : `${failure.location.file}:${failure.location.line}: ${failure.text}`,
    ),
  };
}
