// tiao gui: the page. It draws the board the server describes, matches clicks against the
// legal moves the server lists (each with the path of squares it is clicked along), and sends
// the chosen move. It knows no rules: legality, notation and the engine are the server's.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
// The colours of `tiao board --svg` (src/render).
const LIGHT = "#f0d9b5", DARK = "#b58863", HIGHLIGHT = "#f7ec5d", ARROW = "#1f6fd1",
  CAPTURE = "#d62020", MORRIS_BOARD = "#e8cfa0", MORRIS_LINE = "#5a3d22";
const PIECE = { white: ["#fbfbf8", "#4a4a4a", "#b8860b"], black: ["#262626", "#000000", "#e0b030"] };
const S = 50; // side of a square (points apart on Morris), in the picture's units
const MAX_LINES = 40;

const page = {
  session: null,
  view: null,
  version: -1,
  flip: false,
  selection: [],
  autoPending: false,
  source: null,
  scoresKey: "",
  // The PDN text loaded last (its other games can be chosen).
  pdnText: null,
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function say(text) {
  $("message").textContent = text || "";
}

// Requests go one at a time, in the order made (two quick clicks are never answered in the
// other order).
let queue = Promise.resolve();
function api(path, body) {
  const next = queue.then(() => send(path, body));
  queue = next.catch(() => null);
  return next;
}

async function send(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(Object.assign({ session: page.session }, body || {})),
  });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: "the server answered " + r.status }; }
  if (!r.ok) {
    say(data && data.error ? data.error : "refused (" + r.status + ")");
    if (r.status === 404 && data && /session/.test(data.error || "")) start();
    return null;
  }
  if (data && data.cells) show(data);
  return data;
}

// ---- the board ----

function sideName(c) { return c === "white" ? "White" : "Black"; }

// Top-left corner of a draughts square, or the centre of a Morris point, in picture units.
function geometry(v) {
  const n = v.size;
  if (v.morris) {
    const margin = 0.6 * S;
    return {
      width: margin + 8.5 * S, height: 7 * S + margin, margin,
      centre: (f, r) => {
        const [col, row] = page.flip ? [6 - f, r] : [f, 6 - r];
        return [margin + (col + 0.5) * S, (row + 0.5) * S];
      },
    };
  }
  const margin = v.algebraic ? 0.5 * S : 0;
  const corner = (f, r) => {
    const [col, row] = page.flip ? [n - 1 - f, r] : [f, n - 1 - r];
    return [margin + col * S, row * S];
  };
  return {
    width: margin + n * S, height: n * S + margin, margin, corner,
    centre: (f, r) => { const [x, y] = corner(f, r); return [x + S / 2, y + S / 2]; },
  };
}

function drawMan(svg, cx, cy, r, color, king) {
  const [fill, stroke, crown] = PIECE[color];
  el("circle", { cx, cy, r, fill, stroke, "stroke-width": 0.04 * S, class: "piece " + color }, svg);
  if (!page.view.morris) {
    el("circle", { cx, cy, r: 0.25 * S, fill: "none", stroke, "stroke-opacity": 0.5, "stroke-width": 0.025 * S }, svg);
  }
  if (king) {
    const u = 0.1 * S;
    const pts = [[-2, 1.2], [-2, -0.8], [-1, 0.2], [0, -1.4], [1, 0.2], [2, -0.8], [2, 1.2]]
      .map(([x, y]) => (cx + x * u) + "," + (cy + y * u)).join(" ");
    el("polygon", { points: pts, fill: crown, stroke, "stroke-width": 0.02 * S, class: "crown" }, svg);
  }
}

function drawCross(svg, cx, cy, k, w) {
  el("path", {
    d: `M ${cx - k} ${cy - k} L ${cx + k} ${cy + k} M ${cx - k} ${cy + k} L ${cx + k} ${cy - k}`,
    stroke: CAPTURE, "stroke-width": w, "stroke-linecap": "round",
  }, svg);
}

