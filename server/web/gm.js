// The GM's console: leads with the fight. On top, what the fight waits on, a big button for the
// next step (roll initiative, start, next turn) and the decisions waiting for the GM; then the
// order of play, each row with its numbers and conditions in the game's words, the NPC's moves on
// its turn, a Reveal for a hidden one and the rulings on it; beside it, the add form (built from
// the sheet schema, started from the ruleset's examples or this browser's kept party), the links
// for the table, the log and, one click away, every command's form for rare cases.
// Every button is one of the server's next moves (`GET /encounters/{id}/actions`), sent as offered.
import { $, el, fragment, client, explain, schemaForm, showCommandForm, names, renderPresence, renderLog, renderTimeline,
  keepingFocus, numbers, conditions, outOfFight } from "./ui.js";
import { Moves, byDecision, decisionGroup } from "./moves.js";

const problem = $("#problem");
let operator = sessionStorage.getItem("fracas-operator") || null;
let gm = null;        // the client with this encounter's GM token
let enc = null;
let ruleset = null;   // GET /rulesets/{id}
let state = null;
let moves = null;     // { version, over, waiting_on, actions, out_of_fight }: the GM's next moves
let live = null;
let sheet = null;     // the add form's sheet fields
let opened = null;    // the ruling whose form is open: { id, combatant }
let buttons = null;   // Moves: the offered actions as buttons, their dice and refusals

function fail(err) { explain(err, problem); }
function ok() { problem.hidden = true; }
const combatants = () => (state && state.combatants) || {};
const nameOf = (id) => (combatants()[id] ? combatants()[id].name : "");

// ------------------------------------------------------------------ encounters

let listTimer = null;
async function listEncounters() {
  const api = client(operator);
  try {
    const listed = await api.encounters();
    $("#operator-form").hidden = true;
    const items = listed.encounters || listed.items || listed;
    $("#encounter-list").replaceChildren(...(Array.isArray(items) ? items : []).map((e) => {
      const id = e.id || e.encounter_id;
      const saved = localStorage.getItem(`fracas-gm-${id}`);
      return el("li", { class: id === enc ? "current" : null }, `${e.name} (${e.ruleset}, ${e.status || ""}) `,
        id === enc ? el("span", { class: "status" }, "running here") :
          saved ? el("button", { type: "button", class: "small", onclick: () => run(id, saved) }, `Run ${e.name}`) :
            el("span", { class: "status" }, "its GM token is needed below"));
    }));
  } catch (err) {
    if (err.status === 401 || err.status === 403) {
      $("#operator-form").hidden = false;
      if (operator) fail(err);
    } else fail(err);
  }
}

/** The list of encounters, shown under the fight when asked ("Other encounters"), or alone. */
function showStart(shown) {
  $("#start").hidden = !shown;
  $("#switch").setAttribute("aria-expanded", String(shown));
  clearInterval(listTimer);
  if (shown) {
    listEncounters();
    listTimer = setInterval(listEncounters, 15000);  // other GMs open encounters too
  }
}

