#!/usr/bin/env -S node --max-semi-space-size=32
// The `afp` command: Node 24 (the project's `node` dev dependency, first on PATH under npm and
// npx) runs the TypeScript entry directly by type stripping. The 32 MiB young-generation
// semi-space suits afp's request path, which makes many short-lived objects: fewer scavenges and
// less promotion (docs/decisions.md, "Runtime").
import '../src/cli/main.ts';