function arrowDefs(svg) {
  const defs = el("defs", {}, svg);
  const m = el("marker", {
    id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4,
    orient: "auto-start-reverse",
  }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: ARROW }, m);
}

function drawArrow(svg, pts, width) {
  if (pts.length < 2) return;
  const [ax, ay] = pts[pts.length - 2], [bx, by] = pts[pts.length - 1];
  const len = Math.hypot(bx - ax, by - ay);
  const k = len > 0 ? Math.min(0.3 * S / len, 0.5) : 0;
  const p = pts.slice(0, -1).concat([[bx - (bx - ax) * k, by - (by - ay) * k]]);
  el("polyline", {
    points: p.map(([x, y]) => x + "," + y).join(" "), fill: "none", stroke: ARROW,
    "stroke-width": width, "stroke-opacity": 0.85, "stroke-linecap": "round",
    "stroke-linejoin": "round", "marker-end": "url(#arrowhead)",
  }, svg);
}

// The moves that go on from the squares clicked so far.
function candidates(sel) {
  const legal = page.view ? page.view.legal : [];
  return legal.filter((m) => sel.every((s, i) => m.path[i] === s));
}

function draw() {
  const v = page.view;
  const svg = $("board");
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const g = geometry(v);
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  svg.dataset.variant = v.variant;
  arrowDefs(svg);
  const byId = {};
  for (const c of v.cells) byId[c.id] = c;
  const centreOf = (id) => { const c = byId[id]; return g.centre(c.file, c.rank); };
  const sel = page.selection;
  // Where the piece selected may go next (nothing is marked before a piece is chosen).
  const next = new Set(sel.length ? candidates(sel).map((m) => m.path[sel.length]).filter((x) => x) : []);
  const font = (k) => k * S;
  if (v.morris) {
    el("rect", { x: g.margin, y: 0, width: 7 * S, height: 7 * S, fill: MORRIS_BOARD }, svg);
    for (const [a, b] of v.lines) {
      const [x1, y1] = centreOf(a), [x2, y2] = centreOf(b);
      el("line", { x1, y1, x2, y2, stroke: MORRIS_LINE, "stroke-width": 0.06 * S }, svg);
    }
    for (const id of v.last_path) {
      const [x, y] = centreOf(id);
      el("circle", { cx: x, cy: y, r: 0.45 * S, fill: HIGHLIGHT, "fill-opacity": 0.8 }, svg);
    }
    for (let i = 0; i < 7; i++) {
      const col = page.flip ? 6 - i : i, row = page.flip ? i : 6 - i;
      const t = el("text", { x: g.margin + (col + 0.5) * S, y: 7 * S + 0.45 * S, "font-size": font(0.3), "text-anchor": "middle", fill: "#333" }, svg);
      t.textContent = String.fromCharCode(97 + i);
      const u = el("text", { x: g.margin / 2, y: (row + 0.5) * S + 0.35 * font(0.3), "font-size": font(0.3), "text-anchor": "middle", fill: "#333" }, svg);
      u.textContent = String(i + 1);
    }
    for (const c of v.cells) {
      const [x, y] = g.centre(c.file, c.rank);
      if (sel.includes(c.id)) el("circle", { cx: x, cy: y, r: 0.45 * S, fill: "#7fc97f", "fill-opacity": 0.8 }, svg);
      if (c.piece) drawMan(svg, x, y, 0.32 * S, c.piece.color, false);
      else el("circle", { cx: x, cy: y, r: 0.1 * S, fill: MORRIS_LINE }, svg);
      if (next.has(c.id)) {
        el("circle", { cx: x, cy: y, r: 0.16 * S, fill: c.piece ? CAPTURE : "#2e8b57", "fill-opacity": 0.75, class: "target" }, svg);
      }
    }
    for (const id of v.last_captured) { const [x, y] = centreOf(id); drawCross(svg, x, y, 0.25 * S, 0.08 * S); }
    if (v.last_path.length === 2) drawArrow(svg, v.last_path.map(centreOf), 0.1 * S);
    // The men in hand, stacked on the right.
    ["white", "black"].forEach((color, i) => {
      const bottom = (i === 0) !== page.flip;
      for (let k = 0; k < v.in_hand[i]; k++) {
        const y = bottom ? 7 * S - (0.45 + 0.35 * k) * S : (0.45 + 0.35 * k) * S;
        drawMan(svg, g.margin + 7.9 * S, y, 0.32 * 0.8 * S, color, false);
      }
    });
    for (const c of v.cells) {
      const [x, y] = g.centre(c.file, c.rank);
      el("circle", { cx: x, cy: y, r: 0.48 * S, fill: "transparent", class: "cell", id: "cell-" + c.id, "data-id": c.id }, svg);
    }
    return;
  }
  const n = v.size;
  el("rect", { x: g.margin, y: 0, width: n * S, height: n * S, fill: LIGHT }, svg);
  for (const c of v.cells) {
    const [x, y] = g.corner(c.file, c.rank);
    el("rect", { x, y, width: S, height: S, fill: DARK }, svg);
  }
  const ends = v.last_path.length ? [v.last_path[0], v.last_path[v.last_path.length - 1]] : [];
  for (const id of ends) {
    const c = byId[id];
    const [x, y] = g.corner(c.file, c.rank);
    el("rect", { x, y, width: S, height: S, fill: HIGHLIGHT, "fill-opacity": 0.55 }, svg);
  }
  for (const id of sel) {
    const c = byId[id];
    const [x, y] = g.corner(c.file, c.rank);
    el("rect", { x, y, width: S, height: S, fill: "#7fc97f", "fill-opacity": 0.8, class: "selected" }, svg);
  }
  if (v.algebraic) {
    for (let i = 0; i < n; i++) {
      const [x] = g.corner(i, 0), [, y] = g.corner(0, i);
      const a = el("text", { x: x + S / 2, y: n * S + 0.35 * S, "font-size": 1.4 * font(0.22), "text-anchor": "middle", fill: "#333" }, svg);
      a.textContent = String.fromCharCode(97 + i);
      const b = el("text", { x: g.margin / 2, y: y + S / 2 + 0.5 * font(0.22), "font-size": 1.4 * font(0.22), "text-anchor": "middle", fill: "#333" }, svg);
      b.textContent = String(i + 1);
    }
  }
  for (const c of v.cells) {
    if (!c.piece) continue;
    const [x, y] = g.centre(c.file, c.rank);
    drawMan(svg, x, y, 0.36 * S, c.piece.color, c.piece.king);
  }
  if (!v.algebraic) {
    for (const c of v.cells) {
      const [x, y] = g.corner(c.file, c.rank);
      const t = el("text", {
        x: x + 0.04 * S, y: y + 0.03 * S + font(0.2), "font-size": font(0.2), fill: "#fff8ec",
        stroke: "#6b4a2f", "stroke-opacity": 0.8, "stroke-width": 0.03 * S, "paint-order": "stroke",
      }, svg);
      t.textContent = c.label;
    }
  }
  for (const id of v.last_captured) { const [x, y] = centreOf(id); drawCross(svg, x, y, 0.22 * S, 0.07 * S); }
  if (v.last_path.length >= 2) drawArrow(svg, v.last_path.map(centreOf), 0.08 * S);
  for (const c of v.cells) {
    if (!next.has(c.id)) continue;
    const [x, y] = g.centre(c.file, c.rank);
    el("circle", { cx: x, cy: y, r: 0.14 * S, fill: "#2e8b57", "fill-opacity": 0.8, class: "target" }, svg);
  }
  for (const c of v.cells) {
    const [x, y] = g.corner(c.file, c.rank);
    el("rect", { x, y, width: S, height: S, fill: "transparent", class: "cell", id: "cell-" + c.id, "data-id": c.id }, svg);
  }
}

