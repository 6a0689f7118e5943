// The GM's console: open or list encounters, add combatants from the sheet schema, hand out
// player and spectator links, run the fight with every command of the ruleset, answer the
// decisions waiting for the GM, Retcon from the log, reveal hidden combatants and secret rolls.
import { answer } from "./fracas-client.js";
import { $, el, fragment, client, explain, schemaForm, showCommandForm, names, renderTable, renderPresence, renderLog, renderTimeline,
  renderPrompt, keepingFocus } from "./ui.js";

const problem = $("#problem");
let operator = sessionStorage.getItem("fracas-operator") || null;
let gm = null;
let enc = null;
let ruleset = null;
let state = null;
let live = null;
let sheet = null;

function fail(err) { explain(err, problem); }
function ok() { problem.hidden = true; }

async function listEncounters() {
  const api = client(operator);
  try {
    const listed = await api.encounters();
    $("#operator-form").hidden = true;
    const items = listed.encounters || listed.items || listed;
    $("#encounter-list").replaceChildren(...(Array.isArray(items) ? items : []).map((e) => {
      const id = e.id || e.encounter_id;
      const saved = localStorage.getItem(`fracas-gm-${id}`);
      return el("li", {}, `${e.name} (${e.ruleset}, ${e.status || ""}) `,
        saved ? el("button", { type: "button", class: "small", onclick: () => run(id, saved) }, "Run") :
          el("span", { class: "status" }, "GM token needed below"));
    }));
  } catch (err) {
    if (err.status === 401 || err.status === 403) {
      $("#operator-form").hidden = false;
      if (operator) fail(err);
    } else fail(err);
  }
}

async function start() {
  const rulesets = await client().rulesets();
  $("#open-ruleset").replaceChildren(...rulesets.map((r) => el("option", { value: r.id }, r.name)));
  const policies = async () => {
    const r = await client().ruleset($("#open-ruleset").value);
    const chosen = $("#open-dice").value;  // a choice made while the list loaded stays, where still offered
    $("#open-dice").replaceChildren(...r.dice_policies.map((p) => el("option", { value: p, selected: p === chosen }, p)));
  };
  $("#open-ruleset").addEventListener("change", () => policies().catch(fail));
  await policies();
  $("#operator-form").addEventListener("submit", (e) => {
    e.preventDefault();
    operator = $("#operator-key").value;
    sessionStorage.setItem("fracas-operator", operator);
    listEncounters();
  });
  $("#open-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const opened = await client(operator).openEncounter($("#open-ruleset").value, $("#open-name").value,
        { dice_policy: $("#open-dice").value });
      localStorage.setItem(`fracas-gm-${opened.encounter_id}`, opened.gm_token.token);
      learnBase(opened.gm_token.link, "/#enc=");
      ok();
      await run(opened.encounter_id, opened.gm_token.token);
    } catch (err) { fail(err); }
  });
  $("#resume-form").addEventListener("submit", (e) => {
    e.preventDefault();
    run($("#resume-enc").value.trim(), $("#resume-token").value.trim());
  });
  $("#add-form").addEventListener("submit", addCombatant);
  $("#command-form").addEventListener("submit", sendCommand);
  $("#command-type").addEventListener("change", showCommand);
  $("#spectator-link").addEventListener("click", spectatorLink);
  await listEncounters();
  // the console's own link (`#enc=...&token=...`, the answer to opening an encounter: on another
  // device), or `#enc=...` where this browser keeps that encounter's GM token
  const { enc: linked, token: given } = fragment();
  const kept = linked && localStorage.getItem(`fracas-gm-${linked}`);
  if (linked && (given || kept)) run(linked, given || kept);
}

async function run(id, token) {
  if (id !== enc) links = {};  // another encounter: its own links
  gm = client(token);
  enc = id;
  try {
    state = await gm.state(enc);
    ruleset = await gm.ruleset(state.ruleset);
  } catch (err) { fail(err); return; }
  ok();
  localStorage.setItem(`fracas-gm-${enc}`, token);
  history.replaceState(null, "", `#enc=${enc}`);  // the token leaves the address bar (and the history)
  consoleLink = `${sessionStorage.getItem("fracas-public-base") || location.origin}/#enc=${enc}&token=${encodeURIComponent(token)}`;
  $("#fight").hidden = false;
  $("#fight-title").textContent = `${state.name} (${ruleset.name})`;
  $("#command-type").replaceChildren(...ruleset.commands.filter((c) => c.type !== "AddCombatant")
    .map((c) => el("option", { value: c.type }, c.type)));
  sheet = schemaForm(ruleset.sheet_schema, { idPrefix: "sheet" });
  $("#sheet-fields").replaceChildren(sheet.form);
  show();
  showCommand();
  if (live) live.close();
  live = gm.live(enc, {
    onState: (s) => { state = s; show(); },
    onEvent: () => { refreshLog(); },
    onPrompt: () => showPrompts(),
    onPresence: (p) => renderPresence(p, $("#presence")),
    onStatus: (s) => { $("#live-status").textContent = `Live: ${s}`; },
    onError: (m) => fail(m),
  });
}

