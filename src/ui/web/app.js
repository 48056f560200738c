// boardbot's page: draws the game-neutral view the server sends (docs/api.md) and sends the
// person's clicks as moves. It knows no game's rules: the games, boards, moves and pictures come
// from the API; the view's `style` says how to draw the board (grid, stones, columns, checkers,
// mancala) and its marks what the last move did.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

let info = null;        // GET /api/games
let state = null;       // the last state the server sent
let selected = [];      // the keys clicked so far of a move that takes several clicks
let pending = false;    // a request that changes the game is on its way
let review = null;      // {ply, view}: a past position shown from the move list
let lock = null;        // {game, view, cells: Set of "ROW,COL"}: choosing cells out of play
let lockedCells = null; // {game, cells: [...]} chosen for the next new game
let hint = null;        // {keys, text}: the engine's suggestion, shown until the game changes
let lastBar = null;     // the evaluation bar's last value, from the person's view
let numbers = false;    // move numbers on the stones
let flipped = false;    // the board turned half round from the way it is drawn by default
let resignAsked = null; // the timer of a first click on Resign, waiting for the second
let fallen = -1;        // the number of moves when a Connect-X disc last fell (once per move)
let drawnPlies = 0;     // the moves of the live position the board last showed (motion starts there)
let drawnGame = null;   // "SESSION GAME" of that position; "new": a new game asked for (its moves move)
let anim = null;        // {skip}: a move being shown moving (the board is the animation's)
let sentPath = null;    // the squares of a jump path the person clicked, shown while it is sent
const frames = [];      // what the animations showed, for tests: {ply, hops | counts}
let slow = 1;           // the animations' speed divisor (tests slow them to watch them)
let analysis = null;    // the analysis board: {key, ply, pending | error | moves, player}
let clockSeen = null;   // {key, at}: the game clock as the server last gave it, and when it came
let flagAsked = 0;      // when the page last asked the server whether the person's time ran out
let edit = null;        // setting up a position: {base, view, start, tool, side, error}
let painting = null;    // the cells a press (held down) has painted, while it is held
let restoring = false;  // a kept game is being started again (its record keeps its id)
let keptSeen = "";
let lastRecord = null;  // the record the page last downloaded: {filename, text}      // what the kept record of the shown game last held (saved on a change)
let carrying = null;    // the cell of the piece a press carries (the Move tool), while it is held

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
  if (!res.ok) {
    const err = new Error(data && data.error ? data.error : res.statusText);
    err.status = res.status;
    throw err;
  }
  return data;
}

function say(text) { $("message").textContent = text; }

const sideIndex = (side) => (side === "first" ? 0 : 1);
const otherSide = (side) => (side === "first" ? "second" : "first");

// A player's name as the board draws it (the view's: Black and White stones, Red and Yellow
// discs, South and North).
function sideName(view, side) {
  return view.players[sideIndex(side)].name;
}

function who(side) {
  if (!state) return "";
  return side === state.your_side ? "you" : "boardbot";
}

function legalMoves() {
  if (!state || state.status !== "your_turn" || pending || review || lock || anim || edit) return [];
  if (analysis && analysis.pending) return [];
  return state.view.moves;
}

function startsWith(keys, prefix) {
  return prefix.every((k, i) => keys[i] === k);
}

// The legal move whose clicks are exactly those made so far, when longer moves also start with
// them (a multiple jump that may stop there): the "Stop here" button plays it.
function stopMove() {
  if (selected.length === 0) return null;
  const moves = legalMoves();
  const done = moves.find((m) => m.keys.length === selected.length && startsWith(m.keys, selected));
  const longer = moves.some((m) => m.keys.length > selected.length && startsWith(m.keys, selected));
  return done && longer ? done : null;
}

// Whether the board is drawn turned half round: the person's side at the bottom, unless the
// person flipped it.
function turned(view) {
  return !!(view.bottom && state && view.bottom !== state.your_side) !== flipped;
}

// Boards that may be flipped: not Connect-X's columns (the discs fall down).
const flippable = (view) => view.style !== "columns";

// ---- the pieces ----

const SVG = "http://www.w3.org/2000/svg";

function crown() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 18");
  svg.setAttribute("class", "crown");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", "M2 15 L3.5 4 L8.5 9 L12 2 L15.5 9 L20.5 4 L22 15 Z");
  svg.appendChild(path);
  return svg;
}

function pieceOf(view, content, cell) {
  const side = content[0] === "X" ? "first" : "second";
  let p;
  switch (view.style) {
    case "grid": p = el("span", `mark ${content[0]}`, content[0]); break;
    case "stones": p = el("span", `stone ${content[0]}`); break;
    case "columns": p = el("span", `disc ${content[0]}`); break;
    default: p = el("span", `piece ${content[0]}`);
  }
  if (content.length > 1 && content[1] === "K") {
    p.classList.add("king");
    p.appendChild(crown());
  }
  if (numbers && cell.number && (view.style === "stones" || view.style === "grid")) {
    p.appendChild(el("span", "number", String(cell.number)));
  }
  p.setAttribute("aria-label", sideName(view, side) + (p.classList.contains("king") ? " king" : ""));
  return p;
}

// ---- the board ----

function cellLabel(view, i, c) {
  const row = Math.floor(i / view.cols), col = i % view.cols;
  const at = view.col_labels.length && view.row_labels.length
    ? view.col_labels[col] + view.row_labels[row]
    : view.col_labels.length ? `column ${view.col_labels[col]}` : c.label ? `square ${c.label}` : `row ${row + 1} column ${col + 1}`;
  return `${at}: ${c.content === "#" ? "out of play" : c.content || "empty"}`;
}

// Decorates cell `c` (index `i` of `view`) drawn as `b` with what a click on it does now.
function decorate(b, view, i, c, ctx) {
  b.dataset.index = i;
  b.dataset.content = c.content;
  if (c.key !== null) b.dataset.key = c.key;
  for (const m of c.marks || []) b.classList.add(`m-${m}`);
  if (c.marked) b.classList.add("marked");
  if (c.key !== null && ctx.next.has(c.key)) {
    b.classList.add("playable");
    if (selected.length > 0) b.classList.add("dest");
  }
  if (c.key !== null && selected.includes(c.key)) b.classList.add("selected");
  if (c.key !== null && ctx.hintKeys.includes(c.key)) {
    // A move of one click on a board of stones, marks or discs: the stone it would place,
    // ghosted, on the cell it would take (a Connect-X column's lowest empty cell).
    const placing = ctx.hintKeys.length === 1 && ["grid", "stones", "columns"].includes(view.style);
    if (!placing) b.classList.add("hinted");
    else if (i === ctx.hintCell) {
      b.classList.add("hinted");
      const mine = state && state.your_side === "first" ? "X" : "O";
      const ghost = view.style === "grid" ? el("span", `mark ${mine} hint-ghost`, mine)
        : el("span", `${view.style === "stones" ? "stone" : "disc"} ${mine} hint-ghost`);
      ghost.setAttribute("aria-label", "the hint");
      b.appendChild(ghost);
    }
  }
  b.addEventListener("click", () => click(c.key, i));
  if (c.key !== null) {
    b.addEventListener("mouseenter", () => hover(c.key, true));
    b.addEventListener("mouseleave", () => hover(c.key, false));
  }
}

function drawGrid(board, view, ctx) {
  const rowLabels = view.row_labels.length > 0, colLabels = view.col_labels.length > 0;
  board.style.gridTemplateColumns = `${rowLabels ? "auto " : ""}repeat(${view.cols}, minmax(0, 1fr))`;
  const order = [...Array(view.rows * view.cols).keys()];
  if (ctx.turned) order.reverse();
  if (colLabels) {
    if (rowLabels) board.appendChild(el("span", "coord corner"));
    for (let col = 0; col < view.cols; col++) {
      board.appendChild(el("span", "coord col", view.col_labels[ctx.turned ? view.cols - 1 - col : col]));
    }
  }
  order.forEach((i, d) => {
    if (rowLabels && d % view.cols === 0) board.appendChild(el("span", "coord row", view.row_labels[Math.floor(i / view.cols)]));
    const c = view.cells[i];
    const b = el("button", "cell");
    b.type = "button";
    const row = Math.floor(i / view.cols), col = i % view.cols;
    if (view.style === "stones") {
      if (row === 0) b.classList.add("top");
      if (row === view.rows - 1) b.classList.add("bottom");
      if (col === 0) b.classList.add("left");
      if (col === view.cols - 1) b.classList.add("right");
      if (isStar(view, row, col)) b.classList.add("star");
    }
    if (c.content === "#") b.classList.add(view.style === "checkers" ? "light" : "blocked");
    else if (view.style === "checkers") b.classList.add("dark");
    if (ctx.lock && c.content === "") b.classList.add("lockable");
    if (ctx.taking && ctx.taking.has(i)) b.classList.add("taking");
    if (c.content && c.content !== "#") {
      const piece = pieceOf(view, c.content, c);
      // The last disc dropped falls from above its column, once (not at every redraw).
      if (ctx.fall && (c.marks || []).includes("last")) {
        piece.classList.add("falling");
        piece.style.setProperty("--fall", String(ctx.turned ? view.rows - row : row + 1));
      }
      b.appendChild(piece);
    }
    if (view.style === "checkers" && c.label) b.appendChild(el("span", "sq", c.label));
    b.setAttribute("aria-label", cellLabel(view, i, c));
    decorate(b, view, i, c, ctx);
    board.appendChild(b);
  });
}