// ---- clicking ----

function engineSide() { return $("engine-side").value; }

function engineToMove(v) {
  const e = engineSide();
  return e === "both" || e === v.side;
}

// Why a click on `id` cannot start or continue a move.
function refusal(id) {
  const v = page.view;
  const cell = v.cells.find((c) => c.id === id);
  const name = cell ? cell.label : id;
  const sel = page.selection;
  if (sel.length > 0) {
    const c = candidates(sel);
    const steps = [...new Set(c.map((m) => m.path[sel.length]))].map((s) => labelOf(s));
    if (v.morris && c.length && c[0].captured.length && sel.length === c[0].path.length - 1) {
      return `Illegal: the mill removes a man: click one of ${steps.join(", ")}`;
    }
    return `Illegal: ${labelOf(sel[0])} cannot go to ${name}; it can go to ${steps.join(", ")}`;
  }
  if (!cell) return "Illegal: no such square";
  if (cell.piece && cell.piece.color !== v.side) return `Illegal: it is ${sideName(v.side)}'s move`;
  if (v.morris) {
    return cell.piece ? `Illegal: the man on ${name} cannot move` : `Illegal: no man can go to ${name}`;
  }
  if (!cell.piece) return `Illegal: no piece on ${name}`;
  const captures = v.legal.filter((m) => m.captured.length > 0);
  if (captures.length) {
    const most = Math.max(...captures.map((m) => m.captured.length));
    const list = [...new Set(captures.map((m) => m.pdn))].slice(0, 4).join(", ");
    return `Illegal: a capture is compulsory (${most > 1 ? "the one taking the most: " : ""}${list})`;
  }
  return `Illegal: the piece on ${name} cannot move`;
}

