// Spectrum dashboard: renders snapshots pushed over Server-Sent Events; no page reloads.
// History comes from the host (api/history), so a reload or a second browser draws the same charts; a host
// with a history store (--state-dir) keeps it across restarts: the charts then read any range of it, zoomed
// and panned on a wall-clock time axis, downsampled to the span (docs/host.md, "Dashboard").
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const MAX_WINDOW_S = 900;
const history = new Map();   // path -> [[ts, value], ...] oldest first (host clock, ms)
const lastSeq = new Map();   // path -> seq of the last sample taken from a snapshot
const units = new Map();     // path -> the unit its points are in
const rows = new Map();      // path -> {el, subsKey, kind}
const boards = new Map();    // board name -> section element
const RANGES = [60, 300, 900, 3600, 86400, 604800, 2592000]; // the header's ranges, s (beyond 15 min: a store only)
let historyStore = null;     // the host keeps a history store (the snapshot says; null until the first)
let numericVertices = [];    // the numeric vertices of the last snapshot: what "add to chart" offers
// this page is a view: the host subscribes to what it shows (api/view), not to everything
const viewId = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
const FOLD_ABOVE = 50;       // a board with more vertices starts folded (shown only when opened)
let shownKey = null;
let shownAt = 0;
let lastSnapshot = null;
let skew = 0;                // host clock - this browser's clock, ms
const hostNow = () => Date.now() + skew;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---------------------------------------------------------------- history

// The charts show one time range, shared by every chart: `view.span` ms ending at `view.end` (host clock), or
// ending now and following it (end null). With a history store (--state-dir) the points come from it
// (api/history?path=…&since=…&until=…&every=…, downsampled to about CHART_POINTS buckets of the span), so the
// charts survive a host restart and reach back 30 days and more; the live values after the last fetch are
// added to them. Without one the host's memory holds the last 15 minutes (api/history?window=900).
const CHART_POINTS = 600;
const MEMORY_SPAN = MAX_WINDOW_S * 1000;
const MIN_SPAN = 10000;
const MAX_SPAN = 400 * 86400000;
const STORE_REFRESH_MS = 60000;  // a range that follows now is fetched again this often (live values fill in between)
const STORE_BATCH = 40;          // paths per request
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400,
  2 * 86400, 7 * 86400, 14 * 86400, 30 * 86400].map(s => s * 1000);
const savedRange = Number(localStorage.getItem('spectrum.range')) || 300;
let view = {span: savedRange * 1000, end: null};
const stored = new Map();    // path -> [[ts, mean, n], ...] from the store for the fetched range
let storedAt = {from: 0, to: 0, every: 0, key: '', at: 0}; // what `stored` holds; `to` is where live points take over
let fetching = 0;            // the newest request's number: an older answer is dropped
let fetchTimer = null;

// the range shown now: [from, to] in host ms
function viewBounds() {
  const to = view.end === null ? hostNow() : view.end;
  return [to - view.span, to];
}

// the store's bucket for a span: the smallest step of STEPS giving at most CHART_POINTS points
// (beyond a minute whole minutes, so the store answers from its one-minute summaries)
function everyFor(span) {
  return STEPS.find(s => span / s <= CHART_POINTS) || STEPS[STEPS.length - 1];
}

function setView(span, end) {
  const maxSpan = historyStore ? MAX_SPAN : MEMORY_SPAN;
  span = Math.min(maxSpan, Math.max(MIN_SPAN, span));
  const now = hostNow();
  if (end !== null && end >= now - 1000) end = null; // up to now: follow it
  if (end !== null && !historyStore && end - span < now - MEMORY_SPAN) end = Math.min(now, now - MEMORY_SPAN + span);
  view = {span, end};
  if (end === null && RANGES.includes(span / 1000)) localStorage.setItem('spectrum.range', String(span / 1000));
  showRange();
  scheduleFetch(200);
  if (lastSnapshot) renderTree(lastSnapshot);
}

// zoom by `factor` (< 1 in, > 1 out) keeping the moment at fraction `at` of the axis where it is
function zoom(factor, at) {
  const [from, to] = viewBounds();
  const t = from + (to - from) * at;
  const span = Math.min(historyStore ? MAX_SPAN : MEMORY_SPAN, Math.max(MIN_SPAN, view.span * factor));
  setView(span, t + (1 - at) * span);
}

function pan(ms) {
  const [, to] = viewBounds();
  setView(view.span, Math.min(hostNow(), to + ms));
}

function remember(v, ts) {
  if (!v.numeric) { history.delete(v.path); lastSeq.delete(v.path); return; }
  const unit = v.unit || '';
  if (units.has(v.path) && units.get(v.path) !== unit) { history.delete(v.path); lastSeq.delete(v.path); stored.delete(v.path); }
  units.set(v.path, unit); // a value rendered by another declaration now: the earlier points were in another unit
  if (lastSeq.get(v.path) === v.seq) return;
  lastSeq.set(v.path, v.seq);
  let h = history.get(v.path);
  if (!h) { h = []; history.set(v.path, h); }
  if (h.length === 0 || h[h.length - 1][0] < ts) h.push([ts, v.number, 1]);
  while (h.length > 0 && ts - h[0][0] > MEMORY_SPAN) h.shift();
}

// without a store: the host's memory (15 min), once; the live points follow
async function loadMemory() {
  try {
    const r = await fetch('api/history?window=' + MAX_WINDOW_S);
    const body = await r.json();
    for (const [path, points] of Object.entries(body.series)) {
      if (points.length === 0) continue;
      const mine = history.get(path) || [];
      const last = points[points.length - 1][0];
      history.set(path, points.map(p => [p[0], p[1], 1]).concat(mine.filter(p => p[0] > last)));
      if (!lastSeq.has(path)) lastSeq.set(path, points[points.length - 1][2]); // the live value is on the chart already
    }
  } catch (e) { /* the charts start empty; live values still arrive */ }
}