// The star points of go-like boards: the centre, and the points 3 or 4 lines in on large boards.
function isStar(view, row, col) {
  const { rows, cols } = view;
  if (rows < 9 || cols < 9 || rows % 2 === 0 || cols % 2 === 0) return false;
  const edge = rows >= 13 && cols >= 13 ? 3 : 2;
  const lines = (n) => [edge, (n - 1) / 2, n - 1 - edge];
  return lines(rows).includes(row) && lines(cols).includes(col) && (row === (rows - 1) / 2) === (col === (cols - 1) / 2);
}

// Seeds drawn in a pit: up to 24 dots on a spiral, the count beside.
function seeds(n) {
  const box = el("span", "seeds");
  const shown = Math.min(n, 24);
  for (let k = 0; k < shown; k++) {
    const r = shown === 1 ? 0 : 12 + 26 * Math.sqrt((k + 0.5) / shown);
    const a = k * 2.399963; // the golden angle: an even spread
    const s = el("span", "seed");
    s.style.left = `${50 + r * Math.cos(a) - 6}%`;
    s.style.top = `${50 + r * Math.sin(a) - 6}%`;
    s.style.filter = `hue-rotate(${(k * 47) % 60 - 30}deg)`;
    box.appendChild(s);
  }
  return box;
}

function drawMancala(board, view, ctx) {
  const p = view.cols - 2;
  // The stores' columns as wide as each other, whatever the row names beside them (a long
  // name used to widen the left one past the board's edge on a phone).
  board.style.gridTemplateColumns = `minmax(0, 1.25fr) repeat(${p}, minmax(0, 1fr)) minmax(0, 1.25fr)`;
  const order = [...Array(view.rows * view.cols).keys()];
  if (ctx.turned) order.reverse();
  const at = (r, c) => order[r * view.cols + c];
  const bottomSide = ctx.turned ? "second" : "first";
  const topSide = otherSide(bottomSide);
  const place = (b, row, col, span) => {
    b.style.gridRow = span ? `${row} / span ${span}` : `${row}`;
    b.style.gridColumn = `${col}`;
  };
  const labelRow = (r, rowNo, side) => {
    for (let c = 1; c <= p; c++) {
      const lab = el("span", "coord pitno", view.cells[at(r, c)].label || "");
      place(lab, rowNo, c + 1);
      board.appendChild(lab);
    }
    const name = el("span", `coord rowname side-${side}`, `${sideName(view, side)} · ${who(side)}`);
    place(name, rowNo, 1);
    name.style.gridColumn = `1 / span 1`;
    board.appendChild(name);
  };
  labelRow(0, 1, topSide);
  for (const [r, rowNo, side] of [[0, 2, topSide], [1, 3, bottomSide]]) {
    for (let c = 1; c <= p; c++) {
      const i = at(r, c), cell = view.cells[i];
      const b = el("button", `cell pit side-${side}`);
      b.type = "button";
      b.appendChild(seeds(Number(cell.content) || 0));
      b.appendChild(el("span", "count", cell.content));
      b.setAttribute("aria-label", `${sideName(view, side)} pit ${cell.label}: ${cell.content} seeds`);
      decorate(b, view, i, cell, ctx);
      place(b, rowNo, c + 1);
      board.appendChild(b);
    }
  }
  labelRow(1, 4, bottomSide);
  for (const [r, c, side, col] of [[0, 0, topSide, 1], [1, view.cols - 1, bottomSide, p + 2]]) {
    const i = at(r, c), cell = view.cells[i];
    const b = el("div", `cell store side-${side}`);
    b.appendChild(el("span", "store-name", `${who(side) === "you" ? "your" : "boardbot's"} store`));
    b.appendChild(seeds(Number(cell.content) || 0));
    b.appendChild(el("span", "count", cell.content));
    b.setAttribute("aria-label", `${sideName(view, side)}'s store (${who(side)}): ${cell.content} seeds`);
    b.dataset.index = i;
    b.dataset.content = cell.content;
    b.dataset.side = side;
    for (const m of cell.marks || []) b.classList.add(`m-${m}`);
    place(b, 2, col, 2);
    board.appendChild(b);
  }
}

// The cell a one-click hint would fill: the last empty cell (in reading order) with its key,
// which is the cell itself on boards of stones and marks and the lowest free cell of a
// Connect-X column.
function hintCell(view, keys) {
  if (keys.length !== 1) return -1;
  let at = -1;
  view.cells.forEach((c, i) => { if (c.key === keys[0] && c.content === "") at = i; });
  return at;
}

function drawBoard(view, ctx) {
  ctx.hintCell = hintCell(view, ctx.hintKeys);
  const board = $("board");
  board.replaceChildren();
  board.className = `style-${view.style}${ctx.interactive ? "" : " still"}${ctx.lock ? " locking" : ""}${numbers ? " numbered" : ""}${edit ? " editing" : ""}`;
  board.style.setProperty("--cols", view.cols);
  board.style.setProperty("--rows", view.rows);
  board.dataset.turned = ctx.turned ? "yes" : "no";
  const moves = state ? state.played.length : 0;
  ctx.fall = view.style === "columns" && !review && !lock && !edit && moves > 0 && moves !== fallen;
  if (ctx.fall) fallen = moves;
  if (view.style === "mancala") drawMancala(board, view, ctx);
  else drawGrid(board, view, ctx);
}

// ---- motion ----
// A checkers piece slides along its path hop by hop and the pieces it takes fade; a Kalah
// sowing drops its seeds one by one; a click or a key shows the end at once. None for people
// who ask for less motion (prefers-reduced-motion), and none on a redraw: only the moves since
// the position the board last showed move, once.

const HOP = 220;      // ms a checkers hop takes
const FADE = 250;     // ms a taken piece takes to fade
const SEED = 120;     // ms between two seeds of a sowing, at most...
const SOWING = 1500;  // ...and a whole sowing at most this long (25 ms a seed at least)

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const lessMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

// A jump path being clicked (or sent): the piece drawn on the path's last square, its square
// left empty, and the pieces it jumps over (those between two squares of the path on a
// diagonal) marked at once. Checkers boards only; any other view is returned as it is.
function alongPath(view, path) {
  const none = { view, taking: new Set() };
  if (view.style !== "checkers" || !path || path.length < 2) return none;
  const at = (key) => view.cells.findIndex((c) => c.key === key);
  const from = at(path[0]), to = at(path[path.length - 1]);
  const mover = from >= 0 ? view.cells[from].content : "";
  if (to < 0 || !mover || mover === "#") return none;
  const taking = new Set();
  for (let h = 1; h < path.length; h++) {
    const a = at(path[h - 1]), b = at(path[h]);
    if (a < 0 || b < 0) return none;
    const [ar, ac, br, bc] = [Math.floor(a / view.cols), a % view.cols, Math.floor(b / view.cols), b % view.cols];
    const n = Math.abs(br - ar);
    if (n !== Math.abs(bc - ac)) continue;
    for (let k = 1; k < n; k++) {
      const i = (ar + k * Math.sign(br - ar)) * view.cols + ac + k * Math.sign(bc - ac);
      const c = view.cells[i].content;
      if (c && c !== "#" && c[0] !== mover[0]) taking.add(i);
    }
  }
  const cells = view.cells.map((c) => ({ ...c }));
  cells[from].content = "";
  cells[to].content = mover;
  return { view: { ...view, cells }, taking };
}

// Whether the moves since the board last showed the live position are to be shown moving
// (then `anim` is set and the board left to `animate`), or the board just shows the position.
function startsMotion(s) {
  if (anim || review || lock || edit) return false;
  const key = `${s.session} ${s.game}`;
  const plies = s.history.length;
  if (drawnGame !== key || plies < drawnPlies) {
    drawnGame = key;
    drawnPlies = plies;
    return false;
  }
  if (plies === drawnPlies) return false;
  const resting = !pending && (s.status === "your_turn" || s.status === "over");
  const moving = s.view.style === "checkers" || s.view.style === "mancala";
  if (!resting || !moving || lessMotion() || plies - drawnPlies > 12) {
    drawnPlies = plies;
    return false;
  }
  anim = { skip: false, from: drawnPlies, to: plies };
  return true;
}

function stillCtx(view) {
  return { turned: turned(view), interactive: false, next: new Set(), hintKeys: [], lock: false, taking: new Set() };
}

// Shows the moves `anim.from` to `anim.to` of state `s` moving, each from the position before
// it (GET /api/view), then draws the position.
async function animate(s) {
  const { from, to } = anim;
  const views = [];
  try {
    for (let k = from; k < to; k++) {
      views.push((await api("GET", `/api/view?session=${encodeURIComponent(s.session)}&ply=${k}`)).view);
    }
    views.push(s.view);
    for (let k = from; k < to && !anim.skip; k++) {
      const before = views[k - from], after = views[k - from + 1], played = s.played[k];
      const mv = before.moves.find((m) => m.text === played.text);
      if (!mv || mv.keys.length === 0) continue;
      // The person's own pieces moved as they clicked them; sowings are shown whoever sows.
      if (before.style === "checkers" && who(played.side) !== "you") await slide(before, after, mv.keys, k + 1);
      else if (before.style === "mancala") await sow(before, mv.keys[0], played.side, k + 1);
    }
  } catch (e) {
    // A view refused (the game changed meanwhile): the position is drawn as it is.
  }
  anim = null;
  drawnPlies = to;
  render();
}

