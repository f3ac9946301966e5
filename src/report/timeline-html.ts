/**
 * timeline.html: the time-line of a failing (or shrunk) run, read backwards from the failure.
 * Agents are lanes, each request a mark coloured by its status, each domain event a tick on the
 * lane of the agent it concerns, scenario faults and casino closures bands across every lane, and
 * the violation a red line at its instant with its agent's lane highlighted. Why: the summary says
 * which invariant failed and when; the time-line shows what the agents were doing around it, so a
 * shrunk run of two agents reads like a sequence diagram.
 *
 * Invariants: pure and byte-stable (no clock, fixed number formatting); self-contained and static:
 * one inline SVG, no script, nothing fetched (the kit's page shell and its policy); bounded: at
 * most TRACE_REQUESTS_MAX requests (the trace's own bound), TIMELINE_LANES_MAX lanes and
 * TIMELINE_EVENTS_MAX event ticks, each cut said in a note. Text from the run is escaped.
 * Window: from the first traced request (the run's start when the trace lost nothing) to the run's
 * end, which for a failing run is the failure's instant.
 */
import { isoTime } from '../http/render.ts';
import type { DomainEvent } from '../services/shared/events.ts';
import { boundedText, escapeHtml } from './html/html-text.ts';
import { PAGE_CSS, renderPage, STATIC_PAGE_POLICY } from './kit/page-shell.ts';
import type { RunRecord, TracedRequest } from './run-record.ts';

export const TIMELINE_LANES_MAX = 40;
export const TIMELINE_EVENTS_MAX = 4_000;
/** Rows of the table of the last requests before the end. */
const LAST_REQUESTS_ROWS = 30;

const LABEL_WIDTH = 210;
const PLOT_WIDTH = 860;
const RIGHT_PAD = 20;
const AXIS_HEIGHT = 34;
const LANE_HEIGHT = 16;
const TICKS = 5;

const STYLE = `${PAGE_CSS.body(1120)}
${PAGE_CSS.h1('1.5em')} ${PAGE_CSS.h2('28px')}
.subtitle { color: #555; margin-top: 0; } ${PAGE_CSS.note} .violation { border-left: 4px solid #c62828; padding: 4px 12px; background: #fff5f5; }
pre { white-space: pre-wrap; word-break: break-all; font-size: 0.85em; } .legend span { margin-right: 14px; white-space: nowrap; } .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.85em; font-variant-numeric: tabular-nums; } th, td { border: 1px solid #ddd; padding: 2px 8px; text-align: left; }
svg text { font-size: 11px; font-family: system-ui, sans-serif; }`;

const COLORS = {
  ok: '#2e7d32',
  client: '#ef6c00',
  limited: '#6a1b9a',
  server: '#c62828',
  event: '#1565c0',
  fault: 'rgba(198,40,40,0.13)',
  closure: 'rgba(239,108,0,0.13)',
  lane: '#f6f6f6',
  violationLane: '#fff3c4',
  violation: '#c62828',
} as const;

function statusColor(status: number): string {
  if (status === 429) return COLORS.limited;
  if (status >= 500) return COLORS.server;
  if (status >= 400) return COLORS.client;
  return COLORS.ok;
}

/** The agent a domain event concerns (escrow events without one: the escrow's sender). */
function eventAgent(event: DomainEvent, escrowSenders: ReadonlyMap<string, string>): string | null {
  if ('agentId' in event) return event.agentId;
  if ('senderId' in event) return event.senderId;
  if ('byAgentId' in event) return event.byAgentId;
  if ('ownerId' in event) return event.ownerId;
  if ('fromId' in event) return event.fromId;
  if ('referrerId' in event && event.referrerId !== null) return event.referrerId;
  if ('escrowId' in event) return escrowSenders.get(event.escrowId) ?? null;
  return null;
}

/** The agent named by the violation: a field of its event, else an `agent:` account in its message. */
function violationAgent(eventText: string, message: string, escrowSenders: ReadonlyMap<string, string>): string | null {
  try {
    const parsed: unknown = JSON.parse(eventText);
    if (typeof parsed === 'object' && parsed !== null) {
      const fields = parsed as Record<string, unknown>;
      for (const key of ['agentId', 'senderId', 'byAgentId', 'from', 'to']) {
        const value = fields[key];
        if (typeof value === 'string' && value !== '')
          return value.startsWith('agent:') ? value.slice('agent:'.length) : value;
      }
      if (typeof fields['escrowId'] === 'string') return escrowSenders.get(fields['escrowId']) ?? null;
    }
  } catch {
    // not JSON: fall through to the message
  }
  return /agent:([A-Za-z0-9_-]+)/.exec(message)?.[1] ?? /^([A-Za-z0-9_-]+-\d+-[0-9a-f]+):/.exec(message)?.[1] ?? null;
}

