// The web table: the New game form, the live table (server-sent events, one state per change), the person's
// moves (buttons, keys, typed), the announcements, and the replay viewer. See docs/web.md.

import { api, errorText } from "./api.js";
import { LogView, eventText } from "./log.js";
import { enabledMoves, legalText, renderMoves, typedMove } from "./moves.js";
import { Names } from "./names.js";
import { Replay } from "./replay.js";
import { handSummary, renderResults, resultSentence } from "./results.js";
import { Setup } from "./setup.js";
import { renderFelt, renderLastTrick, renderScoreboard, winnersText } from "./table.js";

const $ = (id) => document.getElementById(id);
const SESSION_KEY = "smear.table";

/** The table this page plays at: {id, seat, token, adminToken, seats} (seat null: watching the bots). */
let table = null;
let state = null;
let stream = null;
let names = new Names([], null);
const log = new LogView($("log"));
let heard = { logSize: 0, results: 0, trick: "" };

// ------------------------------------------------------------------ a table
function startTable(created, seat) {
  closeTable();
  table = {
    id: created.id,
    seat,
    token: seat === null ? null : created.seats[seat].token,
    adminToken: created.admin_token,
    seats: created.seats.map(({ seat: k, kind, bot }) => ({ seat: k, kind, bot })),
  };
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(table));
  names = new Names(table.seats, seat);
  log.reset();
  heard = { logSize: 0, results: 0, trick: "" };
  state = null;
  show(created.state, { quiet: true });
  connect();
  focusMoves();
}

/** Leave the current table, closing it on the server: its bots stop, and a finished one no longer counts among the
 * tables this browser holds open (the server limits them per client). */
function closeTable() {
  stream?.close();
  stream = null;
  if (table) api(`/v1/tables/${table.id}`, { method: "DELETE", token: table.adminToken }).catch(() => {});
  table = null;
}

/** Follow the table through server-sent events: one state now and one after every move. */
function connect() {
  const query = table.seat === null ? "" : `?seat=${table.seat}&token=${encodeURIComponent(table.token)}`;
  stream = new EventSource(`/v1/tables/${table.id}/events${query}`);
  const mine = stream;
  stream.addEventListener("state", (event) => {
    if (mine === stream) show(JSON.parse(event.data));
  });
  stream.addEventListener("closed", () => {
    mine.close();
    $("move-error").textContent = "This table was closed on the server (idle too long, or closed).";
  });
  stream.onerror = () => {
    if (state && (state.match_over || state.error)) mine.close(); // the stream ended with the match: stay closed
  };
}

/** Resume the table this tab was playing before a reload (``saved``, read as the page opened), if the server still has
 * it. It runs once the form has loaded, so the person may have started a new game by then: that table stays, and
 * neither a late answer about the old one nor its failure touches it. */
async function resume(saved) {
  if (!saved || table) return;
  try {
    const query = saved.seat === null ? "" : `?seat=${saved.seat}`;
    const current = await api(`/v1/tables/${saved.id}${query}`, { token: saved.token });
    if (table) return;
    table = saved;
    names = new Names(table.seats, table.seat);
    show(current, { quiet: true });
    if (!current.match_over) connect();
  } catch {
    if (!table) sessionStorage.removeItem(SESSION_KEY);
  }
}

// ------------------------------------------------------------------ drawing a state
/** Take a state from the server. A move's answer and the event stream both carry the state after it, and the server
 * builds one state per version: a version already shown is not drawn again, since redrawing the move buttons under
 * the person's keys loses a Space pressed as the copy arrives. */
function show(next, { quiet = false } = {}) {
  if (state && state.id === next.id && next.version <= state.version) return; // shown already, or older and late
  state = next;
  draw({ quiet });
}