// A checkers move of `keys` (its square, then each landing) from `before`: the piece slides
// hop by hop; the pieces `after` marks jumped fade as it passes them.
async function slide(before, after, keys, ply) {
  drawBoard(before, stillCtx(before));
  const board = $("board");
  const cell = (key) => board.querySelector(`.cell[data-key="${CSS.escape(key)}"]`);
  const centre = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const start = cell(keys[0]);
  const piece = start && start.querySelector(".piece");
  if (!piece) return;
  piece.classList.add("sliding");
  const [x0, y0] = centre(start);
  let [px, py] = [x0, y0];
  const jumped = [];
  after.cells.forEach((c, i) => { if ((c.marks || []).includes("jumped")) jumped.push(i); });
  const frame = { ply, hops: [] };
  frames.push(frame);
  for (const key of keys.slice(1)) {
    const to = cell(key);
    if (anim.skip || !to) return;
    const [x, y] = centre(to);
    piece.style.transition = `transform ${HOP * slow}ms ease-in-out`;
    piece.style.transform = `translate(${x - x0}px, ${y - y0}px)`;
    await sleep(HOP * slow);
    const taken = [];
    for (const i of jumped) {
      const e = board.querySelector(`.cell[data-index="${i}"]`);
      const [jx, jy] = centre(e);
      if ((jx - px) * (jx - x) < 0 && (jy - py) * (jy - y) < 0) {
        e.classList.add("taken");
        taken.push(e.dataset.key);
      }
    }
    piece.dataset.at = key;
    frame.hops.push({ to: key, taken });
    [px, py] = [x, y];
  }
  await sleep(FADE * slow);
}

// A sowing of the pit `key` by `side` from `before`, seed by seed, round the mancala board
// counter-clockwise as its rows are drawn (the first player's row left to right, its store,
// the second's row right to left, its store), past the opponent's store.
async function sow(before, key, side, ply) {
  drawBoard(before, stillCtx(before));
  const board = $("board");
  const p = before.cols - 2;
  const cycle = [...Array(p).keys()].map((c) => p + 3 + c)
    .concat([2 * p + 3], [...Array(p).keys()].map((c) => p - c), [0]);
  const theirs = side === "first" ? 0 : 2 * p + 3;
  const counts = before.cells.map((c) => c.content);
  const from = before.cells.findIndex((c) => c.key === key);
  let at = cycle.indexOf(from);
  if (at < 0) return;
  const show = (i) => {
    const e = board.querySelector(`[data-index="${i}"]`);
    if (!e) return;
    e.querySelector(".seeds").replaceWith(seeds(Number(counts[i]) || 0));
    e.querySelector(".count").textContent = counts[i];
    e.dataset.content = counts[i];
    board.querySelectorAll(".sowing-now").forEach((x) => x.classList.remove("sowing-now"));
    e.classList.add("sowing-now");
  };
  let left = Number(counts[from]) || 0;
  const step = Math.max(25, Math.min(SEED, SOWING / Math.max(1, left))) * slow;
  counts[from] = "0";
  show(from);
  while (left > 0) {
    await sleep(step);
    if (anim.skip) return;
    at = (at + 1) % cycle.length;
    const i = cycle[at];
    if (i === theirs) continue;
    counts[i] = String((Number(counts[i]) || 0) + 1);
    left--;
    show(i);
  }
  frames.push({ ply, counts: [...counts] });
  await sleep(step * 3);
}

function drawPlayers(view) {
  const mine = state ? state.your_side : "first";
  const bottomSide = flipped ? otherSide(mine) : mine;
  for (const [id, side] of [["player-bottom", bottomSide], ["player-top", otherSide(bottomSide)]]) {
    const box = $(id);
    box.replaceChildren();
    const chip = el("span", `chip style-${view.style} ${side === "first" ? "X" : "O"}`);
    box.appendChild(chip);
    box.appendChild(el("b", "", who(side) === "you" ? "You" : "boardbot"));
    box.appendChild(el("span", "", ` · ${sideName(view, side)}`));
    const note = view.players[sideIndex(side)].note;
    if (note) box.appendChild(el("span", "note", ` · ${note}`));
    if (state && state.clock) {
      const c = el("span", "clock");
      c.dataset.side = side;
      c.setAttribute("role", "timer");
      box.appendChild(c);
    }
    const toMove = state && !review && state.to_move === side;
    box.classList.toggle("to-move", !!toMove);
    box.dataset.side = side;
  }
}

// The moves played as the list numbers them: turns (a side's moves in a row, as Kalah's extra
// turns), a row for each number, the number going up at each turn of the first player (or at
// the first turn). [{number, side, moves: [[move, ply], ...]}], ply counting single moves from 1.
function numberedTurns(played) {
  const turns = [];
  let number = 0;
  played.forEach((m, i) => {
    const last = turns[turns.length - 1];
    if (last && last.side === m.side) { last.moves.push([m, i + 1]); return; }
    if (!last || m.side === "first") number++;
    turns.push({ number, side: m.side, moves: [[m, i + 1]] });
  });
  return turns;
}

// The move after single move `ply` as the list writes it: "3. 7-11" (the first player's) or
// "3… 11-15" (the second's), with the list's last number.
function moveName(played, ply) {
  const turns = numberedTurns(played);
  const t = turns.find((t) => t.moves.some(([, p]) => p === ply));
  const m = played[ply - 1];
  return { text: `${t.number}${t.side === "first" ? "." : "…"} ${m.human}`, number: t.number, of: turns.length ? turns[turns.length - 1].number : 0 };
}

// The person's moves marked by the engine's evaluations around them (its bar, from the
// person's view: -1 boardbot wins to 1 the person wins): after the person's move and the
// engine's reply the bar fell by at least 0.5 (a blunder, ??), 0.3 (a mistake, ?) or 0.15 (an
// inaccuracy, ?!), from the engine's evaluation after its turn before; losing a proven win or
// walking into a proven loss is a blunder. Map: the ply of the person's move -> its mark.
const MARKS = [[0.5, "blunder", "??"], [0.3, "mistake", "?"], [0.15, "inaccuracy", "?!"]];
function moveMarks() {
  const marks = new Map();
  const evals = (state && state.evals) || [];
  for (let k = 1; k < evals.length; k++) {
    const [a, b] = [evals[k - 1], evals[k]];
    let ply = -1;
    for (let p = b.ply; p > a.ply; p--) {
      if (state.played[p - 1] && who(state.played[p - 1].side) === "you") { ply = p; break; }
    }
    if (ply < 0) continue;
    const proven = (a.bar >= 1 && b.bar < 1) || (b.bar <= -1 && a.bar > -1);
    const m = proven ? MARKS[0] : MARKS.find(([t]) => a.bar - b.bar >= t);
    if (m) marks.set(ply, { kind: m[1], sign: m[2], from: a.bar, to: b.bar, at: b.ply, proven });
  }
  return marks;
}

function markWords(mark) {
  const f = (x) => (x > 0 ? "+" : "") + x.toFixed(2);
  return `${mark.kind === "inaccuracy" ? "an" : "a"} ${mark.kind}: the engine's evaluation bar fell from ${f(mark.from)} to ${f(mark.to)}${mark.proven ? " (a proven result changed)" : ""}`;
}

function drawMoves() {
  const body = $("moves").tBodies[0];
  body.replaceChildren();
  if (!state) return;
  const v = state.view;
  $("moves-first").textContent = `${sideName(v, "first")} (${who("first")})`;
  $("moves-second").textContent = `${sideName(v, "second")} (${who("second")})`;
  let row = null;
  const current = review ? review.ply : state.played.length;
  const marks = moveMarks();
  for (const t of numberedTurns(state.played)) {
    if (!row || t.side === "first") {
      const number = t.number;
      row = el("tr");
      row.appendChild(el("td", "no", `${number}.`));
      row.appendChild(el("td", "first"));
      row.appendChild(el("td", "second"));
      body.appendChild(row);
    }
    const td = row.querySelector(t.side === "first" ? "td.first" : "td.second");
    for (const [m, ply] of t.moves) {
      const b = el("button", `mv by-${who(t.side) === "you" ? "you" : "engine"}`, m.human);
      b.type = "button";
      b.dataset.ply = ply;
      b.title = `${who(t.side) === "you" ? "You" : "boardbot"}: ${m.human} (move text ${m.text}); click to see the board after it`;
      if (ply === current) b.classList.add("current");
      const mark = marks.get(ply);
      if (mark) {
        // The sign drawn after the move (CSS), not part of its text.
        b.dataset.nag = mark.sign;
        b.classList.add(`nag-${mark.kind}`);
        b.title += ` — ${markWords(mark)}`;
      }
      b.addEventListener("click", () => showPly(ply));
      td.appendChild(b);
    }
  }
  const box = $("moves-box");
  if (!review) box.scrollTop = box.scrollHeight;
}