const fixed = (value: number): string => value.toFixed(1);

interface Lanes {
  readonly ids: string[];
  readonly index: Map<string, number>;
  omitted: number;
}

function addLane(lanes: Lanes, agentId: string): void {
  if (lanes.index.has(agentId)) return;
  if (lanes.ids.length >= TIMELINE_LANES_MAX) {
    lanes.omitted++;
    lanes.index.set(agentId, -1);
    return;
  }
  lanes.index.set(agentId, lanes.ids.length);
  lanes.ids.push(agentId);
}

/** True when the run has something to draw: a simulation's trace. */
export function hasTimeline(record: RunRecord): boolean {
  return record.trace !== undefined;
}

/** What the page draws, decided once: the window, its scale, the failed invariant and the lanes. */
interface TimelineView {
  readonly record: RunRecord;
  readonly dropped: number;
  readonly requests: readonly TracedRequest[];
  readonly fromMs: number;
  readonly untilMs: number;
  readonly spanMs: number;
  readonly escrowSenders: ReadonlyMap<string, string>;
  readonly failed: RunRecord['invariants'][number] | null;
  readonly violation: NonNullable<RunRecord['invariants'][number]['first']> | null;
  readonly culprit: string | null;
  readonly lanes: Lanes;
  readonly drawnEvents: readonly DomainEvent[];
  readonly windowEventCount: number;
  readonly height: number;
  readonly width: number;
}

function timelineView(record: RunRecord): TimelineView {
  const trace = record.trace ?? { requests: [], dropped: 0 };
  const requests: readonly TracedRequest[] = trace.requests;
  const fromMs = trace.dropped > 0 && requests.length > 0 ? (requests[0] as TracedRequest).atMs : record.startMs;
  const untilMs = Math.max(record.endMs, fromMs + 1_000);
  const escrowSenders = new Map<string, string>();
  for (const escrow of record.escrows) escrowSenders.set(escrow.escrowId, escrow.senderId);
  const failed =
    record.invariants.find(
      (result) => result.first !== null && record.outcome === 'invariant-failed' && result.violations > 0,
    ) ?? null;
  const violation = failed?.first ?? null;
  const culprit = violation === null ? null : violationAgent(violation.event, violation.message, escrowSenders);

  const lanes: Lanes = { ids: [], index: new Map(), omitted: 0 };
  if (culprit !== null) addLane(lanes, culprit);
  const { events: drawnEvents, count: windowEventCount } = record.events.window(fromMs, untilMs, TIMELINE_EVENTS_MAX);
  // Lanes in order of first appearance in the window, requests and events merged by time.
  const appearances: { atMs: number; agentId: string }[] = requests.map((request) => ({
    atMs: request.atMs,
    agentId: request.agentId,
  }));
  for (const event of drawnEvents) {
    const agentId = eventAgent(event, escrowSenders);
    if (agentId !== null) appearances.push({ atMs: event.atMs, agentId });
  }
  appearances.sort((a, b) => a.atMs - b.atMs);
  for (const { agentId } of appearances) addLane(lanes, agentId);
  const height = AXIS_HEIGHT + Math.max(1, lanes.ids.length) * LANE_HEIGHT + 8;
  const width = LABEL_WIDTH + PLOT_WIDTH + RIGHT_PAD;
  return {
    record,
    dropped: trace.dropped,
    requests,
    fromMs,
    untilMs,
    spanMs: untilMs - fromMs,
    escrowSenders,
    failed,
    violation,
    culprit,
    lanes,
    drawnEvents,
    windowEventCount,
    height,
    width,
  };
}

/** The x of an instant, clamped to the window. */
function xOf(view: TimelineView, atMs: number): number {
  return LABEL_WIDTH + ((Math.min(Math.max(atMs, view.fromMs), view.untilMs) - view.fromMs) / view.spanMs) * PLOT_WIDTH;
}

const laneY = (lane: number): number => AXIS_HEIGHT + lane * LANE_HEIGHT;