/** Draw the current state: the table, the moves (with the keyboard focus kept on them) and what to announce. */
function draw({ quiet = false } = {}) {
  const root = $("table");
  root.dataset.version = String(state.version);
  root.dataset.yourTurn = String(state.your_turn);
  root.dataset.matchOver = String(state.match_over);
  root.dataset.phase = state.view.phase;
  const focus = focusBefore();
  renderScoreboard($("scoreboard"), state, names);
  renderFelt($("felt"), state, names, { perspective: table?.seat ?? 0, summary: handSummary(state, names) });
  renderMoves($("moves"), state);
  renderLastTrick($("last-trick"), state, names);
  renderResults($("results"), state, names);
  log.render(state.log, state, names);
  turnStatus();
  announce(quiet);
  restoreFocus(focus);
  const over = state.match_over || Boolean(state.error);
  $("after-match").hidden = !over || !table;
  $("type-move").hidden = over;
  $("replay-current").disabled = !over;
  $("replay-current-hint").hidden = over;
  $("save-record").hidden = !over;
  if (over) stream?.close();
}

function turnStatus() {
  const status = $("turn-status");
  let text;
  if (state.error) text = "the table stopped";
  else if (state.match_over) text = `match over: ${winnersText(state, names)}`;
  else if (table?.seat === null) text = "you are watching";
  else if (state.your_turn) text = "your turn";
  else text = `waiting for ${names.long(state.current_player)}`;
  status.textContent = `· ${text}`;
  status.classList.toggle("mine", Boolean(state.your_turn));
  document.title = `${state.your_turn ? "Your turn · " : ""}Smear table · smear-rl`;
}

/** Where the keyboard focus is before the moves are drawn again: on a move (which one, at which place), elsewhere
 * among the moves or nowhere (null move), or away from them (the form, the log: left alone). */
function focusBefore() {
  const active = document.activeElement;
  const moves = enabledMoves($("moves"));
  const inMoves = !active || active === document.body || $("moves").contains(active);
  return { inMoves, move: active?.dataset?.move ?? null, index: Math.max(0, moves.indexOf(active)) };
}

/** Keep the keyboard on the moves: the same move if it is still legal, else the one now at its place (the next
 * card after a discard), else the moves' group; a person whose focus is elsewhere keeps it there. */
function restoreFocus(focus) {
  if (!focus.inMoves) return;
  const moves = enabledMoves($("moves"));
  const same = focus.move && moves.find((node) => node.dataset.move === focus.move);
  if (same) same.focus();
  else if (moves.length) moves[Math.min(focus.index, moves.length - 1)].focus();
  else if (focus.move) $("moves").focus({ preventScroll: true });
}

/** Say what others did since the last state (the live region), the trick's winner and each hand's result. */
function announce(quiet) {
  const sentences = [];
  const entries = state.log;
  const fresh = state.log_size >= heard.logSize ? entries.slice(heard.logSize) : [];
  for (const entry of fresh) {
    if (entry.seat !== table?.seat || "take" in entry) sentences.push(eventText(entry, state, names));
  }
  heard.logSize = state.log_size;
  const last = state.last_trick;
  const trickKey = last ? `${last.hand}:${last.cards.join()}` : "";
  if (last && trickKey !== heard.trick) sentences.push(`${names.seat(last.winner)} took the trick`);
  heard.trick = trickKey;
  for (const result of state.hand_results.slice(heard.results)) sentences.push(resultSentence(result, state, names));
  heard.results = state.hand_results.length;
  if (state.match_over) sentences.push(`Match over: ${winnersText(state, names)}.`);
  if (state.your_turn) sentences.push("Your turn.");
  if (!quiet && sentences.length) $("announcer").textContent = sentences.join(". ").replace(/\.\./g, ".");
}

// ------------------------------------------------------------------ moving
async function makeMove(move) {
  if (!table || table.seat === null || !state?.your_turn) return;
  $("move-error").textContent = "";
  for (const node of enabledMoves($("moves"))) node.disabled = true; // one move per turn, even on a double click
  try {
    const next = await api(`/v1/tables/${table.id}/moves`, {
      method: "POST",
      token: table.token,
      body: { seat: table.seat, move },
    });
    show(next);
  } catch (err) {
    $("move-error").textContent = `${move}: ${errorText(err)}`;
    draw(); // the same state again, its moves enabled again
  }
}

function focusMoves() {
  const moves = enabledMoves($("moves"));
  if (moves.length) moves[0].focus();
  else $("moves").focus({ preventScroll: true });
}

