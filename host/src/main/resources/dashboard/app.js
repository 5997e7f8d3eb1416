// Spectrum dashboard: renders snapshots pushed over Server-Sent Events; no page reloads.
'use strict';

const HISTORY = 60;          // points per sparkline
const history = new Map();   // path -> [{seq, number}]
const rows = new Map();      // path -> {el, subsKey}
let lastSnapshot = null;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function remember(v) {
  if (!v.numeric) { history.delete(v.path); return; }
  let h = history.get(v.path);
  if (!h) { h = []; history.set(v.path, h); }
  if (h.length === 0 || h[h.length - 1].seq !== v.seq) {
    h.push({seq: v.seq, number: v.number});
    if (h.length > HISTORY) h.shift();
  }
}

function chart(path, unit) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'chart');
  svg.setAttribute('viewBox', '0 0 160 28');
  svg.setAttribute('preserveAspectRatio', 'none');
  const h = history.get(path) || [];
  if (h.length > 0) {
    let lo = Infinity, hi = -Infinity;
    for (const p of h) { lo = Math.min(lo, p.number); hi = Math.max(hi, p.number); }
    const span = hi - lo || 1;
    const step = h.length > 1 ? 160 / (HISTORY - 1) : 0;
    const pts = h.map((p, i) => (i * step).toFixed(1) + ',' + (26 - ((p.number - lo) / span) * 24).toFixed(1));
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
    line.setAttribute('points', pts.join(' '));
    svg.append(line);
    const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
    const u = unit ? ' ' + unit : '';
    title.textContent = `min ${lo}${u} max ${hi}${u} over the last ${h.length} values`;
    svg.append(title);
  }
  return svg;
}

function subscribersTable(v) {
  if (v.subscribers.length === 0) return el('p', {class: 'hint subs'}, 'no subscribers');
  const tbody = el('tbody');
  for (const s of v.subscribers) {
    const tr = el('tr', {class: 'sub', 'data-path': v.path, 'data-slot': String(s.slot)},
      el('td', {}, '[' + s.slot + ']'),
      el('td', {class: 'mono'}, s.holder),
      el('td', {class: 'mono'}, s.target),
      el('td', {}, el('span', {class: 'badge state ' + s.state}, s.state)),
      el('td', {class: 'delivered'}, s.delivered < 0 ? '—' : String(s.delivered)),
      el('td', {},
        el('button', {'data-action': s.suspended ? 'resume' : 'suspend', 'data-path': v.path, 'data-slot': String(s.slot)},
          s.suspended ? 'Resume' : 'Suspend'),
        el('button', {'data-action': 'clear', 'data-path': v.path, 'data-slot': String(s.slot)}, 'Clear')));
    tbody.append(tr);
  }
  return el('table', {class: 'subs'},
    el('thead', {}, el('tr', {}, ...['slot', 'holder', 'target', 'state', 'delivered', ''].map(h => el('th', {}, h)))),
    tbody);
}

function vertexRow(v) {
  const row = el('div', {class: 'vertex', 'data-path': v.path},
    el('div', {class: 'vrow'},
      el('span', {class: 'name'}, v.path),
      el('span', {class: 'value'}),
      el('span', {class: 'seq'}),
      el('span', {class: 'chart-slot'}),
      el('span', {class: 'badge stale', hidden: ''}, 'stale')),
    el('div', {class: 'subs-slot'}));
  return row;
}