/** The lanes' backgrounds and labels, then the fault and closure bands over them, then the time axis. */
function drawFrame(view: TimelineView, svg: string[]): void {
  const { record, fromMs, untilMs, spanMs, height, width } = view;
  view.lanes.ids.forEach((agentId, lane) => {
    const fill = agentId === view.culprit ? COLORS.violationLane : lane % 2 === 0 ? COLORS.lane : '#ffffff';
    svg.push(`<rect x="0" y="${laneY(lane)}" width="${width}" height="${LANE_HEIGHT}" fill="${fill}"/>`);
    svg.push(`<text x="4" y="${laneY(lane) + 12}">${escapeHtml(boundedText(agentId, 32))}</text>`);
  });
  const bands: { label: string; fromMs: number; untilMs: number; fill: string }[] = [
    ...(record.faults ?? []).map((fault) => ({
      label: `${fault.service} answers ${fault.answer}`,
      fromMs: fault.fromMs,
      untilMs: fault.untilMs,
      fill: COLORS.fault,
    })),
    ...(record.casino?.closures ?? []).map((closure) => ({
      label: `${closure.game} closed`,
      fromMs: closure.fromMs,
      untilMs: closure.untilMs,
      fill: COLORS.closure,
    })),
  ].filter((band) => band.untilMs > fromMs && band.fromMs < untilMs);
  for (const band of bands) {
    const left = xOf(view, band.fromMs);
    svg.push(
      `<rect x="${fixed(left)}" y="${AXIS_HEIGHT}" width="${fixed(Math.max(1, xOf(view, band.untilMs) - left))}" height="${height - AXIS_HEIGHT}" fill="${band.fill}"><title>${escapeHtml(`${band.label}: ${isoTime(band.fromMs)} to ${isoTime(band.untilMs)}`)}</title></rect>`,
    );
    // Near the right edge the label ends at the band's end instead of running off the picture.
    const label =
      left > LABEL_WIDTH + PLOT_WIDTH - 140
        ? `x="${fixed(Math.min(xOf(view, band.untilMs), LABEL_WIDTH + PLOT_WIDTH) - 2)}" text-anchor="end"`
        : `x="${fixed(left + 2)}"`;
    svg.push(`<text ${label} y="${AXIS_HEIGHT - 4}" fill="#8a1c1c">${escapeHtml(band.label)}</text>`);
  }
  // Within a day the time of day says it all; over longer windows the date goes with it.
  const tickText = (atMs: number): string =>
    spanMs >= 86_400_000 ? isoTime(atMs).slice(5, 19).replace('T', ' ') : isoTime(atMs).slice(11, 23);
  for (let tick = 0; tick <= TICKS; tick++) {
    const atMs = fromMs + Math.round((spanMs * tick) / TICKS);
    const left = xOf(view, atMs);
    const anchor = tick === 0 ? 'start' : tick === TICKS ? 'end' : 'middle';
    svg.push(`<line x1="${fixed(left)}" y1="14" x2="${fixed(left)}" y2="${height}" stroke="#ddd"/>`);
    svg.push(`<text x="${fixed(left)}" y="11" text-anchor="${anchor}">${tickText(atMs)}</text>`);
  }
}

/** The events, requests and violation marked on their lanes. */
function drawMarks(view: TimelineView, svg: string[]): void {
  const { lanes, violation, height } = view;
  for (const event of view.drawnEvents) {
    const agentId = eventAgent(event, view.escrowSenders);
    const lane = agentId === null ? -1 : (lanes.index.get(agentId) ?? -1);
    if (lane < 0) continue;
    const left = xOf(view, event.atMs);
    svg.push(
      `<line x1="${fixed(left)}" y1="${laneY(lane) + 1}" x2="${fixed(left)}" y2="${laneY(lane) + LANE_HEIGHT - 1}" stroke="${COLORS.event}" stroke-width="1"><title>${escapeHtml(`${isoTime(event.atMs)} ${event.type}`)}</title></line>`,
    );
  }
  for (const request of view.requests) {
    const lane = lanes.index.get(request.agentId) ?? -1;
    if (lane < 0) continue;
    const left = xOf(view, request.atMs);
    svg.push(
      `<rect x="${fixed(left - 1.5)}" y="${laneY(lane) + 4}" width="3" height="8" fill="${statusColor(request.status)}"><title>${escapeHtml(`${isoTime(request.atMs)} ${request.endpoint} → ${request.status}`)}</title></rect>`,
    );
  }
  if (violation !== null) {
    const left = xOf(view, violation.atMs);
    svg.push(
      `<line x1="${fixed(left)}" y1="14" x2="${fixed(left)}" y2="${height}" stroke="${COLORS.violation}" stroke-width="2" id="violation"><title>${escapeHtml(`${isoTime(violation.atMs)} ${view.failed?.name ?? ''}: ${boundedText(violation.message, 300)}`)}</title></line>`,
    );
  }
}