async function start() {
  // every form's handler first, before anything is awaited: a tap while the lists load must not
  // submit the form natively (a reload, the choices made lost)
  const policies = async () => {
    const r = await client().ruleset($("#open-ruleset").value);
    const chosen = $("#open-dice").value;  // a choice made while the list loaded stays, where still offered
    $("#open-dice").replaceChildren(...r.dice_policies.map((p) => el("option", { value: p, selected: p === chosen }, p)));
  };
  $("#open-ruleset").addEventListener("change", () => policies().catch(fail));
  $("#operator-form").addEventListener("submit", (e) => {
    e.preventDefault();
    operator = $("#operator-key").value;
    sessionStorage.setItem("fracas-operator", operator);
    listEncounters();
  });
  $("#open-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const dice = $("#open-dice").value;  // none yet while the ruleset's policies load: its default
      const made = await client(operator).openEncounter($("#open-ruleset").value, $("#open-name").value,
        dice ? { dice_policy: dice } : {});
      localStorage.setItem(`fracas-gm-${made.encounter_id}`, made.gm_token.token);
      learnBase(made.gm_token.link, "/#enc=");
      ok();
      await run(made.encounter_id, made.gm_token.token);
    } catch (err) { fail(err); }
  });
  $("#resume-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run($("#resume-enc").value.trim(), $("#resume-token").value.trim());
  });
  $("#list-refresh").addEventListener("click", listEncounters);
  $("#switch").addEventListener("click", () => showStart($("#start").hidden));
  $("#add-form").addEventListener("submit", addCombatant);
  $("#add-from").addEventListener("change", fillAddForm);
  $("#add-forget").addEventListener("click", forgetKept);
  $("#command-form").addEventListener("submit", sendCommand);
  $("#command-type").addEventListener("change", showCommand);
  $("#spectator-link").addEventListener("click", spectatorLink);
  const rulesets = await client().rulesets();
  $("#open-ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r.id }, r.name)));
  await policies();
  // the console's own link (`#enc=...&token=...`, the answer to opening an encounter: on another
  // device), or `#enc=...` where this browser keeps that encounter's GM token
  const { enc: linked, token: given } = fragment();
  const kept = linked && localStorage.getItem(`fracas-gm-${linked}`);
  if (linked && (given || kept)) await run(linked, given || kept);
  else showStart(true);
}

/** Run encounter `id`: everything shown is this encounter's from here on (nothing of the last). */
async function run(id, token) {
  const api = client(token);
  let s;
  let r;
  try {
    s = await api.state(id);
    r = await api.ruleset(s.ruleset);
  } catch (err) { fail(err); return; }
  ok();
  if (live) live.close();
  [gm, enc, state, ruleset, moves, opened] = [api, id, s, r, null, null];
  buttons = new Moves({ api: gm, enc, state: () => state, fail, redraw: (force) => { if (force) drawnKey = null; show(); } });
  links = JSON.parse(localStorage.getItem(`fracas-links-${enc}`) || "{}");
  for (const node of ["#log", "#timeline", "#links", "#handed-out", "#gm-decisions", "#table", "#rulings", "#next"]) $(node).replaceChildren();
  delete $("#log").dataset.version;
  [drawnKey, shownLinks, shownKey, formsFor] = [null, null, null, null];
  localStorage.setItem(`fracas-gm-${enc}`, token);
  history.replaceState(null, "", `#enc=${enc}`);  // the token leaves the address bar (and the history)
  consoleLink = `${sessionStorage.getItem("fracas-public-base") || location.origin}/#enc=${enc}&token=${encodeURIComponent(token)}`;
  $("#fight").hidden = false;
  showStart(false);
  $("#fight-title").textContent = `${state.name} (${ruleset.name})`;
  document.title = `${state.name}: the GM's console`;
  buildForms();
  show();
  listTokens();
  gm.actions(enc).then((m) => { if (id === enc && (!moves || m.version >= moves.version)) { moves = m; show(); } }, fail);
  live = gm.live(enc, {
    onState: (x) => { state = x; show(); },
    onActions: (m) => { moves = m; show(); },
    onEvent: () => refreshLog(),
    onPresence: (p) => renderPresence(p, $("#presence")),
    onStatus: (x) => { $("#live-status").textContent = `Live: ${x}`; },
    onError: (m) => fail(m),
  });
}

// ------------------------------------------------------------------ the fight

function show() {
  if (!state) return;
  drawFight();
  showLinks();
  showCommand();
  refreshLog();
  // what is drawn, for a page (or a test) that waits for it before the next tap
  $("#fight").dataset.version = String(state.version);
  if (moves) $("#fight").dataset.moves = String(moves.version);
}

const offered = () => (moves && moves.actions) || [];
const ofType = (type) => offered().filter((a) => a.command.type === type);

