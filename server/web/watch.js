// The spectator view: a TV across the room, a second screen, a stream overlay. The order of play
// with whose turn it is, what the fight waits on, the last lines of the readable log and the
// timeline, in large type, followed live.
//
// It shows what the server gives a spectator and nothing it could guess from: no ids (nor
// versions, whose gaps would count what happened out of sight), and no line for an event
// hidden from the table (a `Redacted` event in the spectator's history): a hidden NPC leaves
// no trace here. Every word shown about the fight is the server's (names, sides, resources,
// conditions, what it waits on, the log's sentences).
import { $, el, fragment, client, explain, renderTimeline, numbers, conditions, outOfFight } from "./ui.js";

const flat = (x) => (Array.isArray(x) ? x : []);

const { enc, token } = fragment();
const api = client(token);
const fail = (err) => explain(err, $("#problem"));
const ok = () => { $("#problem").hidden = true; };

let state = null;
let moves = null;  // what the fight waits on: { over, waiting_on } (a spectator is offered no action)

// ------------------------------------------------------------------------ the order of play

function row(c, current) {
  const conds = conditions(c);
  const out = outOfFight(c, moves);
  return el("li", { class: `combatant${current ? " turn" : ""}${out ? " out" : ""}`, "aria-current": current ? "true" : null },
    el("span", { class: "who" }, el("strong", { class: "name" }, c.name), " ", el("span", { class: "side" }, c.side)),
    el("span", { class: "facts" },
      numbers(c).map(([k, v]) => el("span", { class: "pill" }, `${k} ${v}`)),
      [...conds.values()].map((x) => el("span", { class: "pill cond" }, x)),
      out ? el("span", { class: "pill gone" }, "out of the fight") : null));
}

function showTable() {
  const byId = state.combatants || {};
  const order = flat(state.order).filter((id) => byId[id]);
  const rest = Object.keys(byId).filter((id) => !order.includes(id));  // joined after initiative
  const now = state.turn;
  const ended = state.status === "ended";
  $("#table").replaceChildren(
    el("p", { class: "round" }, state.round ? `Round ${state.round}` : "Before the fight", ended ? " · ended" : ""),
    el("ol", { class: "order", "aria-label": "Order of play" }, [...order, ...rest].map((id) => row(byId[id], id === now))));
  fitTable();
}

/** A long order of play in smaller type rather than cut off at the bottom of the screen. */
function fitTable() {
  const box = $("#table");
  const list = $("#table .order");
  if (!list) return;
  list.classList.remove("tight", "tighter");
  for (const tighter of ["tight", "tighter"]) {
    if (box.scrollHeight <= box.clientHeight + 1) return;
    list.classList.remove("tight");
    list.classList.add(tighter);
  }
}

// ------------------------------------------------------------------------ what the fight waits on

/** Whom the fight waits on: the GM's business and the turn in the server's words; anyone else by
 * name alone, for what they are asked may be about something out of sight ("react to an attack by
 * a creature unseen"), and the page tells no more of that than the table's rows do. */
function showWaiting() {
  const byId = (state && state.combatants) || {};
  // "over" is the fight as the table sees it: while someone's turn goes on, a foe out of sight
  // may be left, so the turn alone is told (the same whether one is left or not)
  const turnGoesOn = Boolean(moves && moves.over && state && state.status === "active" && byId[state.turn]);
  const told = [];
  for (const w of flat(moves && moves.waiting_on)) {
    if (turnGoesOn && !w.combatant_id) continue;
    const c = w.combatant_id ? byId[w.combatant_id] : null;
    const said = !w.combatant_id ? String(w.what) : !c ? null : w.combatant_id === state.turn ? String(w.what) : c.name;
    if (said && !told.includes(said)) told.push(said);
  }
  $("#waiting").replaceChildren(...(told.length ? told.map((t) => el("span", { class: "what" }, t)) : ["nothing"]));
}

// ------------------------------------------------------------------------ the log

// each event's version → whether it is hidden from the table (`Redacted`), read from the
// spectator's own history; read again from the start when the table's combatants change (a
// reveal shows what was out of sight)
const hidden = new Map();
let historyKey = null;

async function history(upTo) {
  const key = Object.keys((state && state.combatants) || {}).sort().join(",");
  if (key !== historyKey) { hidden.clear(); historyKey = key; }
  let after = Math.max(0, ...hidden.keys());
  while (after < upTo) {
    const page = await api.events(enc, after, 1000);
    for (const e of page.events) hidden.set(e.version, e.type === "Redacted");
    if (!page.has_more || page.next_after <= after) break;
    after = page.next_after;
  }
}

const MOST = 12;  // lines drawn; as many of the newest as fit are kept

let logShown = -1;  // the version of the log shown (kept here, not in the page: versions count hidden events too)

async function showLog(redraw = false) {
  const log = await api.log(enc);
  if (logShown > log.version || (logShown === log.version && !redraw)) return;  // two reads crossed, or nothing new
  await history(log.version);
  logShown = log.version;
  const where = $("#log");
  const told = log.entries.filter((e) => e.versions.every((v) => hidden.get(v) === false));
  const first = Math.max(0, told.length - MOST);
  where.replaceChildren(...told.slice(first).map((e, i) => el("li", { class: e.undone ? "undone" : null, value: first + i + 1 },
    el("span", { class: "n" }, String(first + i + 1)), el("span", { class: "line" }, e.sentence))));
  fit(where);
}

/** Keep the newest lines that fit the box: no half line at the top, no scroll bar. */
function fit(where) {
  while (where.children.length > 1 && where.scrollHeight > where.clientHeight + 1) where.firstElementChild.remove();
}

// ------------------------------------------------------------------------ the timeline

async function showTimeline() {
  await renderTimeline(api, enc, $("#timeline"));
  // the picture marks its rows and marks with ids and versions: not shown here
  for (const node of $("#timeline").querySelectorAll("[data-combatant], [data-version]")) {
    node.removeAttribute("data-combatant");
    node.removeAttribute("data-version");
  }
}

// ------------------------------------------------------------------------ live

let timer = null;
let running = null;
let again = false;
let resized = false;
function refresh() {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    if (running) { again = true; return; }
    const redraw = resized;
    resized = false;
    running = Promise.all([showLog(redraw), showTimeline()]).then(ok, fail);
    await running;
    running = null;
    if (again) { again = false; refresh(); }
  }, 80);
}

function show() {
  $("#title").textContent = state.name;
  document.title = `${state.name}: the fight`;
  showTable();
  showWaiting();
}

function showPresence(p) {
  const roles = (p && p.roles) || {};
  const parts = Object.entries(roles).filter(([, n]) => n > 0).map(([role, n]) => `${n} ${role}${n === 1 ? "" : "s"}`);
  $("#presence").textContent = parts.length ? `Connected: ${parts.join(", ")}` : "";
}

async function start() {
  if (!enc || !token) { fail({ detail: "This page needs a spectator link from the GM." }); return; }
  state = await api.state(enc);
  show();
  refresh();
  api.actions(enc).then((m) => { if (!moves) { moves = m; show(); } }, () => {});
  api.live(enc, {
    onState: (s) => { state = s; show(); refresh(); },
    onActions: (m) => { moves = m; show(); },
    onEvent: () => refresh(),
    onPresence: showPresence,
    onStatus: (s) => { $("#live-status").textContent = `Live: ${s}`; },
    onError: (m) => fail(m),
  });
  addEventListener("resize", () => { fitTable(); resized = true; refresh(); });
}

start().catch(fail);