function timelineSvg(view: TimelineView): string {
  const { width, height } = view;
  const svg: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="Time-line of the run's last requests and events, one lane per agent">`,
  ];
  drawFrame(view, svg);
  drawMarks(view, svg);
  svg.push('</svg>');
  return svg.join('\n');
}

/** What the picture leaves out, said under it. */
function timelineNotes(view: TimelineView): string[] {
  const { requests, lanes, drawnEvents, windowEventCount } = view;
  const notes: string[] = [];
  if (view.dropped > 0)
    notes.push(
      `The time-line starts at the first of the run's last ${requests.length.toLocaleString('en-US')} requests; ${view.dropped.toLocaleString('en-US')} earlier requests are not drawn.`,
    );
  if (lanes.omitted > 0)
    notes.push(
      `${lanes.omitted.toLocaleString('en-US')} more agents acted in this window; a time-line shows at most ${TIMELINE_LANES_MAX} lanes (the violation's agent first, then in order of appearance).`,
    );
  if (windowEventCount > drawnEvents.length)
    notes.push(
      `${(windowEventCount - drawnEvents.length).toLocaleString('en-US')} earlier events of the window are not drawn (at most ${TIMELINE_EVENTS_MAX.toLocaleString('en-US')}).`,
    );
  return notes;
}

function verdictHtml(view: TimelineView): string {
  const { violation, culprit, record } = view;
  return violation === null
    ? `<p>Outcome: ${escapeHtml(record.outcome)}.</p>`
    : `<div class="violation"><p><strong>invariant failed: ${escapeHtml(view.failed?.name ?? '')}</strong> at ${isoTime(violation.atMs)}${culprit === null ? '' : `, agent ${escapeHtml(culprit)} (highlighted lane)`}</p><p>${escapeHtml(boundedText(violation.message, 2_000))}</p><pre>${escapeHtml(boundedText(violation.event, 4_000))}</pre></div>`;
}

const LEGEND = [
  ['2xx', COLORS.ok],
  ['4xx', COLORS.client],
  ['429', COLORS.limited],
  ['5xx', COLORS.server],
  ['domain event', COLORS.event],
  ['fault window', COLORS.fault],
  ['game closed', COLORS.closure],
  ['violation', COLORS.violation],
]
  .map(([label, color]) => `<span><span class="swatch" style="background:${color}"></span>${label}</span>`)
  .join('');

export function renderTimelineHtml(record: RunRecord): string {
  const view = timelineView(record);
  const { requests, fromMs, untilMs, drawnEvents, lanes } = view;
  const last = requests.slice(-LAST_REQUESTS_ROWS);
  const rows = last
    .map(
      (request) =>
        `<tr><td>${isoTime(request.atMs)}</td><td>${escapeHtml(request.agentId)}</td><td>${escapeHtml(request.endpoint)}</td><td>${request.status}</td></tr>`,
    )
    .join('\n');
  return renderPage({
    policy: STATIC_PAGE_POLICY,
    generator: 'afp',
    title: `${record.scenario} — time-line (seed ${record.seed})`,
    style: STYLE,
    parts: [
      `<h1>${escapeHtml(record.scenario)} — time-line</h1>`,
      `<p class="subtitle">seed ${escapeHtml(record.seed)} · ${isoTime(fromMs)} to ${isoTime(untilMs)} · ${requests.length.toLocaleString('en-US')} requests and ${drawnEvents.length.toLocaleString('en-US')} events drawn on ${lanes.ids.length} lanes</p>`,
      verdictHtml(view),
      `<p>Reproduce: <code>${escapeHtml(record.reproduce)}</code></p>`,
      '<h2>Agents as lanes</h2>',
      `<p class="legend">${LEGEND}</p>`,
      timelineSvg(view),
      timelineNotes(view)
        .map((note) => `<p class="note">${escapeHtml(note)}</p>`)
        .join('\n'),
      '<h2>The last requests</h2>',
      '<table>',
      `<caption>The last ${last.length} requests before the end of the run</caption>`,
      '<thead><tr><th>at</th><th>agent</th><th>endpoint</th><th>status</th></tr></thead>',
      `<tbody>\n${rows}\n</tbody>`,
      '</table>',
    ],
  });
}
