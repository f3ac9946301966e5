#!/usr/bin/env node
// The `afp` command: Node 24 (the project's `node` dev dependency, first on PATH under npm and
// npx) runs the TypeScript entry directly by type stripping.
import '../src/cli/main.ts';
