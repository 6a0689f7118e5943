// A player's page, from the GM's link (`/play#enc=...&me=...&token=...`), made for a phone.
// Everything it offers is one of the server's next moves (`live.actions`): each button is an
// offered action, labelled in the game's words, sent exactly as offered. On top, a banner says
// whose turn it is and what the fight waits for; then the decisions waiting for this player, then
// their moves; a reported die is typed into a small entry under the button tapped (with the one
// more die a `dice_missing` refusal asks for), and a refusal is shown right under what was tapped.
// Below: the character's card (from the state: its resources, its health as the game words it,
// its sheet), the table, the log.
import { $, el, fragment, client, explain, renderTable, renderPresence, renderLog, renderTimeline,
  keepingFocus } from "./ui.js";
import { Moves, byDecision, decisionGroup } from "./moves.js";

const { enc, token, me: myId } = fragment();
const api = client(token);
const problem = $("#problem");
let state = null;
let moves = null;     // { version, over, waiting_on, actions }: the next moves of this token
let live = null;

const fail = (err) => explain(err, problem);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const words = (key) => key.replace(/_/g, " ");

async function start() {
  if (!enc || !token) { fail({ detail: "This page needs the link your GM gave you." }); return; }
  [state, moves] = await Promise.all([api.state(enc), api.actions(enc)]);
  $("#title").textContent = state.name;
  show();
  refresh();
  live = api.live(enc, {
    onState: (s) => { state = s; show(); },
    onActions: (m) => { moves = m; show(); },  // an answered prompt is no longer offered: it goes
    onPrompt: () => drawActions(),  // a prompt's question, for its buttons
    onEvent: () => refresh(),
    onPresence: (p) => renderPresence(p, $("#presence")),
    onStatus: (s) => { $("#live-status").textContent = `Live: ${s}`; },
    onError: (m) => fail(m),
  });
}

// the log and the timeline are read again once a burst of events has come in
let timer = null;
function refresh() {
  clearTimeout(timer);
  timer = setTimeout(() => { renderLog(api, enc, $("#log")).catch(fail); renderTimeline(api, enc, $("#timeline")); }, 50);
}

function show() {
  if (!state) return;
  drawBanner();
  drawActions();
  drawCard();
  renderTable(state, $("#table"));
}

const combatants = () => (state && state.combatants) || {};
const nameOf = (id) => (combatants()[id] ? combatants()[id].name : null);

/** The combatants this page plays: the link's, and any an offered action is for. */
function mine() {
  const ids = new Set(myId ? [myId] : []);
  for (const a of (moves && moves.actions) || []) if (a.combatant_id) ids.add(a.combatant_id);
  return ids;
}

function playerOf(w) {
  const name = w.combatant_id && nameOf(w.combatant_id);
  if (w.who === "gm") return "the GM";
  return name || "another player";
}

/** Whose turn it is and what the fight waits for, in words; "Your turn" when it waits on you. */
function drawBanner() {
  const waiting = (moves && moves.waiting_on) || [];
  const ids = mine();
  // your turn while the fight waits on your combatant first and something is offered to you now
  // (after your attack, while the foe decides, it is the foe the fight waits on)
  const yours = offered().length ? waiting.filter((w) => w.combatant_id && ids.has(w.combatant_id)) : [];
  const others = waiting.filter((w) => !yours.includes(w));
  const turn = yours.length > 0 && yours[0] === waiting[0];
  let head;
  let what = "";
  let also = "";
  // `over` is the fight as this player sees it (a hidden foe left does not tell): while the GM has
  // not ended it, the banner follows what it waits on, in the server's words
  const ended = state && state.status === "ended";
  if (!moves) head = "Loading…";
  else if (ended || (moves.over && !waiting.length)) head = "The fight is over";
  else if (turn) { head = "Your turn"; what = yours.map((w) => w.what).join(" · "); }
  else if (others.length) {
    head = `Waiting for ${playerOf(others[0])}`;
    what = others.map((w) => w.what).join(" · ");
    if (yours.length) also = `Meanwhile you may: ${yours.map((w) => w.what).join(" · ")}`;
  }
  else head = "Nothing waits";
  $("#banner").classList.toggle("yours", turn && !ended);
  if ($("#banner-h").textContent !== head) $("#banner-h").textContent = head;
  if ($("#banner-what").textContent !== what) $("#banner-what").textContent = what;
  if ($("#banner-also").textContent !== also) $("#banner-also").textContent = also;
  const me = combatants()[myId];
  $("#me-line").replaceChildren(...(me ? [el("strong", {}, me.name), " ", ...resourcePills(me)] : []));
}

function resourcePills(c) {
  const out = [];
  if (typeof c.action_points === "number") out.push(["AP", c.action_points]);
  for (const [k, v] of Object.entries(c.resources || {})) if (v !== null && typeof v !== "object") out.push([k, v]);
  return out.map(([k, v]) => el("span", { class: "pill" }, `${k} ${v}`));
}

// ---- the next moves: decisions first, then moves; every button an offered action ----

function offered() {
  return ((moves && moves.actions) || []).filter((a) => a.kind === "decision" || a.kind === "move");
}

const buttons = new Moves({
  api, enc, state: () => state, fail,
  redraw: (force) => { if (force) drawnKey = null; drawActions(); },
  tapped: () => { $("#done").textContent = ""; },
  done: (a) => { $("#done").textContent = `Done: ${a.label}`; problem.hidden = true; },
});