// the numeric vertices the page draws now (their own charts and the ones laid over them)
function chartedPaths() {
  const out = new Set();
  for (const [p, r] of rows) {
    if (!r.el.isConnected || !r.charted) continue;
    out.add(p);
    for (const o of overlaysOf(p)) out.add(o);
  }
  return [...out].sort();
}

function scheduleFetch(ms) {
  if (!historyStore) return;
  clearTimeout(fetchTimer);
  fetchTimer = setTimeout(fetchStored, ms);
}

// the stored points of every charted path for the range shown, in buckets of everyFor(span)
async function fetchStored() {
  if (!historyStore) return;
  const paths = chartedPaths();
  const [from, to] = viewBounds();
  const every = everyFor(to - from);
  const since = Math.floor(from / every) * every; // whole buckets: the first one is not cut
  const until = Math.ceil(to) + 1;
  const n = ++fetching;
  const got = new Map();
  try {
    for (let i = 0; i < paths.length; i += STORE_BATCH) {
      const q = paths.slice(i, i + STORE_BATCH).map(p => 'path=' + encodeURIComponent(p)).join('&');
      const r = await fetch(`api/history?${q}&since=${since}&until=${until}&every=${every}ms`);
      if (!r.ok) return;
      const body = await r.json();
      for (const row of body.rows) {
        if (!got.has(row.path)) got.set(row.path, []);
        got.get(row.path).push([Date.parse(row.ts), row.value, row.n]);
      }
    }
  } catch (e) { return; }
  if (n !== fetching) return; // the range changed while this one was read
  stored.clear();
  for (const [p, pts] of got) stored.set(p, pts);
  storedAt = {from: since, to: until, every, key: paths.join('\n'), at: Date.now()};
  document.body.dataset.fetched = String(n);
  showRange();
  if (lastSnapshot) renderTree(lastSnapshot);
}

// keeps the stored points current: a new path on the page, a range that follows now
function refreshStored() {
  if (!historyStore) return;
  const key = chartedPaths().join('\n');
  if (key !== storedAt.key || (view.end === null && Date.now() - storedAt.at > STORE_REFRESH_MS)) scheduleFetch(300);
}

// the points of `path` in [from, to]: [ts, value, n]; the stored ones, then the live ones after them
function pointsOf(path, from, to) {
  const live = history.get(path) || [];
  if (!historyStore) return live.filter(p => p[0] >= from && p[0] <= to);
  const s = stored.get(path) || [];
  const out = s.filter(p => p[0] + storedAt.every > from && p[0] <= to);
  for (const p of live) if (p[0] >= storedAt.to && p[0] >= from && p[0] <= to) out.push(p);
  return out;
}

// ---------------------------------------------------------------- charts

function fmt(n) {
  if (!isFinite(n)) return '—';
  const a = Math.abs(n);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return n.toExponential(2);
  return String(Number(n.toFixed(a >= 100 ? 1 : 2)));
}

const spanName = ms => ms >= 86400000 ? fmt(ms / 86400000) + ' d' : ms >= 3600000 ? fmt(ms / 3600000) + ' h'
  : ms >= 60000 ? fmt(ms / 60000) + ' min' : fmt(ms / 1000) + ' s';