// The evaluation graph: the engine's opinion after each of its turns (up: better for you),
// a point a turn; a click on a point shows the position then.
function drawGraph() {
  const svg = $("graph");
  svg.replaceChildren();
  const evals = state ? state.evals || [] : [];
  // An SVG element has no `hidden` property: the attribute itself.
  svg.toggleAttribute("hidden", evals.length < 2);
  // The marks' thresholds, said where a move is marked.
  $("graph-legend").hidden = evals.length < 2 || moveMarks().size === 0;
  if (evals.length < 2) return;
  const last = Math.max(state.played.length, 1);
  const x = (ply) => 6 + (286 * ply) / last;
  const y = (bar) => 40 - 36 * bar;
  const node = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  node("line", { x1: 0, x2: 300, y1: 40, y2: 40, class: "axis" });
  node("polyline", { points: evals.map((e) => `${x(e.ply)},${y(e.bar)}`).join(" "), class: "curve" });
  const current = review ? review.ply : state.played.length;
  const marked = new Map([...moveMarks().values()].map((m) => [m.at, m]));
  for (const e of evals) {
    const mark = marked.get(e.ply);
    const cls = `point${e.ply === current ? " current" : ""}${mark ? ` ${mark.kind}` : ""}`;
    const c = node("circle", { cx: x(e.ply), cy: y(e.bar), r: mark ? 5 : 4, class: cls });
    c.dataset.ply = e.ply;
    const t = document.createElementNS(SVG, "title");
    // The move as the list names it ("After 3… g9"), not a count of single moves.
    t.textContent = `After ${moveName(state.played, e.ply).text}: ${e.words}${mark ? ` (your move before: ${markWords(mark)})` : ""}`;
    c.appendChild(t);
    c.addEventListener("click", () => showPly(e.ply));
  }
}

// ---- the game clock ----
// The server gives each side's time left when it answered and whose clock runs; the page counts
// the running one down from when that answer came (a poll that gives the same clock again does
// not restart the count), and asks the server once the person's reaches zero: the server says
// whether the time ran out.

function noteClock(s) {
  const c = s && s.clock;
  if (!c) { clockSeen = null; return; }
  const key = `${s.session} ${s.history.length} ${c.left_ms.join(",")} ${c.running}`;
  if (!clockSeen || clockSeen.key !== key) clockSeen = { key, at: performance.now() };
}

// A side's time left now, in milliseconds, as the page counts it.
function clockLeft(side) {
  const c = state.clock;
  const left = c.left_ms[sideIndex(side)];
  return c.running === side && clockSeen ? Math.max(0, left - (performance.now() - clockSeen.at)) : left;
}

// 5:00, 0:42; under 10 s with tenths, 0:09.3.
function clockText(ms) {
  const tenths = Math.floor(ms / 100);
  const m = Math.floor(tenths / 600), sec = Math.floor((tenths % 600) / 10);
  const text = `${m}:${String(sec).padStart(2, "0")}`;
  return ms < 10000 ? `${text}.${tenths % 10}` : text;
}

function drawClocks() {
  if (!state || !state.clock) return;
  const c = state.clock;
  for (const e of document.querySelectorAll(".player .clock")) {
    const side = e.dataset.side;
    const left = clockLeft(side);
    e.textContent = clockText(left);
    e.classList.toggle("running", c.running === side);
    e.classList.toggle("low", left < 10000);
    e.classList.toggle("out", c.flagged === side);
    e.setAttribute("aria-label", `${who(side) === "you" ? "your" : "boardbot's"} clock: ${clockText(left)}`);
  }
  // The person's time seen to run out: the server decides (at most one question a second).
  const mine = state.your_side;
  if (c.running === mine && state.status === "your_turn" && !pending && clockLeft(mine) <= 0
    && performance.now() - flagAsked > 1000) {
    flagAsked = performance.now();
    api("GET", `/api/state?session=${encodeURIComponent(state.session)}`)
      .then((s) => { if (!pending && s.session === state.session) { state = s; render(); } })
      .catch(() => {});
  }
}

function drawEval() {
  const t = state && state.thinking;
  if (t && t.bar !== null && t.bar !== undefined) lastBar = t.bar;
  if (!state || state.played.length === 0) lastBar = null;
  const bar = $("eval");
  bar.hidden = lastBar === null;
  bar.classList.toggle("flipped", flipped); // the person's share at the person's side
  if (lastBar === null) return;
  const share = (lastBar + 1) / 2;
  $("eval-fill").style.height = `${(share * 100).toFixed(1)}%`;
  bar.title = `Who stands better by the engine's last search: ${lastBar > 0.1 ? "you" : lastBar < -0.1 ? "boardbot" : "even"}`;
  bar.dataset.value = lastBar.toFixed(2);
}

function render() {
  const s = state;
  keep(s);
  if (!s) {
    document.body.dataset.status = pending ? "sending" : "loading";
    say(pending ? "Starting a game…" : "Loading…");
    return;
  }
  const moving = startsMotion(s);
  document.body.dataset.status = anim ? "animating" : pending && s.status === "your_turn" ? "sending" : s.status;
  document.body.dataset.reviewing = review ? "yes" : "no";
  document.body.classList.toggle("busy", s.status === "queued" || s.status === "thinking");
  // A jump path being clicked, or sent and not yet back: the piece along it.
  const live = !lock && !review && !edit;
  const sent = sentPath && sentPath.plies === s.history.length ? sentPath.keys : null;
  const path = live ? (selected.length >= 2 ? selected : pending ? sent : null) : null;
  const { view, taking } = alongPath(edit ? edit.view : lock ? lock.view : review ? review.view : s.view, path);
  const moves = legalMoves();
  const next = new Set(moves.filter((m) => startsWith(m.keys, selected)).map((m) => m.keys[selected.length]));
  // While moves are shown moving, the board is the animation's.
  if (!anim) {
    drawBoard(view, {
      turned: turned(view),
      interactive: moves.length > 0 || !!lock || !!edit,
      next,
      hintKeys: hint && !review && !lock && !edit ? hint.keys : [],
      lock: !!lock,
      taking,
    });
  }
  // The players' notes (pieces captured, seeds in store) are those of the position shown.
  noteClock(s);
  drawPlayers(view);
  drawClocks();
  drawEval();

  $("notes").textContent = review || lock || edit ? "" : (s.view.notes || []).join(" ");
  const result = $("result");
  if (s.result && !review && !lock && !edit) {
    result.hidden = false;
    result.textContent = s.result + (s.end_reason ? ` — ${s.end_reason}` : "");
    result.className = s.result === "You win" ? "win" : s.result === "Draw" ? "" : "loss";
  } else {
    result.hidden = true;
    result.textContent = "";
  }
  document.body.dataset.result = s.result || "";

  const t = s.thinking;
  $("thinking").textContent = t ? `boardbot played ${t.human.join(", ")} · ${t.line}` : "";
  $("hint-text").textContent = hint && !review ? hint.text : "";
  // The engine's answer to the person's offer of a draw, until the game changes.
  $("offer-text").textContent = s.draw_offer && !review ? s.draw_offer.words + "." : "";
  $("offer-text").className = s.draw_offer && s.draw_offer.accepted ? "accepted" : "";

  // Moves no cell stands for (Kalah's swap under the pie rule): a button each.
  const free = $("no-cell-moves");
  free.replaceChildren();
  for (const m of moves.filter((m) => m.keys.length === 0)) {
    const b = el("button", "", m.text === "swap" ? "Swap (take over the first move)" : m.human || m.text);
    b.type = "button";
    b.dataset.move = m.text;
    b.addEventListener("click", () => { selected = []; change("/api/move", { session: state.session, move: m.text }); });
    free.appendChild(b);
  }

  drawMoves();
  drawGraph();
  $("review").hidden = !review;
  if (review) {
    const m = s.played[review.ply - 1];
    const name = review.ply > 0 ? moveName(s.played, review.ply) : null;
    $("review-text").textContent = review.ply === 0
      ? "The start, before any move."
      : `After ${name.text} (${who(m.side)}), move ${name.number} of ${name.of}.`;
    $("review-back").disabled = review.ply === 0;
  }
  $("lock-bar").hidden = !lock;
  drawEditBar();
  $("numbers").hidden = !(s.view.style === "stones" || s.view.style === "grid") || s.played.length === 0;
  $("numbers").classList.toggle("on", numbers);

  const mine = sideName(s.view, s.your_side);
  const clickWhat = s.view.style === "mancala" ? "a pit of your row (at the bottom) to sow it"
    : s.view.moves.some((m) => m.keys.length > 1) ? "a piece, then where it goes"
    : s.view.style === "columns" ? "a column" : s.view.style === "stones" ? "a point" : "a cell";
  if (edit) say("Setting up a position: choose what a click puts, then click or drag over the board.");
  else if (lock) say("Choosing the cells out of play.");
  else if (review) say("Reviewing the game: the board as it was.");
  else switch (s.status) {
    case "your_turn": say(pending ? "Sending your move…" : s.analysis
      ? `Analysis mode: ${sideName(s.view, s.to_move)} to move; you move for both sides (click ${clickWhat.replace("your row (at the bottom)", "the row of the side to move")}).`
      : `Your move (you play ${mine}): click ${clickWhat}.`); break;
    case "queued": say("Waiting for the engine: other games are being played…"); break;
    case "thinking": say("boardbot is thinking…"); break;
    case "engine_to_move": say("boardbot to move…"); break;
    case "over": say(s.clock && s.clock.flagged ? `Game over: ${s.result} — ${s.end_reason}.` : `Game over: ${s.result}.`); break;
    default: say(s.status);
  }
  placeStop(stopMove());
  const busy = s.status === "queued" || s.status === "thinking";
  $("undo").disabled = pending || s.played.length === 0 || busy || !!lock || !!edit;
  $("hint").disabled = pending || s.status !== "your_turn" || !!review || !!lock || !!edit;
  $("rematch").disabled = pending || !!lock || !!edit;
  $("resign").disabled = pending || s.status !== "your_turn" || !!lock || !!edit;
  $("draw").disabled = pending || s.status !== "your_turn" || !!lock || !!edit;
  $("setup-position").disabled = pending || busy || !!lock;
  $("setup-position").classList.toggle("on", !!edit);
  $("resign").textContent = resignAsked ? "Really resign?" : "Resign";
  $("resign").classList.toggle("on", !!resignAsked);
  $("flip").hidden = !flippable(s.view);
  $("flip").classList.toggle("on", flipped);
  $("new").disabled = pending;
  $("analysis-mode").classList.toggle("on", !!s.analysis);
  $("analysis-mode").disabled = pending || busy || !!lock || !!edit;
  $("analyze").disabled = pending || busy || !!lock || !!edit || (analysis && analysis.pending)
    || !(s.analysis || s.status === "over" || review);
  drawAnalysis();
  if (moving) animate(s);
}