let drawnKey = null;
function drawFight() {
  const list = offered();
  buttons.keep(list);
  const key = JSON.stringify([state, moves, buttons.key(), opened]);
  if (key === drawnKey) return;  // drawn again only when something shown changes: focus and typing stay
  drawnKey = key;
  buttons.drawing(() => keepingFocus(() => {
    drawNow(list);
    drawTable(list);
    drawRulings(list);
    const secret = state.secret_versions || [];
    $("#secret-rolls").replaceChildren(...secret.map((v) => el("button", { type: "button", class: "small",
      "data-focus": `roll:${v}`, onclick: () => sendBody({ type: "RevealRoll", version: v }) }, `Reveal the secret roll of v${v}`)));
  }));
}

/** What the fight waits on, the next step as a big button, the GM's decisions. */
function drawNow(list) {
  const byId = combatants();
  const turn = byId[state.turn];
  $("#round").textContent = state.status === "setup" ? "Setting up" : state.status === "ended" ? "The encounter is over"
    : `Round ${state.round ?? 0}${turn ? ` · ${turn.name}'s turn` : ""}`;
  const waiting = (moves && moves.waiting_on) || [];
  $("#waiting").replaceChildren(...(waiting.length ? [el("strong", {}, "Waiting on: "),
    ...waiting.map((w, i) => el("span", { class: "what" }, i ? " · " : "", w.who === "gm" && !w.combatant_id ? `you: ${w.what}`
      : `${w.who === "gm" ? "you" : "the player"}: ${w.what}`))] : [moves ? "Nothing waits." : "Loading…"]));
  // the next step: start the fight, or end the turn of whoever acts (the GM may end a player's too)
  const big = [];
  for (const type of ["RollInitiative", "StartEncounter"]) {
    for (const a of ofType(type)) if (state.status === "setup") big.push(buttons.item(a));
  }
  const endTurn = list.find((a) => a.command.type === "EndTurn" && a.combatant_id === state.turn);
  if (endTurn) big.push(buttons.item(endTurn, `Next turn (end ${nameOf(endTurn.combatant_id)}'s turn)`));
  else if (state.status === "active" && turn && turn.controller === "player") {
    const body = { type: "EndTurn", combatant_id: turn.id };  // the GM's override of a player's turn
    big.push(buttons.item({ id: `gm-end-${turn.id}-${state.version}`, kind: "lifecycle", label: `Next turn (end ${turn.name}'s turn for the player)`, command: body, dice: [] }));
  }
  const end = ofType("EndEncounter")[0];
  $("#next").replaceChildren(el("div", { class: "big" }, big), end ? el("div", { class: "end" }, buttons.item(end, "End the encounter")) : "");
  const decisions = byDecision(list);
  $("#gm-decisions").replaceChildren(...(decisions.size ? [el("h3", {}, "Your decisions")] : []),
    ...[...decisions].map(([k, acts], i) => decisionGroup(question(acts), acts, `gm-${i}`, (a) => buttons.item(a))));
}

function question(acts) {
  const w = ((moves && moves.waiting_on) || []).find((x) => x.combatant_id === acts[0].combatant_id);
  const who = nameOf(acts[0].combatant_id);
  return w ? `${who ? `${who}: ` : ""}${w.what}` : `${who || "The GM"} decides`;
}

/** Rulings with free values: those on one combatant go to its row; the rest below the order. */
function rulingsOn(list, cid) {
  return list.filter((a) => a.kind === "gm" && !["RevealCombatant", "RevealRoll"].includes(a.command.type) && (
    a.command.combatant_id === cid || (varies(a, "combatant_id") && a.command.combatant_id !== undefined)));
}
const varies = (a, field) => Boolean(a.parameters && a.parameters.properties && field in a.parameters.properties);