function renderTree(s) {
  const tree = document.getElementById('tree');
  if (s.vertices.length === 0) {
    tree.replaceChildren(el('p', {class: 'empty'}, 'No vertices yet.'));
    rows.clear();
    return;
  }
  const seen = new Set();
  const ordered = [];
  let lastGroup = null;
  for (const v of s.vertices) {
    seen.add(v.path);
    remember(v);
    const cut = v.path.lastIndexOf('/');
    const group = cut > 0 ? v.path.substring(0, cut) : '/';
    if (group !== lastGroup) {
      ordered.push(el('div', {class: 'group'}, group));
      lastGroup = group;
    }
    let r = rows.get(v.path);
    if (!r) { r = {el: vertexRow(v), subsKey: null}; rows.set(v.path, r); }
    r.el.querySelector('.value').textContent = v.value === '' ? '—' : v.value;
    r.el.querySelector('.seq').textContent = 'seq ' + v.seq;
    r.el.classList.toggle('is-stale', v.stale);
    r.el.querySelector('.badge.stale').hidden = !v.stale;
    r.el.querySelector('.chart-slot').replaceChildren(v.numeric ? chart(v.path, v.unit) : '');
    // rebuild the subscriber table only when its shape changes, so a button is not replaced under a click
    const key = v.subscribers.map(x => `${x.slot}:${x.state}:${x.holder}:${x.target}`).join('|');
    if (key !== r.subsKey) {
      r.el.querySelector('.subs-slot').replaceChildren(subscribersTable(v));
      r.subsKey = key;
    } else {
      for (const x of v.subscribers) {
        const cell = r.el.querySelector(`tr.sub[data-slot="${x.slot}"] .delivered`);
        if (cell) cell.textContent = x.delivered < 0 ? '—' : String(x.delivered);
      }
    }
    ordered.push(r.el);
  }
  for (const p of [...rows.keys()]) if (!seen.has(p)) { rows.delete(p); history.delete(p); }
  tree.replaceChildren(...ordered);
}

// drops, refusals and evictions: shown highlighted as soon as they are not zero (issue 11: overload is visible)
const OVERLOAD = /^(dropped|peersRefused|peersEvicted|shareRefusals|deliveriesDropped|sendRefused|peers\.refused)/;

function renderLinks(s) {
  const tbody = document.querySelector('#links tbody');
  if (s.links.length === 0) {
    tbody.replaceChildren(el('tr', {}, el('td', {colspan: '3', class: 'empty'}, 'no links')));
    return;
  }
  tbody.replaceChildren(...s.links.map(l => el('tr', {class: 'link', 'data-link': l.name},
    el('td', {}, l.name),
    el('td', {}, el('span', {class: 'badge ' + (l.up ? 'up' : 'down')}, l.up ? 'up' : 'down')),
    el('td', {class: 'counters'},
      ...Object.entries(l.counters).map(([k, v]) =>
        el('span', {class: 'counter' + (OVERLOAD.test(k) && v > 0 ? ' overload' : ''), 'data-counter': k},
          k + '=' + v + '  '))))));
}

function render(s) {
  lastSnapshot = s;
  document.getElementById('node').textContent = s.node ? '— ' + s.node : '';
  renderTree(s);
  renderLinks(s);
  document.body.dataset.version = String(s.version);
}

async function act(action, path, slot) {
  const msg = document.getElementById('message');
  msg.textContent = '';
  try {
    const r = await fetch('api/subscribers/' + action, {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({path, slot: Number(slot)}),
    });
    const body = await r.json();
    if (!body.ok) msg.textContent = body.message || body.error;
  } catch (e) {
    msg.textContent = action + ' failed: ' + e;
  }
}

document.addEventListener('click', e => {
  const b = e.target.closest('button[data-action]');
  if (b) act(b.dataset.action, b.dataset.path, b.dataset.slot);
});

function connect() {
  const conn = document.getElementById('conn');
  const es = new EventSource('api/events');
  es.addEventListener('open', () => { conn.textContent = 'live'; conn.className = 'badge up'; });
  es.addEventListener('snapshot', e => render(JSON.parse(e.data)));
  es.addEventListener('error', () => { conn.textContent = 'reconnecting'; conn.className = 'badge down'; });
}

fetch('api/snapshot').then(r => r.json()).then(s => { if (!lastSnapshot) render(s); }).catch(() => {});
connect();