const localDay = t => new Date(t).toDateString();
const clock = (t, seconds) => new Date(t).toLocaleTimeString([], seconds
  ? {hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23'} : {hour: '2-digit', minute: '2-digit', hourCycle: 'h23'});
const dayName = t => new Date(t).toLocaleDateString([], {month: 'short', day: 'numeric'});
const when = t => dayName(t) + ' ' + clock(t, false);
const days2 = (from, to) => localDay(from) !== localDay(to);

// the time axis: wall-clock ticks at round local times, at most `max` of them; a date under the time
// where the day changes (and under the first) when the range spans more than one day
function timeTicks(from, to, max) {
  const step = STEPS.find(s => (to - from) / s <= max) || STEPS[STEPS.length - 1];
  const offset = t => new Date(t).getTimezoneOffset() * 60000;
  let t = Math.ceil((from - offset(from)) / step) * step + offset(from);
  const days = localDay(from) !== localDay(to);
  const ticks = [];
  let prevDay = null;
  for (; t <= to; t += step) {
    const day = localDay(t);
    const label = step >= 86400000 ? [dayName(t)] : [clock(t, step < 60000)];
    if (days && step < 86400000 && day !== prevDay) label.push(dayName(t));
    prevDay = day;
    ticks.push([t, label]);
  }
  return {ticks, days};
}

const W = 300, H = 110, L = 52, R = 6, T = 8;
const COLORS = ['#2f6fd6', '#d6572f', '#2a9d4b', '#8a4fd1', '#c49000', '#d13f8a'];

// the chart of `path` with the same-unit vertices laid over it, over the range shown
function chart(path, unit) {
  const [from, to] = viewBounds();
  const now = hostNow();
  const series = [path, ...overlaysOf(path).filter(o => (units.get(o) || '') === unit)]
    .map((p, i) => ({path: p, color: COLORS[i % COLORS.length], pts: pointsOf(p, from, to)}));
  const {ticks, days} = timeTicks(from, to, days2(from, to) ? 4 : 5);
  const B = days ? 27 : 18;
  const box = svg('svg', {class: 'chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'data-path': path,
    'data-from': String(Math.round(from)), 'data-to': String(Math.round(to)),
    'data-every': String(historyStore ? everyFor(to - from) : 0), 'data-points': String(series[0].pts.length),
    'data-series': String(series.length)});
  let lo = Infinity, hi = -Infinity;
  for (const s of series) for (const p of s.pts) { lo = Math.min(lo, p[1]); hi = Math.max(hi, p[1]); }
  let ylo = lo, yhi = hi;
  if (lo === Infinity) { ylo = 0; yhi = 1; }
  if (ylo === yhi) { ylo -= 1; yhi += 1; }
  const x = t => L + (t - from) / (to - from) * (W - L - R);
  const y = v => T + (1 - (v - ylo) / (yhi - ylo)) * (H - T - B);
  // axes, grid and labels: value (with the unit) on the left, wall-clock time at the bottom
  box.append(svg('line', {class: 'axis', x1: L, y1: T, x2: L, y2: H - B}));
  box.append(svg('line', {class: 'axis', x1: L, y1: H - B, x2: W - R, y2: H - B}));
  for (const v of [ylo, (ylo + yhi) / 2, yhi]) {
    box.append(svg('line', {class: 'grid', x1: L, y1: y(v), x2: W - R, y2: y(v)}));
    box.append(svg('text', {class: 'tick', x: L - 4, y: y(v) + 3, 'text-anchor': 'end'}, fmt(v)));
  }
  if (unit) {
    const my = (T + H - B) / 2; // the value axis's title, turned along it
    box.append(svg('text', {class: 'unit', x: 9, y: my, 'text-anchor': 'middle', transform: `rotate(-90 9 ${my})`}, unit));
  }
  for (const [t, label] of ticks) {
    const tx = x(t);
    box.append(svg('line', {class: 'tickmark', x1: tx, y1: H - B, x2: tx, y2: H - B + 3}));
    const text = svg('text', {class: 'tick time', x: tx, y: H - B + 12, 'text-anchor': 'middle', 'data-t': String(t)});
    label.forEach((line, i) => text.append(svg('tspan', {x: tx, dy: i === 0 ? 0 : 9}, line)));
    box.append(text);
  }
  const clip = 'clip-' + path.replace(/[^A-Za-z0-9]/g, '_');
  const clipPath = svg('clipPath', {id: clip});
  clipPath.append(svg('rect', {x: L, y: 0, width: W - L - R, height: H - B}));
  box.append(clipPath);
  const end = Math.min(to, now);
  for (const s of series) {
    if (s.pts.length === 0) continue;
    // a step line: a value holds until the next one; the last holds until now (or the range's end)
    const d = [];
    s.pts.forEach((p, i) => {
      if (i > 0) d.push(x(p[0]).toFixed(1) + ',' + y(s.pts[i - 1][1]).toFixed(1));
      d.push(x(p[0]).toFixed(1) + ',' + y(p[1]).toFixed(1));
    });
    const last = s.pts[s.pts.length - 1];
    if (end > last[0]) d.push(x(end).toFixed(1) + ',' + y(last[1]).toFixed(1));
    box.append(svg('polyline', {class: 'line', points: d.join(' '), stroke: s.color, 'clip-path': `url(#${clip})`,
      'data-path': s.path, 'data-points': String(s.pts.length)}));
  }
  const u = unit ? ' ' + unit : '';
  const main = series[0].pts;
  let mlo = Infinity, mhi = -Infinity, count = 0;
  for (const p of main) { mlo = Math.min(mlo, p[1]); mhi = Math.max(mhi, p[1]); count += p[2] || 1; }
  const stats = main.length === 0
    ? el('div', {class: 'minmax'}, 'no values in ' + (view.end === null ? 'the last ' + spanName(to - from) : 'this range'))
    : el('div', {class: 'minmax'},
        el('span', {class: 'min'}, 'min ' + fmt(mlo) + u), ' · ',
        el('span', {class: 'max'}, 'max ' + fmt(mhi) + u), ' · ',
        el('span', {class: 'count'}, count + (count === 1 ? ' value' : ' values')));
  const legend = series.length < 2 ? '' : el('div', {class: 'legend'}, ...series.map((s, i) =>
    el('span', {class: 'entry', 'data-path': s.path},
      el('i', {class: 'swatch', style: 'background:' + s.color}), s.path,
      i === 0 ? '' : el('button', {class: 'overlay-remove', 'data-overlay-remove': s.path, 'data-path': path,
        title: 'take it off this chart'}, '×'))));
  return [box, legend, stats];
}

// ---------------------------------------------------------------- overlays: vertices of one unit on one chart

function overlaysOf(path) {
  try { return JSON.parse(localStorage.getItem('spectrum.overlay.' + path) || '[]'); } catch (e) { return []; }
}

function setOverlays(path, list) {
  if (list.length === 0) localStorage.removeItem('spectrum.overlay.' + path);
  else localStorage.setItem('spectrum.overlay.' + path, JSON.stringify(list));
  scheduleFetch(50);
  if (lastSnapshot) renderTree(lastSnapshot);
}

// "add to chart": the other numeric vertices in the same unit, not on this chart yet
function overlayPicker(v, numeric) {
  const unit = v.unit || '';
  const on = new Set(overlaysOf(v.path));
  const choices = numeric.filter(o => o.path !== v.path && (o.unit || '') === unit && !on.has(o.path)).map(o => o.path);
  const key = choices.join('\n');
  return {key, build: () => choices.length === 0 ? '' : el('select', {class: 'overlay-add', 'data-path': v.path,
    title: 'lay another vertex in ' + (unit || 'the same unit') + ' over this chart'},
    el('option', {value: ''}, '+ add to chart (' + (unit || 'no unit') + ')'), ...choices.map(p => el('option', {value: p}, p)))};
}

// what the header says of the range: its start and end (wall clock), and the step of the stored points
function showRange() {
  const out = document.getElementById('range-label');
  if (!out) return;
  const [from, to] = viewBounds();
  const every = historyStore ? everyFor(to - from) : 0;
  out.textContent = (view.end === null ? 'last ' + spanName(view.span) + ' · ' : '')
    + (days2(from, to) ? when(from) : clock(from, false)) + ' – ' + (view.end === null ? 'now' : days2(from, to) ? when(to) : clock(to, false))
    + (every > 1000 ? ' · one point per ' + spanName(every) : '');
  out.dataset.span = String(view.span);
  // the custom range's inputs show the range shown, unless someone is typing in them
  const pad = n => String(n).padStart(2, '0');
  const local = t => { const d = new Date(t); return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`; };
  for (const [id, t] of [['range-from', from], ['range-to', to]]) {
    const input = document.getElementById(id);
    if (input && document.activeElement !== input) input.value = local(t);
  }
  out.dataset.following = String(view.end === null);
  for (const b of document.querySelectorAll('button[data-range]')) {
    b.classList.toggle('active', view.end === null && Number(b.dataset.range) * 1000 === view.span);
  }
}

// ---------------------------------------------------------------- vertices

// the page's own subscription (the host follows what a page shows: holder "view", a local callback) is
// how the page gets its values, not a subscriber a user made: it is never listed
const ownView = s => s.holder === 'view' && s.target === 'local callback';
const realSubscribers = v => v.subscribers.filter(s => !ownView(s));
const subsKeyOf = v => realSubscribers(v).map(x => `${x.slot}:${x.state}:${x.holder}:${x.target}`).join('|');

function subscribersTable(v, scope) {
  const subs = realSubscribers(v);
  if (subs.length === 0) return '';
  const tbody = el('tbody');
  for (const s of subs) {
    tbody.append(el('tr', {class: 'sub', 'data-path': v.path, 'data-slot': String(s.slot)},
      el('td', {}, '[' + s.slot + ']'),
      el('td', {class: 'mono'}, s.holder),
      el('td', {class: 'mono'}, s.target),
      el('td', {}, el('span', {class: 'badge state ' + s.state}, s.state)),
      el('td', {class: 'delivered'}, s.delivered < 0 ? '—' : String(s.delivered)),
      el('td', {},
        el('button', {'data-action': s.suspended ? 'resume' : 'suspend', 'data-path': v.path, 'data-slot': String(s.slot)},
          s.suspended ? 'Resume' : 'Suspend'),
        el('button', {'data-action': 'clear', 'data-path': v.path, 'data-slot': String(s.slot)}, 'Clear'))));
  }
  const n = subs.length;
  return el('div', {},
    el('div', {class: 'subs-title'}, n + (n === 1 ? ' subscriber' : ' subscribers') + (scope || '')),
    el('table', {class: 'subs'},
      el('thead', {}, el('tr', {}, ...['slot', 'holder', 'target', 'state', 'delivered', ''].map(h => el('th', {}, h)))),
      tbody));
}

function controlFor(v) {
  const c = v.control;
  if (!c) return '';
  if (c.kind === 'toggle') {
    return el('span', {class: 'control'},
      el('button', {class: 'toggle', 'data-write': 'toggle', 'data-path': v.path, 'aria-pressed': 'false'}, 'off'));
  }
  const input = c.kind === 'text'
    ? el('input', {type: 'text', maxlength: String(c.max), 'data-path': v.path, size: '12'})
    : el('input', {type: 'number', min: String(c.min), max: String(c.max), step: String(c.step), 'data-path': v.path});
  return el('span', {class: 'control'}, input,
    el('button', {'data-write': 'set', 'data-path': v.path}, 'Set' + (c.unit ? ' (' + c.unit + ')' : '')));
}

function vertexRow(v) {
  const name = v.board ? v.path.substring(v.board.length + 2) : v.path;
  return el('div', {class: 'vertex', 'data-path': v.path},
    el('div', {class: 'vhead'},
      el('span', {class: 'name', title: v.path}, name),
      el('span', {class: 'badge stale', hidden: ''}, 'stale'),
      el('button', {class: 'subs-count', 'data-subs': 'toggle', hidden: '', title: 'show or hide subscribers'}),
      el('span', {class: 'seq', title: 'seq: how many values this vertex has had (stamped by the node)'}),
      el('span', {class: 'age', hidden: '', title: 'how old the value is: since it entered the fabric (its origin time, the first host\'s clock)'})),
    el('div', {class: 'value'}),
    el('div', {class: 'stale-reason', hidden: ''}),
    controlFor(v),
    el('div', {class: 'write-error', role: 'status'}),
    el('div', {class: 'chart-slot'}),
    el('div', {class: 'overlay-slot'}),
    el('div', {class: 'subs-slot'}));
}

function folded(board, count) {
  const saved = localStorage.getItem('spectrum.fold.' + board);
  return saved === null ? count > FOLD_ABOVE : saved === '1';
}

function boardSection(name) {
  let s = boards.get(name);
  if (!s) {
    s = el('section', {class: 'board', 'data-board': name},
      el('div', {class: 'board-head'},
        el('h3', {}, name || 'this host'),
        el('span', {class: 'badge link-state', hidden: ''}),
        el('span', {class: 'link-name'}),
        name ? el('button', {class: 'fold', 'data-fold': name}, 'hide') : ''),
      el('div', {class: 'board-subs'}),
      el('div', {class: 'vertices'}));
    boards.set(name, s);
  }
  return s;
}

// ---------------------------------------------------------------- age

const periods = new Map(); // path -> [last origin seen, the time between its last two origins (ms)]

/**
 * How old a value is ("3 s ago", as spectrum sub says it), shown only when it says something: the
 * value is stale, or older than its period (the time between its last two values, as this page saw
 * them; a minute for a vertex seen with one value only). '' otherwise, or without an origin time.
 */
function ageText(v, now) {
  if (!v.origin) return '';
  const p = periods.get(v.path);
  if (!p) periods.set(v.path, [v.origin, 0]);
  else if (p[0] !== v.origin) { if (v.origin > p[0]) p[1] = v.origin - p[0]; p[0] = v.origin; }
  const period = periods.get(v.path)[1] || 60000;
  const ms = now - v.origin;
  if (ms < 1000 || (!v.stale && ms <= period * 1.5)) return '';
  const s = Math.floor(ms / 1000);
  if (s < 60) return s + ' s ago';
  if (s < 3600) return Math.floor(s / 60) + ' min ago';
  if (s < 48 * 3600) return Math.floor(s / 3600) + ' h ago';
  return Math.floor(s / 86400) + ' d ago';
}

function updateRow(r, v, now) {
  const e = r.el;
  e.querySelector('.value').textContent = v.value === '' ? '—' : v.value;
  e.querySelector('.seq').textContent = 'seq ' + v.seq;
  const old = ageText(v, now);
  const age = e.querySelector('.age');
  age.hidden = old === '';
  age.textContent = old;
  e.classList.toggle('is-stale', v.stale);
  e.querySelector('.badge.stale').hidden = !v.stale;
  const why = e.querySelector('.stale-reason');
  why.hidden = !(v.stale && v.reason);
  why.textContent = v.stale && v.reason ? v.reason : '';
  const n = realSubscribers(v).length;
  const count = e.querySelector('.subs-count');
  count.hidden = n === 0;
  count.textContent = n + (n === 1 ? ' subscriber' : ' subscribers');
  const t = e.querySelector('button.toggle');
  if (t) {
    const on = v.numeric && v.number !== 0;
    t.textContent = on ? 'on' : 'off';
    t.setAttribute('aria-pressed', String(on));
    t.dataset.next = on ? '0' : '1';
  }
  r.charted = v.numeric && !(v.control && v.control.kind === 'toggle');
  e.querySelector('.chart-slot').replaceChildren(...(r.charted ? chart(v.path, v.unit || '') : []));
  // "add to chart" is rebuilt only when its choices change, and never while it is open
  const overlay = e.querySelector('.overlay-slot');
  const picker = r.charted ? overlayPicker(v, numericVertices) : {key: '', build: () => ''};
  if (picker.key !== r.overlayKey && !overlay.contains(document.activeElement)) {
    overlay.replaceChildren(picker.build());
    r.overlayKey = picker.key;
  }
  // rebuild the subscriber table only when its shape changes, so a button is not replaced under a click
  const key = subsKeyOf(v);
  const slot = e.querySelector('.subs-slot');
  if (key !== r.subsKey) {
    slot.replaceChildren(subscribersTable(v));
    r.subsKey = key;
  }
  for (const x of v.subscribers) {
    const cell = e.querySelector(`tr.sub[data-slot="${x.slot}"] .delivered`);
    if (cell) cell.textContent = x.delivered < 0 ? '—' : String(x.delivered);
  }
}

function renderTree(s) {
  const tree = document.getElementById('tree');
  if (s.vertices.length === 0) {
    tree.replaceChildren(el('p', {class: 'empty'}, 'No vertices yet.'));
    rows.clear();
    boards.clear();
    return;
  }
  const linkOf = new Map(s.links.filter(l => l.board).map(l => [l.board, l]));
  const seen = new Set();
  const sections = [];
  const members = new Map();
  // a board's own vertex (/board1, where the host's terminal view subscribes) belongs to its board
  const names = new Set([...s.vertices.map(v => v.board), ...s.links.map(l => l.board)].filter(b => b));
  numericVertices = s.vertices.filter(v => v.numeric && !(v.control && v.control.kind === 'toggle'));
  for (const v of s.vertices) {
    seen.add(v.path);
    remember(v, s.ts);
    const board = v.board || (names.has(v.path.substring(1)) ? v.path.substring(1) : '');
    const sec = boardSection(board);
    if (!members.has(board)) { members.set(board, []); sections.push(sec); }
    if (v.path === '/' + board) {
      // the board's own vertex: its subtree subscribers belong to the board header, it has no value row
      const head = sec.querySelector('.board-subs');
      const key = subsKeyOf(v);
      if (head.dataset.key !== key) { head.replaceChildren(subscribersTable(v, ' to ' + v.path + ' and everything under it')); head.dataset.key = key; }
      for (const x of v.subscribers) {
        const cell = head.querySelector(`tr.sub[data-slot="${x.slot}"] .delivered`);
        if (cell) cell.textContent = x.delivered < 0 ? '—' : String(x.delivered);
      }
      continue;
    }
    let r = rows.get(v.path);
    const controlKey = JSON.stringify(v.control || null);
    // a row is rebuilt when its control changes: a declaration read after the page subscribed brings one
    if (!r || r.controlKey !== controlKey) { r = {el: vertexRow(v), subsKey: null, controlKey}; rows.set(v.path, r); }
    updateRow(r, v, hostNow());
    members.get(board).push(r.el);
  }
  const shown = [];
  for (const sec of sections) {
    const name = sec.dataset.board;
    const mine = members.get(name);
    const fold = name !== '' && folded(name, mine.length);
    sec.classList.toggle('folded', fold);
    const button = sec.querySelector('button.fold');
    if (button) button.textContent = fold ? 'show ' + mine.length : 'hide';
    sec.querySelector('.vertices').replaceChildren(...(fold ? [] : mine));
    if (!fold && name !== '') for (const e of mine) shown.push(e.dataset.path);
    const l = linkOf.get(name);
    const badge = sec.querySelector('.link-state');
    badge.hidden = !l;
    if (l) {
      badge.textContent = 'link ' + l.state;
      badge.className = 'badge link-state ' + l.state;
      sec.querySelector('.link-name').textContent = l.name;
    }
  }
  for (const p of [...rows.keys()]) if (!seen.has(p)) { rows.delete(p); history.delete(p); lastSeq.delete(p); stored.delete(p); }
  tree.replaceChildren(...sections);
  showing(shown);
}

// tells the host what this page shows (when it changes, and every 10 s so the host knows the page is there)
function showing(paths) {
  if (!live) return;
  const key = paths.slice().sort().join('\n');
  if (key === shownKey && Date.now() - shownAt < 10000) return;
  shownKey = key;
  shownAt = Date.now();
  post('api/view', {view: viewId, paths}).catch(() => { shownKey = null; });
}

// ---------------------------------------------------------------- links

// drops, refusals and evictions: shown highlighted as soon as they are not zero (overload is visible).
// The counter names are the ones /$node/stats and /metrics use (CounterNames in core-narrow).
const OVERLOAD = /^(dropped_|peers_refused|peers_evicted|share_refused|deliveries_dropped|send_refused|frames_rejected|peers\.refused|peers\.dropped)/;
const HEADERS = {frames_in: 'frames in', frames_out: 'frames out', bytes_in: 'bytes in', bytes_out: 'bytes out',
  dropped_corrupt: 'dropped corrupt', dropped_oversize: 'dropped oversize', dropped_invalid: 'dropped invalid',
  dropped_queued: 'dropped queued', dropped_by_os: 'dropped by OS', send_refused: 'send refused',
  reconnects: 'reconnects', peers_refused: 'peers refused', peers_evicted: 'peers evicted',
  frames_rejected: 'frames rejected', share_refused: 'share refused', deliveries_dropped: 'deliveries dropped',
  'peers.capacity': 'peer slots', 'peers.in_use': 'peers', 'peers.peak': 'peers peak', 'peers.refused': 'peer slots refused',
  'peers.dropped': 'peers dropped'};

// the few numbers an operator reads first; every counter is one click away ("all counters")
const DROPS = /^(dropped_|deliveries_dropped)/;
const REFUSALS = /^(send_refused|share_refused|peers_refused|peers\.refused|frames_rejected)/;
const SUMMARY = [
  ['frames_in', 'frames in', c => c.frames_in],
  ['frames_out', 'frames out', c => c.frames_out],
  ['drops', 'drops', c => sumOf(c, DROPS)],
  ['refusals', 'refusals', c => sumOf(c, REFUSALS)]];
let allCounters = localStorage.getItem('spectrum.links.all') === '1';

function sumOf(counters, pattern) {
  let n = 0;
  let any = false;
  for (const [k, v] of Object.entries(counters)) if (pattern.test(k)) { n += v; any = true; }
  return any ? n : undefined;
}

function counterCell(k, v, overload) {
  return el('td', {class: 'num counter' + (overload && v > 0 ? ' overload' : ''), 'data-counter': k},
    v === undefined ? '' : v.toLocaleString('en'));
}

function renderLinks(s) {
  const table = document.getElementById('links');
  const button = document.getElementById('links-all');
  button.textContent = allCounters ? 'fewer counters' : 'all counters';
  button.setAttribute('aria-pressed', String(allCounters));
  const keys = [];
  if (allCounters) for (const l of s.links) for (const k of Object.keys(l.counters)) if (!keys.includes(k)) keys.push(k);
  table.querySelector('thead').replaceChildren(el('tr', {},
    el('th', {}, 'board'), el('th', {}, 'link'), el('th', {}, 'state'),
    ...(allCounters ? keys.map(k => el('th', {class: 'num', 'data-counter': k, title: k}, HEADERS[k] || k))
      : SUMMARY.map(([k, h]) => el('th', {class: 'num', 'data-counter': k,
        title: k === 'drops' ? 'every dropped frame and delivery' : k === 'refusals' ? 'every refused send, peer and share' : k}, h)))));
  const tbody = table.querySelector('tbody');
  if (s.links.length === 0) {
    tbody.replaceChildren(el('tr', {}, el('td', {colspan: '3', class: 'empty'}, 'no links')));
    return;
  }
  tbody.replaceChildren(...s.links.map(l => el('tr', {class: 'link', 'data-link': l.name, 'data-board': l.board},
    el('td', {class: 'board-name'}, l.board || (l.listener ? 'clients' : '—')),
    el('td', {class: 'mono link-name'}, l.name),
    el('td', {}, el('span', {class: 'badge link-state ' + l.state}, l.state)),
    ...(allCounters ? keys.map(k => counterCell(k, l.counters[k], OVERLOAD.test(k)))
      : SUMMARY.map(([k, , f]) => counterCell(k, f(l.counters), k === 'drops' || k === 'refusals'))))));
}

// ---------------------------------------------------------------- MQTT: the bridge and other hosts

// the bridge the host runs beside it (spectrum host --mqtt): its broker, state and counters
function renderBridge(s) {
  const box = document.getElementById('bridge');
  const b = s.bridge;
  box.hidden = !b;
  if (!b) return;
  const n = x => x.toLocaleString('en');
  const cols = [
    ['broker', 'broker', el('span', {class: 'mono'}, b.broker)],
    ['state', 'state', el('span', {class: 'badge bridge-state ' + (b.connected ? 'up' : 'down')}, b.state)],
    ['queued', 'queued', n(b.in_use) + ' / ' + n(b.capacity)],
    ['dropped', 'dropped (oldest)', n(b.dropped)],
    ['coalesced', 'coalesced (newer state)', n(b.coalesced)],
    ['published', 'published', n(b.published)],
    ['reconnects', 'reconnects', n(b.reconnects)],
    ['values', 'values from the host', n(b.values)]];
  const table = document.getElementById('bridge-table');
  table.querySelector('thead').replaceChildren(el('tr', {}, ...cols.map(([k, h]) =>
    el('th', {class: k === 'broker' || k === 'state' ? '' : 'num'}, h))));
  table.querySelector('tbody').replaceChildren(el('tr', {},
    ...cols.map(([k, , v]) => el('td', {'data-bridge': k,
      class: (k === 'broker' || k === 'state' ? '' : 'num counter') + (k === 'dropped' && b.dropped > 0 ? ' overload' : '')}, v))));
}

function remoteRow(v, prefix) {
  return el('div', {class: 'vertex remote' + (v.stale ? ' is-stale' : ''), 'data-path': v.path},
    el('div', {class: 'vhead'},
      el('span', {class: 'name', title: v.path + (v.publisher ? ' (published by ' + v.publisher + ')' : '')},
        v.path.substring(prefix.length)),
      el('span', v.stale ? {class: 'badge stale'} : {class: 'badge stale', hidden: ''}, 'stale'),
      el('span', {class: 'seq', title: 'seq: stamped by ' + (v.publisher || 'its host')}, v.seq === null ? '' : 'seq ' + v.seq)),
    el('div', {class: 'value'}, v.value === '' ? '—' : v.value));
}

// other hosts' trees as the broker holds them (spectrum host --mqtt URL --mqtt-view): read-only, grouped by board
function renderRemote(s) {
  const sec = document.getElementById('remote');
  const r = s.remote;
  sec.hidden = !r;
  if (!r) return;
  const status = sec.querySelector('.remote-status');
  const notes = [];
  if (!r.connected) notes.push('The broker (' + r.broker + ') cannot be read now: these are the last known values; '
    + 'they update again when it is back.');
  if (r.refused > 0) notes.push(r.refused.toLocaleString('en') + ' more paths are not shown (this view holds at most '
    + r.capacity.toLocaleString('en') + ').');
  status.hidden = notes.length === 0;
  status.textContent = notes.join(' ');
  sec.classList.toggle('unreachable', !r.connected);
  const hosts = r.hosts;
  if (hosts.length === 0) {
    sec.querySelector('.hosts').replaceChildren(el('p', {class: 'empty'}, 'No other host on the broker yet.'));
    return;
  }
  sec.querySelector('.hosts').replaceChildren(...hosts.map(h => {
    const presence = h.state === 'unknown' ? '$online ?' : '$online ' + h.online;
    const groups = new Map();
    for (const v of h.vertices) {
      if (!groups.has(v.board)) groups.set(v.board, []);
      groups.get(v.board).push(v);
    }
    return el('section', {class: 'board remote-host', 'data-host': h.host},
      el('div', {class: 'board-head'},
        el('h3', {}, h.host),
        el('span', {class: 'badge presence ' + h.state, title: 'spectrum/' + h.host + '/$online'}, presence),
        el('span', {class: 'remote-label'}, 'remote host · ' + h.vertices.length + (h.vertices.length === 1 ? ' vertex' : ' vertices'))),
      ...[...groups].map(([board, vs]) => {
        const prefix = '/' + h.host + '/' + (board ? board + '/' : '');
        return el('div', {class: 'remote-board', 'data-board': board},
          board ? el('h4', {}, board) : '',
          el('div', {class: 'vertices'}, ...vs.map(v => remoteRow(v, prefix))));
      }));
  }));
}

// ---------------------------------------------------------------- page

// whether the host keeps a history store: the long ranges and the custom one need it
function learnStore(s) {
  const has = s.historyStore === true;
  if (historyStore === has) return;
  historyStore = has;
  document.body.classList.toggle('history-store', has);
  if (!has && (view.span > MEMORY_SPAN || view.end !== null)) view = {span: 300000, end: null}; // remembered from a host with one
  showRange();
}

function render(s) {
  lastSnapshot = s;
  skew = s.ts - Date.now();
  learnStore(s);
  document.getElementById('node').textContent = s.node ? '— ' + s.node : '';
  renderTree(s);
  renderLinks(s);
  renderBridge(s);
  renderRemote(s);
  document.body.dataset.version = String(s.version);
  refreshStored();
}

async function post(url, body) {
  const r = await fetch(url, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
  return r.json();
}

async function act(action, path, slot) {
  const msg = document.getElementById('message');
  msg.textContent = '';
  try {
    const body = await post('api/subscribers/' + action, {path, slot: Number(slot)});
    if (!body.ok) msg.textContent = body.message || body.error;
  } catch (e) {
    msg.textContent = action + ' failed: ' + e;
  }
}

async function write(path, value) {
  const r = rows.get(path);
  const out = r ? r.el.querySelector('.write-error') : document.getElementById('message');
  out.textContent = '';
  try {
    const body = await post('api/write', {path, value: String(value)});
    if (!body.ok) out.textContent = body.message || body.error;
  } catch (e) {
    out.textContent = 'write failed: ' + e;
  }
}

document.addEventListener('click', e => {
  const b = e.target.closest('button[data-action]');
  if (b) { act(b.dataset.action, b.dataset.path, b.dataset.slot); return; }
  const w = e.target.closest('button[data-write]');
  if (w && w.dataset.write === 'toggle') { write(w.dataset.path, w.dataset.next || '1'); return; }
  if (w) {
    const input = w.parentElement.querySelector('input');
    write(w.dataset.path, input.value);
    return;
  }
  if (e.target.closest('button[data-subs]')) { setSubscribersShown(!document.body.classList.contains('show-subs')); return; }
  if (e.target.closest('#links-all')) {
    allCounters = !allCounters;
    localStorage.setItem('spectrum.links.all', allCounters ? '1' : '0');
    if (lastSnapshot) renderLinks(lastSnapshot);
    return;
  }
  const f = e.target.closest('button[data-fold]');
  if (f) {
    const sec = boards.get(f.dataset.fold);
    localStorage.setItem('spectrum.fold.' + f.dataset.fold, sec && sec.classList.contains('folded') ? '0' : '1');
    if (lastSnapshot) renderTree(lastSnapshot);
    return;
  }
  const range = e.target.closest('button[data-range]');
  if (range) { setView(Number(range.dataset.range) * 1000, null); return; }
  const z = e.target.closest('button[data-zoom]');
  if (z) { zoom(z.dataset.zoom === 'in' ? 0.5 : 2, 0.5); return; }
  const pn = e.target.closest('button[data-pan]');
  if (pn) { pan(Number(pn.dataset.pan) * view.span / 2); return; }
  if (e.target.closest('button[data-follow]')) { setView(view.span, null); return; }
  if (e.target.closest('#range-apply')) { customRange(); return; }
  const off = e.target.closest('button[data-overlay-remove]');
  if (off) setOverlays(off.dataset.path, overlaysOf(off.dataset.path).filter(p => p !== off.dataset.overlayRemove));
});

document.addEventListener('change', e => {
  const add = e.target.closest('select.overlay-add');
  if (add && add.value) {
    const path = add.dataset.path;
    add.blur();
    setOverlays(path, [...overlaysOf(path), add.value]);
  }
});

// the custom range: from / to in this browser's local time
function customRange() {
  const from = Date.parse(document.getElementById('range-from').value);
  const to = Date.parse(document.getElementById('range-to').value);
  const msg = document.getElementById('message');
  if (!isFinite(from) || !isFinite(to) || to <= from) {
    msg.textContent = 'give the range as two times, "from" before "to"';
    return;
  }
  msg.textContent = '';
  setView(to - from, to);
}

// zoom with the mouse wheel around the moment under the pointer; drag a chart to pan
function axisFraction(box, clientX) {
  const r = box.getBoundingClientRect();
  const vx = (clientX - r.left) / r.width * W;
  return Math.min(1, Math.max(0, (vx - L) / (W - L - R)));
}

document.addEventListener('wheel', e => {
  const box = e.target.closest('svg.chart');
  if (!box || e.deltaY === 0) return;
  e.preventDefault();
  zoom(e.deltaY > 0 ? 1.25 : 0.8, axisFraction(box, e.clientX));
}, {passive: false});

let drag = null;
document.addEventListener('mousedown', e => {
  const box = e.target.closest('svg.chart');
  if (!box || e.button !== 0) return;
  e.preventDefault();
  drag = {x: e.clientX, px: box.getBoundingClientRect().width * (W - L - R) / W, to: viewBounds()[1], span: view.span};
  document.body.classList.add('dragging');
});
document.addEventListener('mousemove', e => {
  if (!drag || drag.px <= 0) return;
  setView(drag.span, drag.to - (e.clientX - drag.x) / drag.px * drag.span);
});
document.addEventListener('mouseup', () => { drag = null; document.body.classList.remove('dragging'); });

document.addEventListener('keydown', e => {
  if (e.key === 'Enter' && e.target.matches('.control input')) write(e.target.dataset.path, e.target.value);
});

// subscriber tables are behind a toggle: the page shows the user's data first
function setSubscribersShown(on) {
  document.body.classList.toggle('show-subs', on);
  localStorage.setItem('spectrum.subs', on ? '1' : '0');
  const b = document.getElementById('subs-toggle');
  b.setAttribute('aria-pressed', String(on));
  b.textContent = on ? 'hide subscribers' : 'show subscribers';
}

function connect() {
  const conn = document.getElementById('conn');
  const es = new EventSource('api/events');
  es.addEventListener('open', () => { conn.textContent = 'live'; conn.className = 'badge up'; });
  es.addEventListener('snapshot', e => render(JSON.parse(e.data)));
  es.addEventListener('error', () => { conn.textContent = 'reconnecting'; conn.className = 'badge down'; });
}

// ?live=0: one snapshot, no event stream (a still picture: printing, `chromium --screenshot`)
const live = new URLSearchParams(location.search).get('live') !== '0';
showRange();
setSubscribersShown(localStorage.getItem('spectrum.subs') === '1');
// the time axis moves on (a range that follows now), the view is repeated, new stored points are fetched
setInterval(() => { if (lastSnapshot) { renderTree(lastSnapshot); refreshStored(); } }, 5000);
window.addEventListener('pagehide', () => {
  if (live) navigator.sendBeacon('api/view', new Blob([JSON.stringify({view: viewId, paths: []})], {type: 'application/json'}));
});
fetch('api/snapshot').then(r => r.json())
  .then(async s => {
    learnStore(s);
    if (!historyStore) await loadMemory();
    render(lastSnapshot || s);
  }).catch(() => {})
  .finally(() => { if (live) connect(); else document.getElementById('conn').replaceWith(''); });