// "Stop here" beside the square where a multiple jump may stop (the last one clicked): under
// it, or above it when there is no room below the board.
function placeStop(stop) {
  const b = $("stop");
  b.hidden = !stop || !!anim;
  b.title = stop ? `Play ${stop.human || stop.text}` : "";
  if (b.hidden) return;
  const key = selected[selected.length - 1];
  const cell = document.querySelector(`#board .cell[data-key="${CSS.escape(key)}"]`);
  if (!cell) return;
  const area = $("board-area").getBoundingClientRect(), r = cell.getBoundingClientRect();
  b.style.left = `${r.left - area.left + r.width / 2}px`;
  const below = r.bottom - area.top + 4;
  b.style.top = below + b.offsetHeight > area.height ? `${r.top - area.top - b.offsetHeight - 4}px` : `${below}px`;
}

// ---- a position shared by a link ----

// The position as a link: the game, its moves (move text, comma-separated), the side the person
// plays, and analysis mode, in the URL's fragment. Opened, it starts that game at that position.
function shareLink() {
  const p = new URLSearchParams({ game: state.game, moves: state.history.join(","), you: state.your_side });
  if (state.analysis) p.set("analysis", "1");
  return `${location.origin}${location.pathname}#${p.toString()}`;
}

// The game a link's fragment asks for, as a new game's request; null for none.
function fromLink() {
  if (!location.hash || location.hash.length < 2) return null;
  const p = new URLSearchParams(location.hash.slice(1));
  const game = p.get("game");
  if (!game) return null;
  const moves = (p.get("moves") || "").split(",").filter((m) => m.trim() !== "");
  return {
    game,
    moves,
    you: p.get("you") === "second" ? "second" : "first",
    analysis: p.get("analysis") === "1",
    level: $("level").value,
    time: parseFloat($("time").value),
  };
}

// ---- the analysis board ----

// The position shown: its game and moves, as the analysis board keys its answers.
function shownKey() {
  const ply = review ? review.ply : state.played.length;
  return { ply, key: `${state.session} ${state.game} ${state.history.slice(0, ply).join(",")}` };
}

// Every legal move of the position shown with the engine's value (POST /api/analyze).
async function analyzeShown() {
  if (!state || pending) return;
  const { ply, key } = shownKey();
  analysis = { key, ply, pending: true };
  render();
  try {
    const a = await api("POST", "/api/analyze", { session: state.session, ply });
    analysis = { key, ply, moves: a.moves, player: a.player };
  } catch (e) {
    analysis = { key, ply, error: e.message };
  }
  render();
}

function drawAnalysis() {
  const box = $("analysis");
  const shown = state && !lock ? shownKey() : null;
  if (!analysis || !shown || analysis.key !== shown.key) {
    box.hidden = true;
    // In analysis mode each position is analysed as it is reached.
    if (state && state.analysis && !review && !lock && !pending && state.status === "your_turn" && !anim) analyzeShown();
    return;
  }
  box.hidden = false;
  const body = $("analysis-moves").tBodies[0];
  body.replaceChildren();
  $("analysis-title").textContent = analysis.pending ? "Analysis: the engine is looking at every move…"
    : analysis.error ? `Analysis: ${analysis.error}` : `Analysis: ${analysis.player} to move`;
  box.dataset.state = analysis.pending ? "pending" : analysis.error ? "error" : "done";
  for (const m of analysis.moves || []) {
    const row = el("tr", m.proved ? "proven" : "estimate");
    row.dataset.move = m.text;
    row.dataset.source = m.source;
    if (m.solver_value !== null && m.solver_value !== undefined) row.dataset.solver = String(m.solver_value);
    row.appendChild(el("td", "mv-name", m.human));
    const value = el("td", "value", m.words);
    if (m.proved) value.appendChild(el("span", "badge", "proven"));
    row.appendChild(value);
    row.appendChild(el("td", "how", m.how));
    // In analysis mode a row plays its move.
    if (state.analysis && !review) {
      row.classList.add("playable");
      row.title = `Play ${m.human}`;
      row.addEventListener("click", () => { if (!pending) change("/api/move", { session: state.session, move: m.text }).catch(() => {}); });
    }
    body.appendChild(row);
  }
}

function hover(key, on) {
  if (key === null) return;
  document.querySelectorAll(`#board .cell[data-key="${CSS.escape(key)}"]`).forEach((e) => e.classList.toggle("hover", on));
}

function click(key, index) {
  if (edit) return; // the editor paints on the press (see `editCell`)
  if (lock) return toggleLock(index);
  const moves = legalMoves();
  if (key === null || moves.length === 0) return;
  let prefix = selected.concat([key]);
  let fits = moves.filter((m) => startsWith(m.keys, prefix));
  if (fits.length === 0) {
    prefix = [key];
    fits = moves.filter((m) => startsWith(m.keys, prefix));
  }
  if (fits.length === 0) {
    selected = [];
    render();
    return;
  }
  const done = fits.find((m) => m.keys.length === prefix.length);
  if (done && fits.length === 1) {
    selected = [];
    sentPath = { keys: prefix, plies: state.history.length };
    change("/api/move", { session: state.session, move: done.text }).catch(() => {});
  } else {
    selected = prefix;
    render();
  }
}

// ---- Games kept in this browser ----
// Every game played on the page is kept in localStorage ("boardbot-games", oldest first, at most
// KEPT_GAMES): its description, settings, moves, clocks and result. A tab remembers the record
// of the game it shows (sessionStorage "boardbot-game"). When the server no longer knows the
// tab's session (restarted, killed, or the session given up), the page starts the same game
// again from the record: the same moves, side to move, settings and clocks. "Your games" lists
// the records (analysis sessions aside) newest first and opens any of them.
const KEPT_GAMES = 200;

function keptGames() {
  try { return JSON.parse(localStorage.getItem("boardbot-games")) || []; } catch (e) { return []; }
}

function saveKept(list) {
  try { localStorage.setItem("boardbot-games", JSON.stringify(list.slice(-KEPT_GAMES))); } catch (e) { /* full: not kept */ }
}

const newRecordId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

// The record of the state `s` under the tab's id, saved when what it holds changed.
function keep(s) {
  const id = sessionStorage.getItem("boardbot-game");
  if (!s || !id) return;
  const seen = `${id} ${s.session} ${s.history.length} ${s.status} ${s.outcome} ${s.analysis} ${s.your_side}`;
  if (seen === keptSeen) return;
  keptSeen = seen;
  const list = keptGames();
  const old = list.find((g) => g.id === id);
  const now = new Date().toISOString();
  const record = {
    id, game: s.game, you: s.your_side, level: s.level, time: s.time, algorithm: s.algorithm,
    evaluation: s.evaluation, depth: s.depth, analysis: s.analysis, moves: s.history,
    players: s.view.players.map((p) => p.name),
    clock: s.clock ? { minutes: s.clock.minutes, increment: s.clock.increment, left_ms: s.clock.left_ms } : null,
    outcome: s.outcome, result: s.result, end_reason: s.end_reason,
    started: old ? old.started : now, updated: now,
  };
  saveKept(list.filter((g) => g.id !== id && (g.moves.length > 0 || g.outcome)).concat([record]));
  showKept();
}

// Starts the game of `record` again in a new session: in play at its moves and clocks, or, when
// it is over, for review in analysis mode (a record of its own, not listed).
async function takeUp(record) {
  const over = !!record.outcome;
  const body = { game: record.game, you: record.you, level: record.level, time: record.time,
    algorithm: record.algorithm, evaluation: record.evaluation, depth: record.depth,
    moves: record.moves, analysis: over || record.analysis };
  if (record.clock && !over) body.clock = { ...record.clock };
  if (over) sessionStorage.setItem("boardbot-game", newRecordId());
  else sessionStorage.setItem("boardbot-game", record.id);
  sessionStorage.removeItem("boardbot-session");
  restoring = true;
  selected = [];
  lastBar = null;
  try { await change("/api/new", body, false); } finally { restoring = false; }
}

