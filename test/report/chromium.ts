// Headless Chromium for the browser checks of afp's HTML reports (report.html, findings.html):
// finding Debian's chromium, running it in its own process group with a timeout, checking that no
// process of a run outlives it, reading attributes off the dumped DOM, and decoding its PNG
// screenshots. When the checks run or are skipped is chromium-presence.ts's rule (CHROMIUM_SKIPPED):
// skipped without Chromium or with AFP_SKIP_CHROMIUM=1, never under .ci/run (AFP_REQUIRE_CHROMIUM=1), where a missing one fails.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { chromiumSkipReason, findChromium } from './chromium-presence.ts';

export const CHROMIUM_SKIP_REASON = chromiumSkipReason();
export const CHROMIUM_SKIPPED = CHROMIUM_SKIP_REASON !== undefined;
export const CHROMIUM_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** Live (not zombie) processes whose command line mentions `marker`. Linux /proc. */
function liveProcessesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const state = /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
      if (commandLine.includes(marker) && state !== 'Z') found.push(`${pid} ${commandLine.slice(0, 160)}`);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

export interface ChromiumRun {
  readonly stdout: string;
  readonly stderr: string;
  readonly commandLine: string;
}

/**
 * Runs chromium in its own process group (spawn with `detached`: execFile does not pass that
 * option on), collecting its output; kills the whole group on timeout and after it exits, so no
 * renderer or zygote outlives the run.
 */
export async function runChromium(binary: string, args: readonly string[]): Promise<ChromiumRun> {
  const commandLine = [binary, ...args].join(' ');
  const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes <= MAX_OUTPUT_BYTES) stdout.push(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_000);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(
        new Error(
          `${commandLine}\ndid not finish within ${CHROMIUM_TIMEOUT_MS} ms: its process group was killed\n${stderr}`,
        ),
      );
    }, CHROMIUM_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`${commandLine}\ncould not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid);
      if (code === 0 && stdoutBytes <= MAX_OUTPUT_BYTES)
        resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr, commandLine });
      else
        reject(new Error(`${commandLine}\nexited with ${code ?? signal} (${stdoutBytes} bytes of output)\n${stderr}`));
    });
  });
}

export async function waitForNoProcessWith(marker: string): Promise<string[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const live = liveProcessesWith(marker);
    if (live.length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return liveProcessesWith(marker);
}

// ---- reading the results ----

export function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)="([^"]*)"/g)) found[match[1] ?? ''] = match[2] ?? '';
  return found;
}

export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  /** Pixels with a clear colour (max − min channel > 48): chart lines and bands, not grey text. */
  readonly colouredPixels: number;
  /** The rightmost column holding anything but near-white (a channel below 240); −1 on a blank image. */
  readonly rightmostInkX: number;
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

function unfilterRow(filter: number, row: Buffer, previous: Buffer | undefined, channels: number): void {
  for (let x = 0; x < row.length; x += 1) {
    const left = x >= channels ? (row[x - channels] ?? 0) : 0;
    const up = previous?.[x] ?? 0;
    const upLeft = x >= channels ? (previous?.[x - channels] ?? 0) : 0;
    const predictor =
      filter === 1
        ? left
        : filter === 2
          ? up
          : filter === 3
            ? (left + up) >> 1
            : filter === 4
              ? paeth(left, up, upLeft)
              : 0;
    row[x] = ((row[x] ?? 0) + predictor) & 0xff;
  }
}

/** A minimal PNG decoder: 8-bit RGB or RGBA, not interlaced (what Chromium writes). */
export function decodePng(png: Buffer): DecodedPng {
  expect(
    png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    'PNG signature',
  ).toBe(true);
  expect(png.toString('latin1', 12, 16), 'first chunk is IHDR').toBe('IHDR');
  const [width, height, depth, colourType, interlace] = [
    png.readUInt32BE(16),
    png.readUInt32BE(20),
    png[24],
    png[25],
    png[28],
  ];
  expect({ depth, interlace, rgb: colourType === 2 || colourType === 6 }).toEqual({
    depth: 8,
    interlace: 0,
    rgb: true,
  });
  const channels = colourType === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT')
      idat.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  expect(raw.length, 'inflated image data size').toBe(height * (stride + 1));
  const filters = new Set<number>();
  let previous: Buffer | undefined;
  let colouredPixels = 0;
  let rightmostInkX = -1;
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)] ?? 255;
    filters.add(filter);
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    unfilterRow(filter, row, previous, channels);
    for (let x = 0; x < stride; x += channels) {
      const r = row[x] ?? 0;
      const g = row[x + 1] ?? 0;
      const b = row[x + 2] ?? 0;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 48) colouredPixels += 1;
      if (Math.min(r, g, b) < 240 && x / channels > rightmostInkX) rightmostInkX = x / channels;
    }
    previous = row;
  }
  expect(
    [...filters].every((filter) => filter <= 4),
    `PNG row filters ${[...filters].join(',')}`,
  ).toBe(true);
  return { width, height, colouredPixels, rightmostInkX };
}

export function requireChromium(): string {
  const chromium = findChromium();
  expect(
    chromium,
    "chromium is not on PATH, and under .ci/run (AFP_REQUIRE_CHROMIUM=1) the browser checks may not be skipped: install Debian's chromium (apt-get install chromium; .ci/run does it when missing)",
  ).toBeDefined();
  return chromium ?? '';
}

export function chromiumArgs(directory: string, window: { readonly width: number; readonly height: number }): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--hide-scrollbars',
    '--no-first-run',
    '--disable-extensions',
    '--force-device-scale-factor=1',
    `--user-data-dir=${join(directory, 'profile')}`,
    '--virtual-time-budget=5000',
    `--window-size=${window.width},${window.height}`,
  ];
}