function labelOf(id) {
  const c = page.view.cells.find((x) => x.id === id);
  return c ? c.label : id;
}

async function playMove(m) {
  page.selection = [];
  $("choices").textContent = "";
  say("");
  await api("/api/play", { move: m.hub });
}

async function playRoute(route) {
  page.selection = [];
  $("choices").textContent = "";
  say("");
  const r = await api("/api/play", { move: route.map(labelOf).join("x") });
  if (!r) draw();
}

function clickCell(id) {
  const v = page.view;
  if (!v) return;
  $("choices").textContent = "";
  if (v.status) { say("The game is over: " + v.status); return; }
  if (v.searching === "play") { say("The engine is thinking"); return; }
  if (engineToMove(v) && v.cursor === v.moves.length && engineSide() !== "none") {
    say(`It is the engine's move (${sideName(v.side)})`);
    return;
  }
  const sel = page.selection;
  if (sel.length === 1 && sel[0] === id && !v.morris) { page.selection = []; draw(); say(""); return; }
  const next = sel.concat([id]);
  const c = candidates(next);
  if (c.length === 0) {
    if (sel.length > 0) {
      const fromPiece = candidates(sel.slice(0, 1));
      // The last square of a capture clicked at once, when only one move of the piece ends there.
      const ending = fromPiece.filter((m) => m.path[m.path.length - 1] === id);
      const distinct = [...new Map(ending.map((m) => [m.hub, m])).values()];
      if (sel.length === 1 && distinct.length === 1) { playMove(distinct[0]); return; }
      // A capture taken by another route than the one listed (the same pieces in another order):
      // its landing squares in order, read by the server as PDN's long form.
      if (sel.length > 1 && distinct.length > 0) { playRoute(next); return; }
      const onARoute = fromPiece.some((m) => m.captured.length > 0 && m.path.indexOf(id, 1) > 0);
      const cell = v.cells.find((x) => x.id === id);
      if (onARoute && cell && !cell.piece) {
        page.selection = next;
        say("");
        draw();
        return;
      }
      // Another piece of one's own: start again from it.
      if (candidates([id]).length > 0) { page.selection = [id]; finishOrWait(); return; }
    }
    say(refusal(id));
    page.selection = [];
    draw();
    return;
  }
  page.selection = next;
  finishOrWait();
}