function drawTable(list) {
  const byId = combatants();
  const order = (state.order && state.order.length ? state.order : []).filter((id) => byId[id]);
  const rest = Object.values(byId).sort((x, y) => (x.seq ?? 0) - (y.seq ?? 0)).map((c) => c.id).filter((id) => !order.includes(id));
  $("#table").replaceChildren(order.length || rest.length ? el("ol", { class: "order gm-order", "aria-label": "Order of play" },
    [...order, ...rest].map((id) => row(byId[id], list))) : el("p", { class: "status" }, "Nobody yet: add the combatants."));
}

function row(c, list) {
  const current = c.id === state.turn;
  const out = outOfFight(c, moves);
  const npcMoves = list.filter((a) => a.kind === "move" && a.combatant_id === c.id && a.command.type !== "EndTurn");
  const reveal = list.find((a) => a.command.type === "RevealCombatant" && a.command.combatant_id === c.id);
  const rulings = rulingsOn(list, c.id);
  return el("li", { class: `combatant${current ? " turn" : ""}${out ? " out" : ""}${c.hidden ? " hidden-combatant" : ""}`,
                    "data-combatant": c.id, "aria-current": current ? "true" : null },
    el("div", { class: "row-head" },
      el("strong", { class: "name" }, c.name), " ", el("span", { class: "side" }, `${c.side} · ${c.controller === "player" ? "player" : "NPC"}`),
      c.initiative !== null && c.initiative !== undefined ? el("span", { class: "side" }, ` · initiative ${c.initiative}`) : null,
      c.hidden ? el("span", { class: "badge" }, "hidden") : null,
      out ? el("span", { class: "pill gone" }, "out of the fight") : null),
    el("div", { class: "facts" },
      numbers(c).map(([k, v]) => el("span", { class: "pill" }, `${k} ${v}`)),
      [...conditions(c).values()].map((x) => el("span", { class: "pill cond" }, x))),
    reveal ? buttons.item(reveal, `Reveal ${c.name}`) : null,
    npcMoves.length ? el("div", { class: "npc-moves", role: "group", "aria-label": `${c.name}'s moves` },
      el("h3", {}, `${c.name}'s moves`), npcMoves.map((a) => buttons.item(a))) : null,
    rulings.length ? el("details", { class: "rulings", open: opened && opened.combatant === c.id ? true : null },
      el("summary", {}, `Rulings on ${c.name}`), rulings.map((a) => ruling(a, c.id))) : null);
}

function drawRulings(list) {
  const general = list.filter((a) => a.kind === "gm" && !["RevealCombatant", "RevealRoll"].includes(a.command.type)
    && a.command.combatant_id === undefined);
  $("#rulings-box").hidden = general.length === 0;
  $("#rulings").replaceChildren(...general.map((a) => ruling(a, null)));
}

