// ui.js: what the three pages share: reading the link, forms built from JSON Schemas, the
// combatants' cards, the log, presence and refusals. Talks to the server only via fracas-client.js.
import { Fracas } from "./fracas-client.js";

export const $ = (sel, root = document) => root.querySelector(sel);

/** Make an element: el("button", {type: "button", onclick}, "text", child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** Run `draw` (which rebuilds part of the page) and give the focus back to the control that had it,
 * by its `data-focus` key: a live update must not take a keyboard user's place away. */
export function keepingFocus(draw) {
  const had = document.activeElement && document.activeElement.getAttribute("data-focus");
  draw();
  if (!had) return;
  const again = [...document.querySelectorAll("[data-focus]")].find((n) => n.getAttribute("data-focus") === had);
  if (again && again !== document.activeElement) again.focus();
}

/** `#enc=...&token=...` of the page's URL: the fragment never reaches the server. */
export function fragment() {
  return Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
}

export function client(token) {
  return new Fracas("", token || null);
}

/** Say a refusal as the server explained it (its problem `detail`), where the user will read it. */
export function explain(err, where) {
  const text = err && (err.detail || err.title || err.message) || String(err);
  where.textContent = text;
  where.hidden = false;
  return text;
}

const ID_FIELD = /(^|_)(combatant_id|target|target_id|attacker|attacker_id|defender|defender_id|by|who|combatant)$/;
const IDS_FIELD = /(combatant_ids|targets|target_ids)$/;

function resolve(schema, defs) {
  let s = schema || {};
  while (s.$ref) s = defs[s.$ref.split("/").pop()] || {};
  return s;
}

function optionalBranch(s, defs) {
  if (Array.isArray(s.anyOf)) {
    const rest = s.anyOf.map((x) => resolve(x, defs)).filter((x) => x.type !== "null");
    if (rest.length === 1) return { schema: rest[0], nullable: true };
  }
  return { schema: s, nullable: false };
}

/** A form for one JSON Schema object (a command, a sheet): one labelled control a field.
 * `combatants` ({id: name}) fills the fields that name a combatant. Returns {form, read}. */