// Plays the move the selection completes, asks which when several do, or waits for more clicks.
function finishOrWait() {
  const sel = page.selection;
  const c = candidates(sel);
  const complete = c.filter((m) => m.path.length === sel.length);
  if (complete.length > 0 && complete.length === c.length) {
    const distinct = [...new Map(complete.map((m) => [m.hub, m])).values()];
    if (distinct.length === 1) { playMove(distinct[0]); return; }
    say("Several captures take this path: choose one");
    const box = $("choices");
    for (const m of distinct) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = m.pdn + " (takes " + m.captured.map(labelOf).join(", ") + ")";
      b.addEventListener("click", () => playMove(m));
      box.appendChild(b);
    }
    return;
  }
  say("");
  draw();
}

function boardClick(ev) {
  const t = ev.target.closest ? ev.target.closest(".cell") : null;
  if (t) clickCell(t.getAttribute("data-id"));
}

// Dragging a piece: a press on one cell and a release on another are two clicks.
let dragFrom = null;
function boardDown(ev) {
  const t = ev.target.closest ? ev.target.closest(".cell") : null;
  dragFrom = t ? t.getAttribute("data-id") : null;
}
function boardUp(ev) {
  if (!dragFrom) return;
  const at = document.elementFromPoint(ev.clientX, ev.clientY);
  const t = at && at.closest ? at.closest(".cell") : null;
  const to = t ? t.getAttribute("data-id") : null;
  if (to && to !== dragFrom && page.selection.length === 0) {
    const from = dragFrom;
    dragFrom = null;
    clickCell(from);
    if (page.selection.length > 0) clickCell(to);
    return;
  }
  dragFrom = null;
}

// ---- the view ----

function moveNumberText(i, v) {
  const offset = v.start_side !== v.first_side ? 1 : 0;
  const ply = i + offset;
  return { number: Math.floor(ply / 2) + 1, first: ply % 2 === 0 };
}

