/**
 * The shell of every HTML report (report.html, timeline.html, load.html, findings.html): one
 * self-contained document — doctype, charset, a Content-Security-Policy that forbids every
 * network source, viewport, generator, title, inline style — around the report's own parts, and
 * the CSS rules the pages share. Why one shell: the policy and the head were copied four times
 * and drifted (one page lost its viewport); a page now differs only by what it shows.
 *
 * Invariants: pure (the bytes are a function of the arguments); empty parts are dropped (no empty
 * sections), one newline between parts and one at the end; the title and generator are escaped
 * here, so a caller passes them as plain text (bounded by its own limit); `style` and `parts` are
 * markup the caller has already escaped.
 */
import { escapeHtml } from '../html/html-text.ts';

/** Every page: no script, no network source, inline CSS only (charts are inline SVG, src/report/kit/chart.ts). */
export const STATIC_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

export interface PageShell {
  readonly policy: typeof STATIC_PAGE_POLICY;
  /** Plain text, e.g. `afp 0.1.0`. */
  readonly generator: string;
  /** Plain text. */
  readonly title: string;
  readonly style: string;
  /** Markup after `<body`, e.g. ` class="wide"`; empty for none. */
  readonly bodyAttributes?: string;
  /** Markup: when given, the page opens with a header of the title (as h1) and this subtitle. */
  readonly subtitle?: string;
  readonly parts: readonly string[];
}

export function renderPage(page: PageShell): string {
  return `${[
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${page.policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="${escapeHtml(page.generator)}">`,
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>\n${page.style}\n</style>`,
    '</head>',
    `<body${page.bodyAttributes ?? ''}>`,
    page.subtitle === undefined
      ? ''
      : `<header>\n<h1>${escapeHtml(page.title)}</h1>\n<p class="subtitle">${page.subtitle}</p>\n</header>`,
    ...page.parts,
    '</body>',
    '</html>',
  ]
    .filter((part) => part !== '')
    .join('\n')}\n`;
}

/** The CSS rules the pages share; a page's STYLE composes them with its own. */
export const PAGE_CSS = {
  /** System fonts, centred, at most `maxWidthPx` wide. */
  body: (maxWidthPx: number): string =>
    `body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 0 auto; max-width: ${maxWidthPx}px; padding: 16px 24px; color: #1d1d1f; }`,
  h1: (fontSize: string): string => `h1 { font-size: ${fontSize}; margin-bottom: 4px; }`,
  h2: (marginTop: string): string =>
    `h2 { border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: ${marginTop}; }`,
  subtitle: '.subtitle { color: #555; margin-top: 0; white-space: pre-wrap; }',
  caption: 'caption { text-align: left; font-weight: 600; padding: 4px 0; }',
  note: '.note { color: #666; font-size: 0.9em; }',
  footer: 'footer { margin-top: 32px; color: #777; font-size: 0.85em; }',
} as const;

/** The generator a page names: `afp`, with its version when known. */
export function generatorOf(afpVersion: string | undefined): string {
  return afpVersion === undefined ? 'afp' : `afp ${afpVersion}`;
}