function showKept() {
  const list = keptGames().filter((g) => (!g.analysis || g.outcome) && g.moves.length > 0).reverse();
  const box = $("games-list");
  box.replaceChildren();
  $("games-panel").hidden = list.length === 0;
  const current = sessionStorage.getItem("boardbot-game");
  for (const g of list) {
    const li = el("li", g.id === current ? "current" : "");
    li.dataset.id = g.id;
    const you = g.players ? g.players[sideIndex(g.you)] : g.you;
    const b = el("button", "", g.game);
    b.type = "button";
    b.title = g.outcome ? "Open this game for review and analysis" : "Go on with this game";
    b.addEventListener("click", () => { if (!pending) takeUp(g).catch(() => {}); });
    li.append(b, el("span", "small",
      ` you ${you}, ${g.result || "in progress"}, ${g.moves.length} moves, ${new Date(g.updated).toLocaleString()}`));
    box.append(li);
  }
}

// ---- Records: download and load ----
async function download() {
  if (!state) return;
  try {
    const r = await api("GET", `/api/record?session=${encodeURIComponent(state.session)}`);
    lastRecord = r;
    const url = URL.createObjectURL(new Blob([r.text], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = r.filename;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    say(`The game is in ${r.filename}.`);
  } catch (e) { say(`Error: ${e.message}`); }
}

// Reads the pasted or chosen record on the server, then starts its game at its last move.
async function loadRecord(analysisMode) {
  $("load-error").textContent = "";
  let r;
  try {
    r = await api("POST", "/api/import", { text: $("load-text").value });
  } catch (e) {
    $("load-error").textContent = e.status ? `Not loaded: ${e.message}` : `The server does not answer (${e.message}).`;
    return;
  }
  $("load-box").hidden = true;
  await newGame({ ...formSettings(), game: r.game, moves: r.moves, analysis: analysisMode });
}

function loadSetup() {
  $("download").addEventListener("click", download);
  $("load").addEventListener("click", () => { $("load-box").hidden = !$("load-box").hidden; $("load-error").textContent = ""; });
  $("load-cancel").addEventListener("click", () => { $("load-box").hidden = true; });
  $("load-play").addEventListener("click", () => loadRecord(false));
  $("load-analyse").addEventListener("click", () => loadRecord(true));
  $("load-file").addEventListener("change", async () => {
    const f = $("load-file").files[0];
    if (!f) return;
    if (f.size > 64 * 1024) { $("load-error").textContent = `${f.name} is ${f.size} bytes: a game record is at most 64 KB.`; return; }
    $("load-text").value = await f.text();
    $("load-error").textContent = "";
  });
}

// A request that changes the game; while it runs (the engine may search), the state is polled
// to show the person's move and whether the engine waits or thinks.
async function change(path, body, fresh) {
  pending = true;
  hint = null;
  review = null;
  render();
  let polling = true;
  const poll = async () => {
    while (polling) {
      await new Promise((r) => setTimeout(r, 250));
      if (!polling || !state) break;
      try {
        const s = await api("GET", `/api/state?session=${encodeURIComponent(state.session)}`);
        if (polling) {
          if (sentPath && s.history.length !== sentPath.plies) sentPath = null;
          state = s;
          render();
        }
      } catch (e) { /* the main request reports errors */ }
    }
  };
  if (state) poll();
  try {
    const s = await api("POST", path, body);
    polling = false;
    pending = false;
    sentPath = null;
    // A new game's own moves (the engine's first) move; the old game's are not replayed.
    if (fresh) {
      drawnGame = `${s.session} ${s.game}`;
      drawnPlies = 0;
    }
    state = s;
    sessionStorage.setItem("boardbot-session", s.session);
    if (path === "/api/new" && !restoring) sessionStorage.setItem("boardbot-game", newRecordId());
    render();
  } catch (e) {
    polling = false;
    pending = false;
    sentPath = null;
    render();
    // The server lost the session (restarted, or it gave the session up): the kept game again.
    const record = keptGames().find((g) => g.id === sessionStorage.getItem("boardbot-game"));
    if (e.status === 404 && body && body.session && record && !restoring) {
      await takeUp(record);
      say("The server had lost this game: it is taken up again where it was.");
      throw e;
    }
    say(e.status ? `Error: ${e.message}` : `The server does not answer (${e.message}): is boardbot serve running?`);
    throw e;
  }
  if (state.status === "engine_to_move") change("/api/go", { session: state.session });
}

async function askHint() {
  if (!state || state.status !== "your_turn") return;
  pending = true;
  render();
  say("boardbot is looking for a move for you…");
  try {
    const h = await api("POST", "/api/hint", { session: state.session });
    hint = { keys: h.keys, text: `Hint: ${h.human.join(", ")}${h.line ? ` — ${h.line}` : ""}` };
  } catch (e) {
    hint = { keys: [], text: `No hint: ${e.message}` };
  }
  pending = false;
  render();
}

async function showPly(ply) {
  if (!state || pending || lock) return;
  if (state.status === "queued" || state.status === "thinking") return;
  if (ply >= state.played.length) {
    review = null;
    render();
    return;
  }
  try {
    const r = await api("GET", `/api/view?session=${encodeURIComponent(state.session)}&ply=${ply}`);
    review = { ply: r.ply, view: r.view };
    selected = [];
  } catch (e) {
    say(`Error: ${e.message}`);
    return;
  }
  render();
}

// ---- cells out of play, clicked in before the game ----

async function startLock() {
  const game = description();
  try {
    const r = await api("GET", `/api/view?game=${encodeURIComponent(game)}`);
    const kept = lockedCells && lockedCells.game === r.game ? lockedCells.cells : [];
    lock = { game: r.game, view: r.view, cells: new Set(kept) };
    applyLock();
  } catch (e) {
    say(`Error: ${e.message}`);
  }
}

function applyLock() {
  const v = lock.view;
  v.cells.forEach((c, i) => {
    const rc = `${Math.floor(i / v.cols)},${i % v.cols}`;
    if (c.content === "" || c.content === "#") c.content = lock.cells.has(rc) ? "#" : "";
  });
  render();
}

function toggleLock(i) {
  const v = lock.view;
  const rc = `${Math.floor(i / v.cols)},${i % v.cols}`;
  if (lock.cells.has(rc)) lock.cells.delete(rc);
  else if (lock.cells.size + 1 < v.cells.length) lock.cells.add(rc);
  applyLock();
}

function endLock() {
  lockedCells = lock && lock.cells.size > 0 ? { game: lock.game, cells: [...lock.cells] } : null;
  lock = null;
  showLocked();
  render();
}

function showLocked() {
  $("locked").textContent = lockedCells
    ? `${lockedCells.cells.length} cell${lockedCells.cells.length === 1 ? "" : "s"} chosen for ${lockedCells.game}: ${lockedCells.cells.join(" ")}`
    : "";
}

// ---- setting up a position ----
// The board shown (the live position, or the one reviewed) copied into an editor: a click (or a
// press dragged over the cells) puts the tool chosen on a cell; the position is then sent as the
// game's own text: a FEN for boards whose games have one (checkers, mancala), or the moves that
// reach it in the move list's notation (the labels of the board's edges) for boards of stones
// and discs, where the side to move follows from the pieces. The server checks it: an illegal
// position gets 400 and changes nothing, and the editor stays open with the error.

// The tools of a board drawn in `style`: [tool, label].
function editTools(view) {
  const [a, b] = view.players.map((p) => p.name);
  switch (view.style) {
    case "checkers": return [["X", `${a} man`], ["XK", `${a} king`], ["O", `${b} man`], ["OK", `${b} king`], ["", "Empty"], ["move", "Move (drag a piece)"]];
    case "mancala": return [["+", "Add a seed"], ["-", "Take a seed"], ["0", "Empty the pit"]];
    case "columns": return [["X", `${a} disc`], ["O", `${b} disc`], ["", "Take the top disc"]];
    default: return [["X", a], ["O", b], ["", "Empty"], ["move", "Move (drag a stone)"]];
  }
}

const hasFen = (view) => view.style === "checkers" || view.style === "mancala";

// A view for the editor: the cells' contents and labels, no marks, moves or keys.
function editView(view) {
  const cells = view.cells.map((c) => ({ content: c.content, key: null, marked: false, label: c.label,
    marks: (c.marks || []).filter((m) => m === "store") }));
  return { ...view, cells, moves: [], notes: [], players: view.players.map((p) => ({ name: p.name, note: null })) };
}

async function startEdit() {
  if (!state || pending) return;
  const base = state.game.replace(/\s+fen\s+\S+/, "");
  let start;
  try {
    start = (await api("GET", `/api/view?game=${encodeURIComponent(base)}`)).view;
  } catch (e) { say(`Error: ${e.message}`); return; }
  const shown = review ? review.view : state.view;
  edit = { base, view: editView(shown), start: editView(start), tool: editTools(shown)[0][0],
    side: review ? (sideOfPly(review.ply)) : state.to_move || "first", error: "" };
  selected = [];
  hint = null;
  $("edit-text").value = hasFen(shown) ? fenOf(edit.view, edit.side) : state.played.slice(0, review ? review.ply : undefined).map((m) => m.human).join(" ");
  render();
}

// The side to move after the first `ply` moves of the game (the one that played move ply + 1).
function sideOfPly(ply) {
  if (ply < state.played.length) return state.played[ply].side;
  return state.to_move || "first";
}

function editCell(i) {
  const v = edit.view, c = v.cells[i];
  if (!c || c.content === "#" || edit.tool === "move") return;
  if (v.style === "mancala") {
    if (c.label === undefined || c.label === null) return;
    const n = Number(c.content) || 0;
    c.content = String(edit.tool === "+" ? n + 1 : edit.tool === "-" ? Math.max(0, n - 1) : 0);
  } else if (v.style === "columns") {
    // Discs stack: a disc lands on the column's lowest empty cell; "take" lifts the top one.
    const col = i % v.cols;
    const rows = [...Array(v.rows).keys()].map((r) => r * v.cols + col);
    if (edit.tool === "") {
      const top = rows.find((k) => v.cells[k].content !== "");
      if (top !== undefined) v.cells[top].content = "";
    } else {
      const free = rows.filter((k) => v.cells[k].content === "");
      if (free.length) v.cells[free[free.length - 1]].content = edit.tool;
    }
  } else {
    c.content = edit.tool;
  }
  edit.error = "";
  if (hasFen(v)) $("edit-text").value = fenOf(v, edit.side);
  render();
}

// The FEN of an edited board: checkers' `B:W18,K30:B14,K1` (the side to move, then White's and
// Black's squares by the numbers the board shows, kings with K); mancala's `COUNTS/SIDE` (the
// first player's pits from its left and its store, then the second's, as the seeds go round).
function fenOf(v, side) {
  if (v.style === "checkers") {
    const list = (x) => v.cells.filter((c) => c.label && c.content[0] === x)
      .map((c) => `${c.content[1] === "K" ? "K" : ""}${c.label}`).join(",");
    return `${side === "first" ? "B" : "W"}:W${list("O")}:B${list("X")}`;
  }
  const p = v.cols - 2;
  const round = [...Array(p).keys()].map((c) => p + 3 + c).concat([2 * p + 3], [...Array(p).keys()].map((c) => p - c), [0]);
  return `${round.map((i) => Number(v.cells[i].content) || 0).join(",")}/${side}`;
}

// The moves (in the move list's notation: the board's edge labels) that reach an edited board
// of stones, marks or discs, the first player's first and the players taking turns; an Error
// saying why when none do.
function movesOf(v) {
  const name = (i) => v.style === "columns" ? v.col_labels[i % v.cols]
    : v.col_labels[i % v.cols] + v.row_labels[Math.floor(i / v.cols)];
  const [a, b] = v.players.map((p) => p.name);
  const count = (x) => v.cells.filter((c) => c.content === x).length;
  const [nx, no] = [count("X"), count("O")];
  if (nx !== no && nx !== no + 1) {
    throw new Error(`${a} moves first and the players take turns: ${a} needs as many pieces as ${b}, or one more (now ${nx} and ${no})`);
  }
  if (v.style !== "columns") {
    const xs = [], os = [];
    v.cells.forEach((c, i) => { if (c.content === "X") xs.push(name(i)); else if (c.content === "O") os.push(name(i)); });
    const out = [];
    for (let k = 0; k < xs.length; k++) { out.push(xs[k]); if (k < os.length) out.push(os[k]); }
    return out;
  }
  // Discs: an order of drops, each column bottom up, the colours taking turns (a search).
  const stacks = [...Array(v.cols).keys()].map((col) => {
    const s = [];
    for (let r = v.rows - 1; r >= 0 && v.cells[r * v.cols + col].content !== ""; r--) s.push(v.cells[r * v.cols + col].content);
    return s;
  });
  const order = [], seen = new Set();
  const go = (h) => {
    if (order.length === nx + no) return true;
    const key = h.join(",");
    if (seen.has(key)) return false;
    seen.add(key);
    const want = order.length % 2 === 0 ? "X" : "O";
    for (let c = 0; c < v.cols; c++) {
      if (h[c] < stacks[c].length && stacks[c][h[c]] === want) {
        h[c]++; order.push(c);
        if (go(h)) return true;
        order.pop(); h[c]--;
      }
    }
    return false;
  };
  if (!go(stacks.map(() => 0))) throw new Error(`no order of drops makes this position (${a} drops first, then the players take turns)`);
  return order.map((c) => v.col_labels[c]);
}

// The new game's description and moves for the edited position, or for the text pasted if it
// was changed by hand.
function editedGame() {
  const v = edit.view;
  const text = $("edit-text").value.trim();
  if (hasFen(v)) return { game: `${edit.base} fen ${text || fenOf(v, edit.side)}`, human_moves: [] };
  if (edit.typed) {
    // A move list as the list writes it: its numbers ("1.", "2…") left out.
    const words = text.split(/[\s,;]+/).filter((w) => w && !/^\d+[.…]+$/.test(w));
    return { game: edit.base, human_moves: words };
  }
  return { game: edit.base, human_moves: movesOf(v) };
}

function drawEditBar() {
  const bar = $("edit-bar");
  bar.hidden = !edit;
  if (!edit) return;
  const v = edit.view;
  const tools = $("edit-tools");
  tools.replaceChildren();
  for (const [tool, label] of editTools(v)) {
    const b = el("button", tool === edit.tool ? "on" : "", label);
    b.type = "button";
    b.dataset.tool = tool;
    b.setAttribute("aria-pressed", String(tool === edit.tool));
    b.addEventListener("click", () => { edit.tool = tool; render(); });
    tools.appendChild(b);
  }
  const side = $("edit-side");
  if (side.options.length !== 2 || side.dataset.names !== v.players.map((p) => p.name).join()) {
    side.replaceChildren(new Option(v.players[0].name, "first"), new Option(v.players[1].name, "second"));
    side.dataset.names = v.players.map((p) => p.name).join();
  }
  side.value = edit.side;
  $("edit-side-label").hidden = !hasFen(v);
  $("edit-side-note").textContent = hasFen(v) ? "" : `${v.players[0].name} moves first: the side to move follows from the pieces.`;
  $("edit-text-name").textContent = hasFen(v) ? "FEN" : "Moves";
  $("edit-text").placeholder = hasFen(v) ? (v.style === "checkers" ? "B:W18,K30:B14,K1" : "4,4,4,4,4,4,0,4,4,4,4,4,4,0/first")
    : "the moves as the list writes them: h8 i9 h9 (or 4 4 3)";
  $("edit-error").textContent = edit.error;
  for (const id of ["edit-play", "edit-analyse"]) $(id).disabled = pending;
}

async function startEdited(analysisMode) {
  if (!edit || pending) return;
  let body;
  try { body = editedGame(); } catch (e) { edit.error = e.message; render(); return; }
  body = { ...formSettings(), ...body, analysis: analysisMode };
  const old = sessionStorage.getItem("boardbot-session");
  const send = (b) => change("/api/new", b, false);
  selected = [];
  try {
    try {
      await send(old ? { ...body, session: old } : body);
    } catch (e) {
      if (!(old && e.status === 404)) throw e;
      sessionStorage.removeItem("boardbot-session");
      await send(body);
    }
    edit = null;
    lastBar = null;
    flipped = false;
    render();
  } catch (e) {
    if (edit) { edit.error = `The server refused the position: ${e.message}`; render(); }
  }
}

function editSetup() {
  $("setup-position").addEventListener("click", () => { if (edit) { edit = null; render(); } else startEdit(); });
  $("edit-cancel").addEventListener("click", () => { edit = null; render(); });
  $("edit-clear").addEventListener("click", () => {
    edit.view.cells.forEach((c) => { if (c.content !== "#") c.content = edit.view.style === "mancala" && c.label ? "0" : ""; });
    edit.typed = false;
    if (hasFen(edit.view)) $("edit-text").value = fenOf(edit.view, edit.side); else $("edit-text").value = "";
    render();
  });
  $("edit-start").addEventListener("click", () => {
    edit.view = editView(edit.start);
    edit.side = "first";
    edit.typed = false;
    $("edit-text").value = hasFen(edit.view) ? fenOf(edit.view, edit.side) : "";
    render();
  });
  $("edit-side").addEventListener("change", () => {
    edit.side = $("edit-side").value;
    if (hasFen(edit.view)) $("edit-text").value = fenOf(edit.view, edit.side);
    render();
  });
  // Text typed in the box is what is sent (a FEN, or a move list) until the board is edited.
  $("edit-text").addEventListener("input", () => { edit.typed = true; edit.error = ""; });
  $("edit-play").addEventListener("click", () => startEdited(false));
  $("edit-analyse").addEventListener("click", () => startEdited(true));
  // A press paints its cell, and every cell it is dragged over while held.
  const cellAt = (ev) => { const c = ev.target.closest && ev.target.closest("[data-index]"); return c ? Number(c.dataset.index) : null; };
  $("board").addEventListener("pointerdown", (ev) => {
    if (!edit) return;
    const i = cellAt(ev);
    if (i === null) return;
    ev.preventDefault();
    edit.typed = false;
    if (edit.tool === "move") {
      // A piece pressed is carried to the cell where the press ends.
      const c = edit.view.cells[i];
      carrying = c && c.content !== "" && c.content !== "#" ? i : null;
      return;
    }
    painting = new Set([i]);
    editCell(i);
  });
  $("board").addEventListener("pointerover", (ev) => {
    if (!edit || !painting) return;
    const i = cellAt(ev);
    if (i === null || painting.has(i)) return;
    painting.add(i);
    editCell(i);
  });
  document.addEventListener("pointerup", (ev) => {
    painting = null;
    if (!edit || carrying === null) return;
    const from = carrying, to = cellAt(ev);
    carrying = null;
    const cells = edit.view.cells;
    if (to === null || to === from || cells[to].content === "#") return;
    cells[to].content = cells[from].content;
    cells[from].content = "";
    edit.error = "";
    if (hasFen(edit.view)) $("edit-text").value = fenOf(edit.view, edit.side);
    render();
  });
}

// ---- the form ----

function gameOf(value) {
  const name = value.startsWith("other:") ? value.slice(6) : value.split(/\s+/)[0];
  return info.games.find((g) => g.name === name) || info.games[0];
}

function fillGames() {
  const select = $("game");
  select.replaceChildren();
  for (const g of info.games) {
    const group = document.createElement("optgroup");
    group.label = g.about.split(/[:(]/)[0].trim();
    const seen = new Set();
    for (const n of g.names) {
      if (seen.has(n.game)) continue;
      seen.add(n.game);
      group.appendChild(new Option(`${n.name} (${n.game})`, n.game));
    }
    for (const e of g.examples) {
      if (seen.has(e)) continue;
      seen.add(e);
      group.appendChild(new Option(e, e));
    }
    group.appendChild(new Option(`other ${g.name} board…`, `other:${g.name}`));
    select.appendChild(group);
  }
}

function gameChanged() {
  const value = $("game").value;
  const g = gameOf(value);
  $("custom-label").hidden = !value.startsWith("other:");
  if (value.startsWith("other:")) {
    $("custom").placeholder = g.usage;
    if (!$("custom").value.trim().startsWith(g.name)) $("custom").value = (g.examples[0] || g.name + " ");
  }
  $("about").textContent = g.about;
  const you = $("you");
  const sides = (g.board_sides && g.board_sides[value]) || g.sides;
  you.options[0].textContent = `${sides[0]} (moves first)`;
  you.options[1].textContent = sides[1];
  const ev = $("evaluation");
  ev.replaceChildren();
  g.evaluations.forEach((e, i) => { const o = new Option(e.name, i === 0 ? "" : e.name); o.title = e.about; ev.add(o); });
  $("evaluation-label").hidden = g.evaluations.length < 2;
  $("lock-options").hidden = !g.blocked;
  if (lockedCells && lockedCells.game !== description()) { lockedCells = null; showLocked(); }
  algorithmChanged();
}

function algorithmChanged() {
  const full = $("algorithm").value === "full";
  $("evaluation").disabled = full;
}

function description() {
  const value = $("game").value;
  return value.startsWith("other:") ? $("custom").value.trim() : value;
}

function settings() {
  const depth = parseInt($("depth").value, 10);
  return {
    algorithm: $("algorithm").value,
    evaluation: $("algorithm").value === "full" ? null : $("evaluation").value || null,
    depth: Number.isFinite(depth) ? depth : null,
  };
}

async function newGame(body) {
  selected = [];
  lastBar = null;
  flipped = false;
  const old = sessionStorage.getItem("boardbot-session");
  // A new game's own moves (the engine's first) are shown moving; a shared position's are not.
  const fresh = !(body.moves && body.moves.length);
  try {
    await change("/api/new", old ? { ...body, session: old } : body, fresh);
  } catch (e) {
    if (old && e.status === 404) {
      sessionStorage.removeItem("boardbot-session");
      await change("/api/new", body, fresh).catch(() => {});
    }
  }
}

// The form's choices but the game: your side, level, time, clock, algorithm, evaluation, depth.
function formSettings() {
  const body = { you: $("you").value, level: $("level").value, time: parseFloat($("time").value), ...settings() };
  const minutes = parseFloat($("clock-minutes").value);
  if (minutes > 0) body.clock = { minutes, increment: parseFloat($("clock-increment").value) || 0 };
  return body;
}

async function fromForm() {
  if (lock) endLock();
  let game = description();
  let blocked = parseInt($("blocked").value, 10) || 0;
  if (lockedCells && lockedCells.game === game) {
    game = `${game} blocked ${lockedCells.cells.join(" ")}`;
    blocked = 0;
  }
  const body = { game, ...formSettings() };
  if (blocked > 0) body.blocked = blocked;
  return newGame(body);
}

async function start() {
  info = await api("GET", "/api/games");
  fillGames();
  for (const l of info.levels) $("level").add(new Option(l, l));
  $("level").value = "max";
  for (const a of info.algorithms) { const o = new Option(a.name, a.name); o.title = a.about; $("algorithm").add(o); }
  $("game").value = info.games[0].names.length ? info.games[0].names[0].game : info.games[0].examples[0];
  gameChanged();
  $("game").addEventListener("change", gameChanged);
  $("custom").addEventListener("change", () => { if (lockedCells) { lockedCells = null; showLocked(); } });
  $("algorithm").addEventListener("change", algorithmChanged);
  $("setup").addEventListener("submit", (ev) => { ev.preventDefault(); fromForm(); });
  $("stop").addEventListener("click", () => {
    const m = stopMove();
    if (!m) return;
    selected = [];
    change("/api/move", { session: state.session, move: m.text });
  });
  $("hint").addEventListener("click", askHint);
  $("undo").addEventListener("click", () => { selected = []; change("/api/undo", { session: state.session }).catch(() => {}); });
  $("rematch").addEventListener("click", () => {
    if (!state) return fromForm();
    newGame({ game: state.game, you: otherSide(state.your_side), level: state.level, time: state.time,
      algorithm: state.algorithm, evaluation: state.evaluation, depth: state.depth,
      clock: state.clock ? { minutes: state.clock.minutes, increment: state.clock.increment } : null });
  });
  $("numbers").addEventListener("click", () => { numbers = !numbers; render(); });
  $("flip").addEventListener("click", () => { flipped = !flipped; render(); });
  // Resign takes two clicks: the first asks, the second (within 4 s) resigns.
  $("resign").addEventListener("click", () => {
    if (!state || state.status !== "your_turn") return;
    if (!resignAsked) {
      resignAsked = setTimeout(() => { resignAsked = null; render(); }, 4000);
      render();
      return;
    }
    clearTimeout(resignAsked);
    resignAsked = null;
    selected = [];
    change("/api/resign", { session: state.session }).catch(() => {});
  });
  $("draw").addEventListener("click", async () => {
    if (!state || state.status !== "your_turn") return;
    selected = [];
    try {
      await change("/api/draw", { session: state.session });
      say(state.draw_offer ? state.draw_offer.words + "." : "");
    } catch (e) { /* said by change */ }
  });
  $("analysis-mode").addEventListener("click", () => {
    if (!state) return;
    selected = [];
    change("/api/analysis", { session: state.session, on: !state.analysis }).catch(() => {});
  });
  $("analyze").addEventListener("click", analyzeShown);
  $("share").addEventListener("click", () => {
    if (!state) return;
    const link = shareLink();
    history.replaceState(null, "", link);
    $("share-box").hidden = false;
    $("share-url").value = link;
    $("share-url").select();
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
    say("The link to this position is below the board (and copied, where the browser allows).");
  });
  $("review-back").addEventListener("click", () => review && showPly(Math.max(0, review.ply - 1)));
  $("review-next").addEventListener("click", () => review && showPly(review.ply + 1));
  $("review-end").addEventListener("click", () => { review = null; render(); });
  $("lock").addEventListener("click", startLock);
  editSetup();
  loadSetup();
  $("lock-done").addEventListener("click", endLock);
  $("lock-clear").addEventListener("click", () => { lock.cells.clear(); applyLock(); });
  // A click or a key shows a move being shown moving at its end at once.
  document.addEventListener("click", () => { if (anim) anim.skip = true; }, true);
  document.addEventListener("keydown", (ev) => {
    if (anim) { anim.skip = true; return; }
    if (!state || ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowLeft") showPly((review ? review.ply : state.played.length) - 1 < 0 ? 0 : (review ? review.ply : state.played.length) - 1);
    else if (ev.key === "ArrowRight" && review) showPly(review.ply + 1);
    else if (ev.key === "Escape") { if (edit) { edit = null; render(); } else if (lock) endLock(); else if (review) { review = null; render(); } else { selected = []; render(); } }
  });
  // A shared position: its game at its moves (the fragment then cleared, so that a reload
  // goes on with the game rather than start it again).
  const linked = fromLink();
  if (linked) {
    history.replaceState(null, "", location.pathname);
    await newGame(linked);
    if (state) return;
    // Refused (said by `change`): the form's game instead, the error kept in view.
    const said = $("message").textContent;
    await fromForm();
    say(`The link's position was refused (${said.replace(/^Error: /, "")}); a new game instead.`);
    return;
  }
  showKept();
  const old = sessionStorage.getItem("boardbot-session");
  if (old) {
    try {
      state = await api("GET", `/api/state?session=${encodeURIComponent(old)}`);
      render();
      if (state.status === "engine_to_move") change("/api/go", { session: state.session }).catch(() => {});
      return;
    } catch (e) {
      sessionStorage.removeItem("boardbot-session");
    }
  }
  // The server does not know the session (or the tab had none): the tab's kept game, if any.
  const record = keptGames().find((g) => g.id === sessionStorage.getItem("boardbot-game"));
  if (record && record.moves.length > 0) {
    try { await takeUp(record); return; } catch (e) { /* said by change; a new game instead */ }
  }
  fromForm();
}

// For tests and the curious: the state as the page last drew it.
window.boardbot = {
  get state() { return state; },
  get pending() { return pending; },
  get review() { return review; },
  get hint() { return hint; },
  get animating() { return !!anim; },
  get analysis() { return analysis; },
  get edit() { return edit; },
  get lastRecord() { return lastRecord; },
  frames,
  set slow(f) { slow = f; },
};

// The running clock counts down on the page.
setInterval(drawClocks, 100);

start().catch((e) => say(`Error: ${e.message}`));