function drawMoves(v) {
  const ol = $("moves");
  ol.textContent = "";
  let li = null;
  v.moves.forEach((m, i) => {
    const { number, first } = moveNumberText(i, v);
    if (first || li === null) {
      li = document.createElement("li");
      li.value = number;
      ol.appendChild(li);
      if (!first) li.appendChild(document.createTextNode("… "));
    }
    const span = document.createElement("span");
    span.textContent = m.pdn;
    span.dataset.ply = String(i + 1);
    span.id = "move-" + (i + 1);
    if (i + 1 === v.cursor) span.className = "current";
    span.addEventListener("click", () => api("/api/goto", { ply: i + 1 }));
    li.appendChild(span);
    li.appendChild(document.createTextNode(" "));
  });
  const cur = document.querySelector("#moves .current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
}

function show(v) {
  if (v.version !== undefined && v.version < page.version) return;
  const changed = !page.view || page.view.fen !== v.fen || page.view.cursor !== v.cursor ||
    page.view.variant !== v.variant || page.view.moves.length !== v.moves.length;
  page.version = v.version;
  page.view = v;
  if (changed) { page.selection = []; $("choices").textContent = ""; }
  $("variant").value = v.variant;
  document.body.dataset.startFen = v.start_fen || "";
  // The field follows the board when the position changes (not on a repeated view: the user
  // may be typing a FEN).
  if (changed && document.activeElement !== $("fen")) $("fen").value = v.fen;
  let status = v.status ? v.status : `${sideName(v.side)} to move`;
  if (v.morris && v.in_hand) status += ` — in hand: White ${v.in_hand[0]}, Black ${v.in_hand[1]}`;
  if (v.searching === "play") status += " — the engine is thinking";
  if (v.searching === "analyze") status += " — analysing";
  if (v.searching === "review") status += " — scoring the game";
  $("status").textContent = status;
  $("status").dataset.side = v.side;
  $("status").dataset.searching = v.searching || "";
  $("analyze").disabled = v.searching === "analyze";
  $("stop").disabled = !v.searching;
  const book = $("book");
  book.textContent = "";
  if (v.book.length) {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = "book";
    book.appendChild(tag);
    book.appendChild(document.createTextNode(" " + v.book.map((b) => `${b.pdn} ${b.score}`).join(", ")));
  }
  $("tables").textContent = v.tables ? "Endgame tables: " + v.tables : "";
  showGames(v);
  drawMoves(v);
  draw();
  const key = JSON.stringify(v.scores);
  if (key !== page.scoresKey) {
    page.scoresKey = key;
    $("curve").src = `/api/curve?session=${page.session}&v=${v.version}`;
  }
  autoplay(v);
}

// The games of the PDN text loaded, to choose from (when it holds several).
function showGames(v) {
  const select = $("pdn-game");
  const several = v.pdn_games.length > 1 && page.pdnText !== null;
  $("pdn-game-label").hidden = !several;
  if (!several) return;
  if (select.options.length !== v.pdn_games.length) {
    select.textContent = "";
    v.pdn_games.forEach((label, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = label;
      select.appendChild(o);
    });
  }
  select.value = String(v.pdn_game);
}

async function loadPdn(text, game) {
  const r = await api("/api/pdn/load", { pdn: text, game });
  if (r) {
    page.pdnText = text;
    $("pdn-game").textContent = "";
    showGames(r);
  }
}

// The engine moves when it is its side's turn at the end of the game.
function autoplay(v) {
  if (v.searching || v.status || v.cursor !== v.moves.length || !engineToMove(v) || engineSide() === "none") {
    page.autoPending = false;
    return;
  }
  if (page.autoPending) return;
  page.autoPending = true;
  engineMove();
}

function moveTimeMs() {
  const t = parseFloat($("movetime").value);
  if (!(t > 0)) return 1000;
  return Math.max(1, Math.min(3600000, Math.round(t * 1000)));
}

async function engineMove() {
  const r = await api("/api/engine", { movetime: moveTimeMs() });
  if (!r) page.autoPending = false;
}

function addLine(line) {
  const body = $("lines").tBodies[0];
  const tr = document.createElement("tr");
  tr.className = "line " + line.purpose;
  const cells = [
    String(line.depth) + (line.seldepth > line.depth ? "/" + line.seldepth : ""),
    line.score,
    line.book ? "" : (line.nps >= 1e6 ? (line.nps / 1e6).toFixed(2) + "M" : Math.round(line.nps / 1e3) + "k"),
    line.pv.join(" "),
  ];
  cells.forEach((text, i) => {
    const td = document.createElement("td");
    td.textContent = text;
    if (i === 3) td.className = "pv";
    if (i === 1 && (line.book || line.table)) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = line.book ? "book" : "tables";
      td.appendChild(document.createTextNode(" "));
      td.appendChild(tag);
    }
    tr.appendChild(td);
  });
  tr.dataset.depth = String(line.depth);
  body.insertBefore(tr, body.firstChild);
  while (body.rows.length > MAX_LINES) body.deleteRow(body.rows.length - 1);
}

function connect() {
  if (page.source) page.source.close();
  const src = new EventSource(`/api/events?session=${page.session}`);
  page.source = src;
  src.addEventListener("state", (e) => show(JSON.parse(e.data)));
  src.addEventListener("info", (e) => addLine(JSON.parse(e.data)));
  src.addEventListener("done", (e) => {
    const d = JSON.parse(e.data);
    if (d.purpose === "play" && d.played) say("");
  });
  src.addEventListener("error", (e) => {
    if (e.data) say(JSON.parse(e.data).error);
  });
  src.onopen = () => { $("connection").textContent = ""; };
  src.onerror = () => { $("connection").textContent = "(reconnecting…)"; };
}