/** The words of a ruling on `cid`: its own where it is about `cid`, else what its command does. */
function rulingLabel(a, cid) {
  if (!cid || a.command.combatant_id === cid) return a.label;
  const doc = ruleset.commands.find((x) => x.type === a.command.type);
  return doc ? doc.summary.replace(/^The GM /, "").replace(/^(\w)/, (m) => m.toUpperCase()).split(/[.:(]/)[0].trim() : a.label;
}

/** A ruling: one tap where nothing varies; else a small form of what may (its `parameters`),
 * filled in as offered, sent about `cid` (the row's combatant). */
function ruling(a, cid) {
  const label = rulingLabel(a, cid);
  const fixed = cid ? ["type", "combatant_id"] : ["type"];
  const free = Object.keys((a.parameters && a.parameters.properties) || {}).filter((k) => !fixed.includes(k));
  const body = cid ? { ...a.command, combatant_id: cid } : a.command;
  const here = { ...a, id: cid ? `${a.id}:${cid}` : a.id, label, command: body };
  if (!free.length) return buttons.item(here, label);
  const isOpen = opened && opened.id === here.id;
  const f = isOpen ? schemaForm({ ...a.parameters, required: [] }, { combatants: names(state), skip: fixed,
    values: body, idPrefix: `ruling-${a.command.type}` }) : null;
  const refused = buttons.refusal && buttons.refusal.id === here.id;
  return el("div", { class: "act-item ruling" },
    el("button", { type: "button", class: "act gm", "aria-expanded": String(Boolean(isOpen)), "data-focus": `ruling:${here.id}`,
      onclick: () => { opened = isOpen ? null : { id: here.id, combatant: cid }; buttons.refusal = null; show(); } }, label),
    f ? el("form", { class: "dice-entry ruling-form", "aria-label": label, onsubmit: (e) => {
      e.preventDefault();
      let values;
      try { values = f.read(); } catch (err) { buttons.refusal = { id: here.id, label, text: String(err.message || err) }; drawnKey = null; show(); return; }
      buttons.send(here, null, { ...body, ...values }).then(() => {
        if (!buttons.refusal) { opened = null; show(); }
      });
    } }, f.form, el("div", { class: "dice-buttons" }, el("button", { type: "submit", class: "act send" }, "Send"),
      el("button", { type: "button", class: "small", onclick: () => { opened = null; show(); } }, "Cancel")),
    refused ? buttons.refusalNote(here) : null) : (refused ? buttons.refusalNote(here) : null));
}

// ------------------------------------------------------------------ the log

let logTimer = null;
function refreshLog() {
  clearTimeout(logTimer);
  const shown = enc;
  logTimer = setTimeout(() => {
    if (shown !== enc) return;
    renderLog(gm, enc, $("#log"), { retcon: (e) => {
      if (confirm(`Undo everything from version ${e.versions[0]} on?`)) sendBody({ type: "Retcon", to_version: e.versions[0] - 1, reason: "from the log" });
    } }).catch(fail);
    renderTimeline(gm, enc, $("#timeline"));
  }, 50);
}

// ------------------------------------------------------------------ every command (rare cases)

let formsFor = null;
function buildForms() {
  if (formsFor === ruleset.id) return;
  formsFor = ruleset.id;
  $("#command-type").replaceChildren(...ruleset.commands.filter((c) => c.type !== "AddCombatant")
    .map((c) => el("option", { value: c.type }, c.type)));
  fillAddChoices();
  fillAddForm();
  $("#add-sides").replaceChildren(...["party", "enemies", ...new Set(ruleset.examples.map((x) => x.body.side))]
    .filter((v, i, all) => all.indexOf(v) === i).map((v) => el("option", { value: v })));
}

let shownKey = null;
function showCommand() {
  const type = $("#command-type").value;
  shownKey = showCommandForm(ruleset, state, `${type}|${Object.keys(names(state)).join(",")}|${state.turn}`, shownKey,
    state.turn ? { combatant_id: state.turn } : {});
}

async function sendBody(body) {
  try { await gm.command(enc, body); ok(); } catch (err) { fail(err); }
}

async function sendCommand(e) {
  e.preventDefault();
  const said = $("#command-said");
  said.hidden = true;
  let body;
  try { body = { type: $("#command-type").value, ...$("#command-form").read() }; } catch (err) { explain(err, said); return; }
  try { await gm.command(enc, body); } catch (err) { explain(err, said); }
}

// ------------------------------------------------------------------ adding combatants

const keptKey = () => `fracas-kept-${ruleset.id}`;
const kept = () => JSON.parse(localStorage.getItem(keptKey()) || "[]");

function fillAddChoices() {
  const mine = kept();
  $("#add-from").replaceChildren(el("option", { value: "" }, "A blank sheet"),
    el("optgroup", { label: `Examples of ${ruleset.name}` }, ruleset.examples.map((x, i) => el("option", { value: `example:${i}` }, x.label))),
    mine.length ? el("optgroup", { label: "Kept in this browser" }, mine.map((b, i) => el("option", { value: `kept:${i}` },
      `${b.name} (${b.side}, ${b.controller === "player" ? "player" : "NPC"})`))) : "");
}

/** The form as the choice in "Start from" has it: an example, a kept one, or blank. */
function fillAddForm() {
  const from = $("#add-from").value;
  const [what, i] = from.split(":");
  const body = what === "example" ? ruleset.examples[Number(i)].body : what === "kept" ? kept()[Number(i)] : null;
  $("#add-forget").hidden = what !== "kept";
  $("#add-name").value = body ? body.name : "";
  $("#add-side").value = body ? body.side : "party";
  $("#add-controller").value = body ? body.controller : "player";
  $("#add-hidden").checked = Boolean(body && body.hidden);
  $("#add-keep").checked = false;
  sheet = schemaForm(ruleset.sheet_schema, { idPrefix: "sheet", values: (body && body.sheet) || {} });
  $("#sheet-fields").replaceChildren(sheet.form);
}

function forgetKept() {
  const [, i] = $("#add-from").value.split(":");
  const mine = kept();
  mine.splice(Number(i), 1);
  localStorage.setItem(keptKey(), JSON.stringify(mine));
  fillAddChoices();
  fillAddForm();
}

async function addCombatant(e) {
  e.preventDefault();
  const said = $("#add-said");
  let body;
  try {
    body = { name: $("#add-name").value.trim(), side: $("#add-side").value.trim(), controller: $("#add-controller").value,
      hidden: $("#add-hidden").checked, sheet: sheet.read() };
  } catch (err) { explain(err, problem); return; }
  try {
    await gm.addCombatant(enc, body);
    ok();
    if ($("#add-keep").checked) {
      localStorage.setItem(keptKey(), JSON.stringify([...kept().filter((b) => b.name !== body.name), { ...body, hidden: false }]));
      fillAddChoices();
    }
    said.textContent = `${body.name} added${body.hidden ? ", hidden" : ""}.`;
    $("#add-from").value = "";
    fillAddForm();  // a fresh form: the next one is not hidden by mistake
    $("#add-name").focus();
  } catch (err) { fail(err); }
}

// ------------------------------------------------------------------ links for the table

let links = {};       // this encounter's links made in this browser: combatant id (or "spectator") → URL
let consoleLink = null;

/** Where the table reaches this server, as the server's last link said (FRACAS_PUBLIC_URL, or the
 * address `fracas serve --lan` printed): the console's own link is made with it too. */
function learnBase(link, page) {
  if (!link || !link.includes(page)) return;
  const base = link.split(page)[0];
  sessionStorage.setItem("fracas-public-base", base);
  if (consoleLink && enc) consoleLink = `${base}/#enc=${enc}&token=${encodeURIComponent(gm.token)}`;
}
function linkBlock(label, url) {
  const anchor = el("a", { href: url, target: "_blank", rel: "noopener" }, url);
  const said = el("span", { class: "status", role: "status" });
  return el("div", { class: "handout" }, el("p", {}, el("strong", {}, label)),
    el("p", { class: "link" }, anchor),
    el("button", { type: "button", class: "small", onclick: () => copyLink(url, anchor, said) }, `Copy the link for ${label}`),
    said, qrFigure(label, url));
}

/** Copy a link. `navigator.clipboard` exists only on a secure origin (https, or this machine's own
 * address): a table served on plain http over the network (`fracas serve --lan`) has none. There
 * the link's text is selected, and copied where the browser still lets `execCommand("copy")` do it;
 * else the GM copies the selection (Ctrl+C, or the phone's Copy). */
async function copyLink(url, anchor, said) {
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(url); said.textContent = "Copied."; return; } catch { /* below */ }
  }
  const range = document.createRange();
  range.selectNodeContents(anchor);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  let copied = false;
  try { copied = document.execCommand("copy"); } catch { copied = false; }
  said.textContent = copied ? "Copied." : "The link is selected: copy it (Ctrl+C, or Copy on a phone).";
}

