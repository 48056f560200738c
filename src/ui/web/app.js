// boardbot's page: draws the game-neutral view the server sends (docs/api.md) and sends the
// person's clicks as moves. It knows no game: the games, boards and pictures come from the API.
"use strict";

const $ = (id) => document.getElementById(id);
let games = [];
let state = null;     // the last state the server sent
let selected = [];    // the keys clicked so far of a move that takes several clicks
let pending = false;  // a request that changes the game is on its way

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

function sideName(side) {
  return side === "first" ? "blue, first" : "red, second";
}

function piece(content) {
  const span = document.createElement("span");
  if (content === "X" || content === "O") {
    span.className = "stone " + content;
    span.setAttribute("aria-label", content);
  } else if (content === "XK" || content === "OK") {
    // A piece promoted (a checkers king): the player's stone, crowned.
    span.className = "stone king " + content[0];
    span.setAttribute("aria-label", content);
    span.textContent = "K";
  } else {
    span.textContent = content;
  }
  return span;
}

function legalMoves() {
  if (!state || state.status !== "your_turn" || pending) return [];
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

function render() {
  const s = state;
  if (!s) {
    document.body.dataset.status = pending ? "sending" : "loading";
    say(pending ? "Starting a game…" : "Loading…");
    return;
  }
  document.body.dataset.status = pending && s.status === "your_turn" ? "sending" : s.status;
  document.body.classList.toggle("busy", s.status === "queued" || s.status === "thinking");
  const board = $("board");
  const v = s.view;
  board.style.gridTemplateColumns = `repeat(${v.cols}, 1fr)`;
  board.replaceChildren();
  const moves = legalMoves();
  const next = new Set(moves.filter((m) => startsWith(m.keys, selected)).map((m) => m.keys[selected.length]));
  v.cells.forEach((c, i) => {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "cell";
    el.dataset.index = i;
    el.dataset.content = c.content;
    if (c.key !== null) el.dataset.key = c.key;
    if (c.content === "#") el.classList.add("blocked");
    else if (c.content) el.appendChild(piece(c.content));
    if (c.marked) el.classList.add("marked");
    if (c.key !== null && next.has(c.key)) el.classList.add("playable");
    if (c.key !== null && selected.includes(c.key)) el.classList.add("selected");
    el.setAttribute("aria-label", `row ${Math.floor(i / v.cols) + 1} column ${(i % v.cols) + 1} ${c.content || "empty"}`);
    el.addEventListener("click", () => click(c.key));
    el.addEventListener("mouseenter", () => hover(c.key, true));
    el.addEventListener("mouseleave", () => hover(c.key, false));
    board.appendChild(el);
  });

  const result = $("result");
  if (s.result) {
    result.hidden = false;
    result.textContent = s.result + (s.end_reason ? ` — ${s.end_reason}` : "");
    result.className = s.result === "You win" ? "win" : s.result === "Draw" ? "" : "loss";
  } else {
    result.hidden = true;
    result.textContent = "";
  }
  document.body.dataset.result = s.result || "";

  const t = s.thinking;
  $("thinking").textContent = t
    ? `boardbot played ${t.moves.join(", ")} · depth ${t.depth} · ${t.words}${t.proved && !t.words.includes("draw") ? " (proved)" : ""} · ${t.nodes.toLocaleString("en")} nodes · ${(t.time_ms / 1000).toFixed(2)} s`
    : "";

  // Moves no cell stands for (Kalah's swap under the pie rule): a button each.
  const free = $("no-cell-moves");
  free.replaceChildren();
  for (const m of legalMoves().filter((m) => m.keys.length === 0)) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.text;
    b.addEventListener("click", () => { selected = []; change("/api/move", { session: state.session, move: m.text }); });
    free.appendChild(b);
  }

  const list = $("moves");
  list.replaceChildren();
  s.history.forEach((m) => {
    const li = document.createElement("li");
    li.textContent = m;
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;

  const mine = sideName(s.your_side);
  switch (s.status) {
    case "your_turn": say(pending ? "Sending your move…" : `Your move (you play ${mine}): click a ${v.moves.some((m) => m.keys.length > 1) ? "piece, then where it goes" : "cell"}.`); break;
    case "queued": say("Waiting for the engine: other games are being played…"); break;
    case "thinking": say("boardbot is thinking…"); break;
    case "engine_to_move": say("boardbot to move…"); break;
    case "over": say(`Game over: ${s.result}.`); break;
    default: say(s.status);
  }
  const stop = stopMove();
  $("stop").hidden = !stop;
  $("stop").title = stop ? `Play ${stop.text}` : "";
  $("undo").disabled = pending || s.history.length === 0 || s.status === "queued" || s.status === "thinking";
  $("rematch").disabled = pending;
  $("new").disabled = pending;
}

function hover(key, on) {
  if (key === null) return;
  document.querySelectorAll(`#board .cell[data-key="${CSS.escape(key)}"]`).forEach((el) => el.classList.toggle("hover", on));
}

function click(key) {
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
    change("/api/move", { session: state.session, move: done.text });
  } else {
    selected = prefix;
    render();
  }
}

// A request that changes the game; while it runs (the engine may search), the state is polled
// to show the person's move and whether the engine waits or thinks.
async function change(path, body) {
  pending = true;
  render();
  let polling = true;
  const poll = async () => {
    while (polling) {
      await new Promise((r) => setTimeout(r, 250));
      if (!polling || !state) break;
      try {
        const s = await api("GET", `/api/state?session=${encodeURIComponent(state.session)}`);
        if (polling) { state = s; render(); }
      } catch (e) { /* the main request reports errors */ }
    }
  };
  if (state) poll();
  try {
    const s = await api("POST", path, body);
    polling = false;
    pending = false;
    state = s;
    sessionStorage.setItem("boardbot-session", s.session);
    render();
  } catch (e) {
    polling = false;
    pending = false;
    render();
    say(`Error: ${e.message}`);
    throw e;
  }
  if (state.status === "engine_to_move") change("/api/go", { session: state.session });
}

function currentGame() {
  return games.find((g) => g.name === $("game").value);
}

function fillBoards() {
  const g = currentGame();
  const boards = $("board-choice");
  boards.replaceChildren();
  for (const e of g.examples) boards.add(new Option(e, e));
  boards.add(new Option("other…", ""));
  $("about").textContent = g.about;
  $("custom").placeholder = g.usage;
  $("custom").value = g.examples[0] || g.name + " ";
  customShown();
}

function customShown() {
  $("custom-label").hidden = $("board-choice").value !== "";
}

function description() {
  return $("board-choice").value || $("custom").value.trim();
}

async function newGame(game, you, level, time) {
  selected = [];
  const body = { game, you, level, time };
  const old = sessionStorage.getItem("boardbot-session");
  try {
    await change("/api/new", old ? { ...body, session: old } : body);
  } catch (e) {
    if (old && e.status === 404) {
      sessionStorage.removeItem("boardbot-session");
      await change("/api/new", body).catch(() => {});
    }
  }
}

function fromForm() {
  newGame(description(), $("you").value, $("level").value, parseFloat($("time").value));
}

async function start() {
  const info = await api("GET", "/api/games");
  games = info.games;
  for (const g of games) $("game").add(new Option(g.name, g.name));
  for (const l of info.levels) $("level").add(new Option(l, l));
  $("level").value = "max";
  fillBoards();
  $("game").addEventListener("change", fillBoards);
  $("board-choice").addEventListener("change", customShown);
  $("setup").addEventListener("submit", (ev) => { ev.preventDefault(); fromForm(); });
  $("stop").addEventListener("click", () => {
    const m = stopMove();
    if (!m) return;
    selected = [];
    change("/api/move", { session: state.session, move: m.text });
  });
  $("undo").addEventListener("click", () => { selected = []; change("/api/undo", { session: state.session }).catch(() => {}); });
  $("rematch").addEventListener("click", () => {
    if (!state) return fromForm();
    newGame(state.game, state.your_side === "first" ? "second" : "first", state.level, state.time);
  });
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
  fromForm();
}

// For tests and the curious: the state as the page last drew it.
window.boardbot = { get state() { return state; }, get pending() { return pending; } };

start().catch((e) => say(`Error: ${e.message}`));