function show() {
  keepingFocus(() => {
    renderTable(state, $("#table"), {
      extra: (c) => c.hidden ? el("button", { type: "button", class: "small", "data-focus": `reveal:${c.id}`,
        onclick: () => send({ type: "RevealCombatant", combatant_id: c.id }) }, `Reveal ${c.name}`) : null,
    });
    const secret = state.secret_versions || [];
    $("#secret-rolls").replaceChildren(...secret.map((v) => el("button", { type: "button", class: "small",
      "data-focus": `roll:${v}`, onclick: () => send({ type: "RevealRoll", version: v }) }, `Reveal the secret roll of v${v}`)));
  });
  showLinks();
  showPrompts();
  refreshLog();
}

// drawn again only when what they show changes: a live update keeps the focus of a keyboard user
let shownPrompts = null;
function showPrompts() {
  const prompts = live ? [...live.prompts.values()] : [];
  const key = JSON.stringify([prompts, names(state)]);
  if (key === shownPrompts) return;
  shownPrompts = key;
  $("#prompts").replaceChildren(...prompts.map((p) => renderPrompt(p, state, (prompt, choice) => send(answer(prompt, choice)))));
}

let logTimer = null;
function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(() => {
    renderLog(gm, enc, $("#log"), { retcon: (e) => {
      if (confirm(`Undo everything from version ${e.versions[0]} on?`)) send({ type: "Retcon", to_version: e.versions[0] - 1, reason: "from the log" });
    } }).catch(fail);
    renderTimeline(gm, enc, $("#timeline"));
  }, 50);
}

let shownKey = null;
function showCommand() {
  const type = $("#command-type").value;
  shownKey = showCommandForm(ruleset, state, `${type}|${Object.keys(names(state)).join(",")}|${state.turn}`, shownKey,
    state.turn ? { combatant_id: state.turn } : {});
}

async function send(body) {
  try {
    await gm.command(enc, body);
    ok();
  } catch (err) { fail(err); }
}

async function sendCommand(e) {
  e.preventDefault();
  let body;
  try { body = { type: $("#command-type").value, ...$("#command-form").read() }; } catch (err) { fail(err); return; }
  await send(body);
}

async function addCombatant(e) {
  e.preventDefault();
  let sheetBody;
  try { sheetBody = sheet.read(); } catch (err) { fail(err); return; }
  try {
    await gm.addCombatant(enc, { name: $("#add-name").value, side: $("#add-side").value,
      controller: $("#add-controller").value, hidden: $("#add-hidden").checked, sheet: sheetBody });
    ok();
    $("#add-name").value = "";
  } catch (err) { fail(err); }
}

let links = {};
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
  const players = Object.values(state.combatants || {}).filter((c) => c.controller === "player");
  const key = JSON.stringify([enc, players.map((c) => [c.id, c.name]), links, consoleLink]);
  if (key === shownLinks) return;  // drawn again only when they change: a selected link stays selected
  shownLinks = key;
  $("#links").replaceChildren(...players.map((c) => links[c.id] ? linkBlock(c.name, links[c.id]) :
    el("button", { type: "button", onclick: () => playerLink(c) }, `Make ${c.name}'s player link`)),
    links.spectator ? linkBlock("spectators", links.spectator) : "");
  $("#console-link").replaceChildren(consoleLink ? el("details", {},
    el("summary", {}, "This console on another device (it holds the GM's token: keep it to yourself)"),
    linkBlock("the GM's console", consoleLink)) : "");
}

// the links come from the server: made with its public address (FRACAS_PUBLIC_URL, or the
// address printed by `fracas serve --lan`), which a phone reaches where 127.0.0.1 is not it
async function playerLink(c) {
  try {
    const t = await gm.mintToken(enc, { role: "player", combatant_ids: [c.id], label: `${c.name}'s player` });
    links[c.id] = t.link || `${location.origin}/play#enc=${enc}&me=${c.id}&token=${encodeURIComponent(t.token)}`;
    learnBase(t.link, "/play#enc=");
    showLinks();
  } catch (err) { fail(err); }
}

async function spectatorLink() {
  try {
    const t = await gm.mintToken(enc, { role: "spectator", label: "spectators" });
    links.spectator = t.link || `${location.origin}/watch#enc=${enc}&token=${encodeURIComponent(t.token)}`;
    learnBase(t.link, "/watch#enc=");
    showLinks();
  } catch (err) { fail(err); }
}

start().catch(fail);