$("moves").addEventListener("click", (event) => {
  const target = event.target.closest("button[data-move]");
  if (target && !target.disabled) makeMove(target.dataset.move);
});

$("move-text").addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  event.target.value = "";
  const moves = enabledMoves($("moves"));
  if (moves.length) moves[0].focus();
  else $("moves").focus({ preventScroll: true });
});

$("type-move").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("move-text");
  if (!state?.your_turn) {
    $("move-error").textContent = "It is not your turn.";
    return;
  }
  const move = typedMove(input.value, state.legal_moves);
  if (!move) {
    $("move-error").textContent = `"${input.value}" is not one of your legal moves: ${legalText(state.legal_moves)}.`;
    return;
  }
  input.value = "";
  makeMove(move);
});

// ------------------------------------------------------------------ views, help, keys
const replay = new Replay($("replay"), null, $("replay-error"));

function showView(name) {
  const isReplay = name === "replay";
  $("table-view").hidden = isReplay;
  $("replay-view").hidden = !isReplay;
  $("show-table").setAttribute("aria-pressed", String(!isReplay));
  $("show-replay").setAttribute("aria-pressed", String(isReplay));
}

async function tableRecord() {
  return api(`/v1/tables/${table.id}/record`, { token: table.adminToken });
}

$("show-table").addEventListener("click", () => showView("table"));
$("show-replay").addEventListener("click", () => showView("replay"));
$("show-help").addEventListener("click", () => $("help").showModal());
$("play-again").addEventListener("click", () => setup.start());
$("replay-match").addEventListener("click", () => $("replay-current").click());
$("replay-current").addEventListener("click", async () => {
  try {
    await replay.open(await tableRecord(), table.seats, table.seat);
    showView("replay");
    $("replay-forward").focus();
  } catch (err) {
    $("replay-error").textContent = errorText(err);
  }
});
$("save-record").addEventListener("click", async (event) => {
  event.preventDefault();
  try {
    const blob = new Blob([JSON.stringify(await tableRecord(), null, 1)], { type: "application/json" });
    const link = Object.assign(document.createElement("a"), {
      href: URL.createObjectURL(blob),
      download: `smear-${state.preset}-${state.seed}.json`,
    });
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (err) {
    $("replay-error").textContent = errorText(err);
  }
});
$("record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (err) {
    $("replay-error").textContent = `${file.name} is not a JSON record: ${err.message}`;
    return;
  }
  await replay.open(record);
});
$("four-colour").addEventListener("change", (event) => {
  document.body.classList.toggle("two-colour", !event.target.checked);
  localStorage.setItem("smear.fourColour", String(event.target.checked));
});

function typing(target) {
  return target.closest?.("input, textarea, select, [contenteditable]") && target.type !== "checkbox" && target.type !== "button";
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || $("help").open || typing(event.target)) return;
  const key = event.key;
  if (key === "?") {
    $("help").showModal();
  } else if (key === "r") {
    showView("replay");
  } else if (key === "t") {
    showView("table");
  } else if (!$("replay-view").hidden) {
    if (!replay.key(event)) return;
  } else if (/^[0-9]$/.test(key)) {
    const moves = enabledMoves($("moves"));
    const node = moves[(Number(key) + 9) % 10];
    if (!node) return;
    node.focus();
    makeMove(node.dataset.move);
  } else if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) {
    const moves = enabledMoves($("moves"));
    if (!moves.length || !$("moves").contains(document.activeElement)) return;
    const at = moves.indexOf(document.activeElement);
    const step = key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1;
    const index = key === "Home" ? 0 : key === "End" ? moves.length - 1 : (at + step + moves.length) % moves.length;
    moves[index].focus();
  } else if (key === "/") {
    $("move-text").focus();
  } else if (key === "n") {
    $("preset").focus();
  } else {
    return;
  }
  event.preventDefault();
});

// ------------------------------------------------------------------ start
if (localStorage.getItem("smear.fourColour") === "false") {
  $("four-colour").checked = false;
  document.body.classList.add("two-colour");
}
const savedTable = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? "null");
const setup = new Setup($("setup-form"), { onStart: startTable });
setup.load().then(() => resume(savedTable));
