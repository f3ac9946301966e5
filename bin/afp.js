#!/usr/bin/env -S node --max-semi-space-size=32
// The `afp` command. Why plain JavaScript that any Node parses: an older Node must get one clear
// line, not a stack trace. Installed from the package, it runs the built JavaScript in dist/
// (Node 22.13 or later: node:sqlite without a flag). In a clone it runs the TypeScript sources by
// Node 24's type stripping (the `node` dev dependency, first on PATH under npm and npx), so an
// edit needs no build. The 32 MiB young-generation semi-space suits afp's request path, which
// makes many short-lived objects (docs/decisions/tooling.md, "Runtime").
import { existsSync } from 'node:fs';
import module from 'node:module';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`afp needs Node 22.13 or later (this is Node ${process.versions.node})\n`);
  process.exit(1);
}

// Compiled code is cached on disk (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE=dir):
// from the second run on, afp loads its modules in about half the time (1.1 s -> 0.6 s here), and
// so do `afp sweep`'s worker threads and afp's child processes, which inherit the directory
// through the environment. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
const cache = module.enableCompileCache?.();
if (cache?.directory !== undefined) process.env.NODE_COMPILE_CACHE ??= cache.directory;

const sources = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(sources) && process.features.typescript) {
  await import(sources.href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    existsSync(sources)
      ? `afp: Node ${process.versions.node} cannot run afp's TypeScript sources and this clone has no build: run \`npm ci\` (it brings Node 24) or \`npm run build\`\n`
      : `afp: the package is incomplete (no dist/src/cli/main.js); reinstall it\n`,
  );
  process.exit(1);
}