let drawnKey = null;
function drawActions() {
  if (!state) return;
  const list = offered();
  buttons.keep(list);
  const prompts = live ? [...live.prompts.values()].map((p) => [p.id, p.summary]) : [];
  const key = JSON.stringify([list, prompts, state.dice_policy, Object.keys(combatants()).map(nameOf), buttons.key()]);
  if (key === drawnKey) return;
  drawnKey = key;
  buttons.drawing(() => keepingFocus(() => {
    const decisions = byDecision(list);
    $("#decisions").hidden = decisions.size === 0;
    const item = (a) => buttons.item(a);
    $("#prompts").replaceChildren(...[...decisions].map(([k, acts], i) => decisionGroup(question(k, acts), acts, i, item)));
    const own = list.filter((x) => x.kind === "move");
    const actors = [...new Set(own.map((a) => a.combatant_id))];
    $("#actions").replaceChildren(buttons.lost(list) || "", ...(own.length ? actors.map((cid) => el("div", { class: "moves" },
      actors.length > 1 ? el("h3", {}, nameOf(cid) || "") : null,
      own.filter((a) => a.combatant_id === cid).map(item)))
      : [el("p", { class: "status" }, decisions.size ? "Decide above." : "Nothing to do now.")]));
  }));
}

/** The question a decision asks, in the server's words: its prompt's, or what the fight waits on. */
function question(decision, acts) {
  const prompt = live && live.prompts.get(decision);
  if (prompt && prompt.summary) return prompt.summary;
  const w = ((moves && moves.waiting_on) || []).find((x) => x.combatant_id === acts[0].combatant_id);
  if (w) return w.what;
  return nameOf(acts[0].combatant_id) ? `${nameOf(acts[0].combatant_id)} decides` : "Your decision";
}

// ---- the character's card: what the state shows of this player's combatant ----

/** The fields the table sees of a combatant it does not play (the ruleset's visible ones: its
 * health in the game's words), read off the NPCs this viewer sees: shown first on the card. */
function tableFields() {
  const keys = new Set();
  for (const c of Object.values(combatants())) {
    if (c.id !== myId && c.controller === "gm" && c.sheet) for (const k of Object.keys(c.sheet)) keys.add(k);
  }
  return keys;
}

const NAMED = ["name", "label", "status", "condition", "kind", "type", "effect"];  // what an entry is called

/** A value in words: names for combatants, nothing for an id this page cannot name. */
function say(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "boolean") return v ? "yes" : null;
  if (typeof v === "string") return v === "" ? null : (UUID.test(v) ? nameOf(v) : v);
  if (typeof v === "number") return String(v);
  if (Array.isArray(v)) {
    const parts = v.map(sayItem).filter(Boolean);
    return parts.length ? parts.join(", ") : null;
  }
  if (NAMED.some((k) => typeof v[k] === "string")) return sayItem(v);
  const parts = Object.entries(v).map(([k, x]) => {
    if (x !== null && typeof x === "object") return sayItem(x) ? `${words(k)} (${sayItem(x)})` : words(k);
    const s = say(x);
    return s === null ? null : (s === "yes" ? words(k) : `${words(k)} ${s}`);
  }).filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/** One entry of a list: its name where it has one, else its plain values, briefly. */
function sayItem(x) {
  if (x === null || typeof x !== "object") return say(x);
  for (const k of NAMED) {
    if (typeof x[k] === "string" && !UUID.test(x[k])) return x[k];
  }
  const flat = Object.entries(x).filter(([, v]) => v === null || typeof v !== "object").slice(0, 4)
    .map(([k, v]) => [k, say(v)]).filter(([, s]) => s !== null);
  return flat.length ? flat.map(([k, s]) => (s === "yes" ? words(k) : `${words(k)} ${s}`)).join(" ") : null;
}

function pair(k, v) { return el("div", {}, el("dt", {}, words(k)), el("dd", {}, v)); }

function drawCard() {
  const me = combatants()[myId];
  if (!me) { $("#me").replaceChildren(el("p", { class: "status" }, "Your character is not at the table yet.")); return; }
  const sheet = me.sheet || {};
  const seen = tableFields();
  const vitals = [];
  const flags = [];
  const scalars = [];
  const lines = [];
  for (const [k, v] of Object.entries(sheet)) {
    if (seen.has(k)) {
      if (typeof v === "boolean") { if (v) flags.push(words(k)); } else vitals.push([k, say(v) ?? "none"]);
      continue;
    }
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "boolean") scalars.push([k, "yes"]);  // a trait of the sheet, not a condition
    else if (typeof v === "object") { const s = say(v); if (s) lines.push([k, s]); }
    else { const s = say(v); if (s !== null) scalars.push([k, s]); }
  }
  $("#me").replaceChildren(el("div", { class: "card" },
    el("p", { class: "card-name" }, el("strong", {}, me.name), " ", el("span", { class: "side" }, `(${me.side})`),
      me.initiative !== null && me.initiative !== undefined ? el("span", { class: "side" }, ` · initiative ${me.initiative}`) : null),
    el("p", { class: "pills" }, resourcePills(me), flags.map((f) => el("span", { class: "pill cond" }, f))),
    vitals.length ? el("dl", { class: "kv vitals", "aria-label": "As the table sees you" }, vitals.map(([k, v]) => pair(k, v))) : null,
    scalars.length ? el("dl", { class: "kv", "aria-label": "Sheet" }, scalars.map(([k, v]) => pair(k, v))) : null,
    lines.length ? el("ul", { class: "lines" }, lines.map(([k, v]) => el("li", {}, el("strong", {}, words(k)), `: ${v}`))) : null));
}

start().catch(fail);