/** The link as a QR code for a phone at the table (server/web/vendor: qrcode-generator, a classic script). */
function qrFigure(label, url) {
  if (typeof window.qrcode !== "function") return "";
  const qr = window.qrcode(0, "M");
  qr.addData(url);
  qr.make();
  const id = `qr-${label.replace(/[^A-Za-z0-9]+/g, "-")}`;
  const svg = qr.createSvgTag({ cellSize: 3, margin: 8, scalable: true,
    title: { text: `QR code of the link for ${label}`, id: `${id}-title` } });
  const node = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  node.setAttribute("class", "qr");
  node.setAttribute("role", "img");
  return el("figure", { class: "qr-code" }, node, el("figcaption", {}, `Scan to open the link for ${label}`));
}

let shownLinks = null;
function showLinks() {
  const players = Object.values(combatants()).filter((c) => c.controller === "player");
  const key = JSON.stringify([enc, players.map((c) => [c.id, c.name]), links, consoleLink]);
  if (key === shownLinks) return;  // drawn again only when they change: a selected link stays selected
  shownLinks = key;
  $("#links").replaceChildren(...players.map((c) => links[c.id]
    ? el("div", {}, linkBlock(c.name, links[c.id]),
      el("button", { type: "button", class: "small", onclick: () => playerLink(c) }, `Make a new link for ${c.name}`))
    : el("button", { type: "button", onclick: () => playerLink(c) }, `Make ${c.name}'s player link`)),
  links.spectator ? linkBlock("spectators", links.spectator) : "");
  $("#console-link").replaceChildren(consoleLink ? el("details", {},
    el("summary", {}, "This console on another device (it holds the GM's token: keep it to yourself)"),
    linkBlock("the GM's console", consoleLink)) : "");
}

