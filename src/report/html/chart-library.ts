/**
 * The charting library of report.html: Chart.js, read as text from node_modules so the report can
 * inline it and open offline.
 *
 * The UMD build (dist/chart.umd.min.js) defines `window.Chart` with every chart type, scale and
 * plugin registered. Its version is pinned exactly in package.json, so the inlined bytes — and
 * thus a report's bytes — change only when someone bumps it. The trailing source-map comment is
 * dropped (the .map file is not shipped with a report). The file is read once per process.
 * Invariant: `code` is the file's text minus that comment, and the file's banner names `version`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { assert } from '../../core/assert.ts';

export interface ChartLibrary {
  readonly name: string;
  readonly version: string;
  /** JavaScript source that defines the global `Chart` (not yet escaped for HTML). */
  readonly code: string;
}

export const CHART_LIBRARY_PACKAGE = 'chart.js';
export const CHART_LIBRARY_FILE = 'dist/chart.umd.min.js';

let loaded: ChartLibrary | undefined;

/** Directory of the installed chart.js package (its exports map hides package.json itself). */
export function chartLibraryDirectory(): string {
  const entry = createRequire(import.meta.url).resolve(CHART_LIBRARY_PACKAGE); // <pkg>/dist/chart.cjs
  return dirname(dirname(entry));
}

export function loadChartLibrary(): ChartLibrary {
  if (loaded !== undefined) return loaded;
  const directory = chartLibraryDirectory();
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version?: unknown };
  const version = manifest.version;
  assert(typeof version === 'string', 'chart.js package.json has no version');
  const text = readFileSync(join(directory, CHART_LIBRARY_FILE), 'utf8');
  assert(text.includes(`Chart.js v${version}`), `${CHART_LIBRARY_FILE} is not Chart.js ${version}`);
  const code = text.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
  loaded = { name: 'Chart.js', version, code };
  return loaded;
}