async function start() {
  const r = await fetch("/api/session", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
  });
  const v = await r.json();
  if (!r.ok) { say(v.error || "no session"); return; }
  page.session = v.session;
  page.version = -1;
  page.view = null;
  document.body.dataset.session = v.session;
  show(v);
  connect();
}

function navigate(delta) {
  const v = page.view;
  if (!v) return;
  const ply = delta === "first" ? 0 : delta === "last" ? v.moves.length : v.cursor + delta;
  if (ply < 0 || ply > v.moves.length) return;
  api("/api/goto", { ply });
}

function takeBack() {
  const v = page.view;
  if (!v || v.cursor === 0) return;
  let ply = v.cursor - 1;
  // Against the engine, back to the player's own move.
  const e = engineSide();
  if (e !== "none" && e !== "both" && ply > 0) {
    const sideAt = (p) => ((p % 2 === 0) === (v.start_side === "white")) ? "white" : "black";
    if (sideAt(ply) === e) ply -= 1;
  }
  api("/api/takeback", { ply });
}

function init() {
  const board = $("board");
  board.addEventListener("click", boardClick);
  board.addEventListener("pointerdown", boardDown);
  board.addEventListener("pointerup", boardUp);
  $("new-game").addEventListener("click", () => api("/api/new", { variant: $("variant").value }));
  $("variant").addEventListener("change", () => api("/api/new", { variant: $("variant").value }));
  $("flip").addEventListener("click", () => { page.flip = !page.flip; draw(); });
  $("nav-first").addEventListener("click", () => navigate("first"));
  $("nav-prev").addEventListener("click", () => navigate(-1));
  $("nav-next").addEventListener("click", () => navigate(1));
  $("nav-last").addEventListener("click", () => navigate("last"));
  $("takeback").addEventListener("click", takeBack);
  $("engine-move").addEventListener("click", engineMove);
  $("engine-side").addEventListener("change", () => { page.autoPending = false; if (page.view) autoplay(page.view); });
  $("analyze").addEventListener("click", () => { $("lines").tBodies[0].textContent = ""; api("/api/analyze"); });
  $("stop").addEventListener("click", () => api("/api/stop"));
  $("review").addEventListener("click", () => api("/api/review"));
  $("setup").addEventListener("click", () => api("/api/new", { variant: $("variant").value, fen: $("fen").value }));
  $("pdn-load").addEventListener("click", () => loadPdn($("pdn-text").value, 0));
  $("pdn-game").addEventListener("change", () => {
    if (page.pdnText !== null) loadPdn(page.pdnText, Number($("pdn-game").value));
  });
  $("pdn-file").addEventListener("change", async () => {
    const f = $("pdn-file").files[0];
    if (!f) return;
    const text = await f.text();
    await loadPdn(text, 0);
    $("pdn-file").value = "";
  });
  $("pdn-save").addEventListener("click", async () => {
    const r = await api("/api/pdn/save");
    if (!r) return;
    $("pdn-text").value = r.pdn;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.pdn], { type: "text/plain" }));
    a.download = "tiao-game.pdn";
    document.body.appendChild(a);
    a.click();
    a.remove();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target && ["INPUT", "TEXTAREA", "SELECT"].includes(ev.target.tagName)) return;
    if (ev.key === "ArrowLeft") navigate(-1);
    else if (ev.key === "ArrowRight") navigate(1);
    else if (ev.key === "Home") navigate("first");
    else if (ev.key === "End") navigate("last");
  });
  window.addEventListener("pagehide", () => { if (page.source) page.source.close(); });
  start();
}

document.addEventListener("DOMContentLoaded", init);