function keepLinks() { localStorage.setItem(`fracas-links-${enc}`, JSON.stringify(links)); }

/** The links handed out, as the server lists them (after a reload too): each can be revoked. */
async function listTokens() {
  const shown = enc;
  let tokens;
  try { tokens = await gm.tokens(enc); } catch (err) { fail(err); return; }
  if (shown !== enc) return;
  const out = tokens.filter((t) => t.role !== "gm" && !t.revoked_at);
  $("#handed-out").replaceChildren(...(out.length ? [el("h3", {}, "Links handed out"), el("ul", { class: "tokens" }, out.map((t) =>
    el("li", {}, `${t.label || t.role} (${t.role}) `, el("button", { type: "button", class: "small", onclick: () => revoke(t) },
      `Revoke the link of ${t.label || t.role}`))))] : []));
}

async function revoke(t) {
  if (!confirm(`Revoke ${t.label || t.role}'s link? It stops working at once.`)) return;
  try {
    await gm.revokeToken(enc, t.id);
    for (const [k, url] of Object.entries(links)) {
      if ((k === "spectator" && t.role === "spectator") || (t.combatant_ids || []).includes(k)) { if (url) delete links[k]; }
    }
    keepLinks();
    shownLinks = null;
    showLinks();
    listTokens();
  } catch (err) { fail(err); }
}

// the links come from the server: made with its public address (FRACAS_PUBLIC_URL, or the
// address printed by `fracas serve --lan`), which a phone reaches where 127.0.0.1 is not it
async function playerLink(c) {
  try {
    const t = await gm.mintToken(enc, { role: "player", combatant_ids: [c.id], label: `${c.name}'s player` });
    links[c.id] = t.link || `${location.origin}/play#enc=${enc}&me=${c.id}&token=${encodeURIComponent(t.token)}`;
    learnBase(t.link, "/play#enc=");
    keepLinks();
    showLinks();
    listTokens();
  } catch (err) { fail(err); }
}

async function spectatorLink() {
  try {
    const t = await gm.mintToken(enc, { role: "spectator", label: "spectators" });
    links.spectator = t.link || `${location.origin}/watch#enc=${enc}&token=${encodeURIComponent(t.token)}`;
    learnBase(t.link, "/watch#enc=");
    keepLinks();
    showLinks();
    listTokens();
  } catch (err) { fail(err); }
}

start().catch(fail);