export function schemaForm(jsonSchema, { combatants = {}, skip = ["type"], values = {}, idPrefix = "f" } = {}) {
  const defs = jsonSchema.$defs || {};
  const root = resolve(jsonSchema, defs);
  const required = new Set(root.required || []);
  const fields = [];
  const box = el("div", { class: "fields" });
  for (const [name, raw] of Object.entries(root.properties || {})) {
    if (skip.includes(name)) continue;
    const { schema, nullable } = optionalBranch(resolve(raw, defs), defs);
    const id = `${idPrefix}-${name}`;
    const label = el("label", { for: id }, name.replace(/_/g, " "), required.has(name) ? " *" : "");
    let control;
    let read;
    const initial = name in values ? values[name] : raw.default;
    if (ID_FIELD.test(name) && (schema.type === "string" || !schema.type)) {
      control = el("select", { id, name },
        el("option", { value: "" }, "—"),
        Object.entries(combatants).map(([cid, cname]) => el("option", { value: cid, selected: initial === cid }, cname)));
      read = () => control.value || undefined;
    } else if (IDS_FIELD.test(name) && schema.type === "array") {
      control = el("select", { id, name, multiple: true },
        Object.entries(combatants).map(([cid, cname]) => el("option", { value: cid }, cname)));
      read = () => { const v = [...control.selectedOptions].map((o) => o.value); return v.length ? v : undefined; };
    } else if (Array.isArray(schema.enum)) {
      control = el("select", { id, name },
        (!required.has(name)) && el("option", { value: "" }, "—"),
        schema.enum.map((v) => el("option", { value: JSON.stringify(v), selected: initial === v }, String(v))));
      read = () => (control.value === "" ? undefined : JSON.parse(control.value));
    } else if (schema.type === "boolean") {
      control = el("input", { id, name, type: "checkbox", checked: initial === true });
      read = () => (control.checked ? true : (required.has(name) ? false : undefined));
    } else if (schema.type === "integer" || schema.type === "number") {
      control = el("input", { id, name, type: "number", inputmode: "numeric", min: schema.minimum, max: schema.maximum,
                              value: typeof initial === "number" ? initial : "" });
      read = () => (control.value === "" ? undefined : Number(control.value));
    } else if (schema.type === "string") {
      control = el("input", { id, name, type: "text", value: typeof initial === "string" ? initial : "" });
      read = () => (control.value === "" ? undefined : control.value);
    } else if (schema.properties && !schema.additionalProperties && !(nullable && (initial === null || initial === undefined))) {
      // an object of named fields (a sheet's attributes): its own fields, in a group
      const inner = schemaForm({ ...schema, $defs: defs }, { combatants, skip: [], idPrefix: id,
        values: initial && typeof initial === "object" ? initial : {} });
      fields.push([name, () => { const v = inner.read(); return Object.keys(v).length ? v : undefined; }, nullable]);
      box.append(el("fieldset", { class: "field group" }, el("legend", {}, name.replace(/_/g, " ")), inner.form));
      continue;
    } else {
      const shown = initial === undefined || initial === null ? "" : JSON.stringify(initial);
      control = el("textarea", { id, name, rows: 2, placeholder: "JSON" }, shown);
      read = () => (control.value.trim() === "" ? undefined : JSON.parse(control.value));
    }
    fields.push([name, read, nullable]);
    box.append(el("div", { class: "field" }, label, control,
      schema.description || raw.description ? el("small", {}, (schema.description || raw.description).split("\n")[0]) : null));
  }
  return {
    form: box,
    read() {
      const out = {};
      for (const [name, read] of fields) {
        const v = read();
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
  };
}

/** The combatants by id → name, as this viewer's state has them (hidden ones are absent for
 * players and spectators: the server leaves them out). */
export function names(state) {
  return Object.fromEntries(Object.values(state.combatants || {}).map((c) => [c.id, c.name]));
}

// ---- a combatant's numbers and conditions, in the state's own words

const flat = (x) => (Array.isArray(x) ? x : []);
const words = (k) => k.replace(/_/g, " ");
// the sheet's numbers that tell how a combatant is faring (the rulesets' own field names)
const TOLL = ["hits", "injuries", "trauma", "wounds", "stress", "fatigue", "harm", "health", "energy", "hit_points",
  "hero_points", "mere"];
// the sheet's flags that are conditions, and those that put a combatant out of the fight
const FLAGS = ["prone", "in_cover", "wounded", "dying", "dead", "unconscious", "helpless", "coma", "fled"];
const OUT = new Set(["dying", "dead", "unconscious", "helpless", "coma", "fled", "helpless for fight"]);

/** Resources and health as the state has them: [label, value] (a value out of its maximum as "5/8"). */
export function numbers(c) {
  const out = [];
  const seen = new Set();
  const put = (label, value) => {
    if (seen.has(label.toLowerCase())) return;
    seen.add(label.toLowerCase());
    out.push([label, value]);
  };
  if (typeof c.action_points === "number") put("AP", c.action_points);
  for (const [k, v] of Object.entries(c.resources || {})) if (typeof v === "number") put(k, v);
  const s = c.sheet || {};
  const num = (k) => typeof s[k] === "number";
  const done = new Set();
  for (const k of TOLL) {
    if (done.has(k) || !num(k)) continue;
    if (num(`current_${k}`)) { put(words(k), `${s[`current_${k}`]}/${s[k]}`); done.add(`current_${k}`); }
    else if (num(`maximum_${k}`)) put(words(k), `${s[k]}/${s[`maximum_${k}`]}`);
    else if (k === "hits" && num("hit_points")) { put(words(k), `${s.hits}/${s.hit_points}`); done.add("hit_points"); }
    else put(words(k), s[k]);
    done.add(k);
  }
  return out;
}

/** Conditions as the state names them, each once whatever its case ("Dead" and dead are one). */
export function conditions(c) {
  const s = c.sheet || {};
  const out = new Map();
  const add = (x) => {
    const name = typeof x === "string" ? x : (x && typeof x === "object" ? (x.name || x.condition || x.status) : null);
    if (typeof name !== "string" || !name.trim()) return;
    const said = words(name.trim());
    if (!out.has(said.toLowerCase())) out.set(said.toLowerCase(), said + lasting(x));
  };
  for (const k of ["conditions", "statuses", "injuries"]) [...flat(s[k]), ...flat(c[k])].forEach(add);
  for (const f of FLAGS) if (s[f] === true || c[f] === true) add(words(f));
  if (s.helpless_for_fight === true) add("helpless");
  return out;
}

/** How long a condition lasts, where the state says (a Status Effect's `lasts` and `turns`). */
function lasting(x) {
  if (!x || typeof x !== "object") return "";
  if (x.lasts === "turns" && Number.isInteger(x.turns)) return ` (${x.turns} turn${x.turns === 1 ? "" : "s"} left)`;
  if (x.lasts === "end_of_round") return " (this round)";
  return "";
}

/** Whether the rules count `c` out of the fight: the server says so in the next moves
 * (`out_of_fight`); before they have come, a condition that puts anyone out (dead, dying...). */
export function outOfFight(c, moves) {
  if (moves && Array.isArray(moves.out_of_fight)) return moves.out_of_fight.includes(c.id);
  return [...conditions(c).keys()].some((k) => OUT.has(k));
}

/** The order of play and each combatant's card (whose turn, resources, conditions). */
export function renderTable(state, where, { extra } = {}) {
  const byId = state.combatants || {};
  const order = (state.order && state.order.length ? state.order : Object.keys(byId)).filter((id) => byId[id]);
  const turn = state.turn;
  where.replaceChildren(
    el("p", { class: "round" }, `Round ${state.round ?? 0}`, " · ", state.status || "",
      turn && byId[turn] ? ` · ${byId[turn].name}'s turn` : ""),
    el("ol", { class: "order", "aria-label": "Order of play" },
      order.map((id) => {
        const c = byId[id];
        return el("li", { class: `combatant${id === turn ? " turn" : ""}${c.hidden ? " hidden-combatant" : ""}`,
                          "data-combatant": id, "aria-current": id === turn ? "true" : null },
          el("strong", {}, c.name), " ", el("span", { class: "side" }, `(${c.side})`),
          c.hidden ? el("span", { class: "badge" }, "hidden") : null,
          el("span", { class: "res" }, numbers(c).map(([k, v]) => el("span", { class: "pill" }, `${k} ${v}`))),
          el("span", { class: "cond" }, [...conditions(c).values()].map((x) => el("span", { class: "pill cond" }, x))),
          extra ? extra(c) : null);
      })));
}

/** Who is connected, as the server lets this viewer see it. */
export function renderPresence(presence, where) {
  if (!presence) { where.textContent = "Connected: nobody else"; return; }
  const parts = [];
  const roles = presence.roles || presence.counts || {};
  for (const [role, n] of Object.entries(roles)) parts.push(`${n} ${role}${n === 1 ? "" : "s"}`);
  if (Array.isArray(presence.connections)) {
    for (const c of presence.connections) parts.push(c.label || c.role);
  }
  where.textContent = `Connected: ${parts.length ? parts.join(", ") : JSON.stringify(presence)}`;
}

/** The readable log, newest last. An answer older than the log shown (two reads crossed) is dropped. */
export async function renderLog(api, enc, where, { retcon } = {}) {
  const log = await api.log(enc);
  if (Number(where.dataset.version || -1) > log.version) return;
  where.dataset.version = String(log.version);
  where.replaceChildren(...log.entries.map((e) => el("li", { class: e.undone ? "undone" : "" },
    el("span", { class: "v" }, `v${e.versions.join(",")}`), " ", e.sentence,
    retcon && !e.undone && e.versions[0] > 1 ? el("button", { type: "button", class: "small",
      "aria-label": `Retcon version ${e.versions[0]}`, onclick: () => retcon(e) }, "Retcon") : null)));
  where.scrollTop = where.scrollHeight;
}

/** The timeline, inline, where the server draws one; nothing at all where it does not (404).
 * Below it, a link that opens it alone in a tab (the token as `?token=`: a tab sends no header). */
export async function renderTimeline(api, enc, where) {
  const svg = await api.timeline(enc);
  const section = where.closest("section") || where;
  section.hidden = !svg;  // no timeline route on this server (404): nothing shown, no error
  if (!svg) { where.hidden = true; return; }
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  const node = doc.documentElement;
  if (node.nodeName !== "svg") { where.hidden = true; return; }
  for (const s of node.querySelectorAll("script")) s.remove();
  where.replaceChildren(document.importNode(node, true));
  where.hidden = false;
  let tab = section.querySelector("a.timeline-tab");
  if (!tab) {
    tab = el("a", { class: "timeline-tab", target: "_blank", rel: "noopener noreferrer" }, "Open the timeline in a new tab");
    where.after(el("p", {}, tab));
  }
  tab.href = api.timelineUrl(enc);  // the GM may run another encounter, with another token
}

/** A prompt's buttons: one tap answers, each choice with its cost. */
export function renderPrompt(prompt, state, onAnswer) {
  const who = prompt.combatant_id && state && state.combatants && state.combatants[prompt.combatant_id];
  const choices = prompt.choices && prompt.choices.length ? prompt.choices : [null];
  return el("div", { class: "prompt", role: "group", "aria-label": prompt.summary || prompt.kind, "data-prompt": prompt.id },
    el("p", {}, el("strong", {}, who ? `${who.name}: ` : ""), prompt.summary || `${prompt.kind}${prompt.stage ? ` (${prompt.stage})` : ""}`),
    choices.map((ch) => el("button", { type: "button", class: "choice", onclick: () => onAnswer(prompt, ch) },
      ch ? ch.name : prompt.command, ch && ch.action_points ? ` (${ch.action_points} AP)` : "")));
}

/** The form of the command picked in ``#command-type``, from its schema, into ``#command-fields``;
 * rebuilt only when ``key`` (the command, the combatants, ...) changes: never under the user's typing.
 * ``values``: the fields filled in. Returns the key shown now. */
export function showCommandForm(ruleset, state, key, shownKey, values) {
  if (key === shownKey) return shownKey;
  const type = $("#command-type").value;
  const doc = ruleset.commands.find((c) => c.type === type);
  if (!doc) return key;
  $("#command-summary").textContent = doc.summary;
  const f = schemaForm(doc.json_schema, { combatants: names(state), idPrefix: `cmd-${type}`, values });
  $("#command-fields").replaceChildren(f.form);
  $("#command-form").read = f.read;
  return key;
}
