// A player's page, from the GM's link (`/play#enc=...&token=...`): their character, what the
// table sees of the others, the decisions waiting for them as one-tap buttons with their costs,
// the commands they may send, the log as they may read it (a retconned entry struck through, a
// secret roll once the GM reveals it); a refusal is shown with the server's own explanation.
import { answer } from "./fracas-client.js";
import { $, el, fragment, client, explain, showCommandForm, names, renderTable, renderPresence, renderLog, renderTimeline,
  renderPrompt } from "./ui.js";

const { enc, token, me: myId } = fragment();
const api = client(token);
const problem = $("#problem");
let state = null;
let ruleset = null;
let live = null;

const fail = (err) => explain(err, problem);
const ok = () => { problem.hidden = true; };

async function start() {
  if (!enc || !token) { fail({ detail: "This page needs the link your GM gave you." }); return; }
  state = await api.state(enc);
  ruleset = await api.ruleset(state.ruleset);
  $("#title").textContent = `${state.name}`;
  // only what a player may send (the ruleset's `senders`), for their own combatant
  const cmds = ruleset.commands.filter((c) => c.senders.includes("player"));
  $("#command-type").replaceChildren(...cmds.map((c) => el("option", { value: c.type }, c.type)));
  $("#command-type").addEventListener("change", showCommand);
  $("#command-form").addEventListener("submit", send);
  show();
  refresh();
  live = api.live(enc, {
    onState: (s) => { state = s; show(); },
    onPrompt: () => showPrompts(),
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
  renderTable(state, $("#table"));
  const me = (state.combatants || {})[myId];
  $("#me").replaceChildren(me ? el("div", {}, el("p", {}, el("strong", {}, me.name), ` (${me.side})`),
    el("details", {}, el("summary", {}, "Sheet"), el("pre", {}, JSON.stringify(me.sheet, null, 1)))) : "");
  showCommand();
  showPrompts();
}

let shownKey = null;
function showCommand() {
  const type = $("#command-type").value;
  const doc = ruleset.commands.find((c) => c.type === type);
  shownKey = showCommandForm(ruleset, state, `${type}|${Object.keys(names(state)).join(",")}`, shownKey,
    doc && doc.actor_field ? { [doc.actor_field]: myId } : {});
}

// drawn again only when what they show changes: a live update keeps the focus of a keyboard user
let shownPrompts = null;
function showPrompts() {
  const prompts = live ? [...live.prompts.values()] : [];
  const key = JSON.stringify([prompts, names(state)]);
  if (key === shownPrompts) return;
  shownPrompts = key;
  $("#prompts").replaceChildren(...(prompts.length ? prompts.map((p) => renderPrompt(p, state, async (prompt, choice) => {
    try { await api.command(enc, answer(prompt, choice)); live.prompts.delete(prompt.id); ok(); showPrompts(); } catch (err) { fail(err); }
  })) : [el("p", { class: "status" }, "Nothing waits for you.")]));
}

async function send(e) {
  e.preventDefault();
  try {
    await api.command(enc, { type: $("#command-type").value, ...$("#command-form").read() });
    ok();
  } catch (err) { fail(err); }
}

start().catch(fail);
