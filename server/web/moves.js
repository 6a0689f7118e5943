// moves.js: the server's next moves as buttons, shared by the player's page and the GM's console.
// Each button is an offered action, labelled in the game's words and sent exactly as offered; a
// reported die is typed into a small entry under the button tapped (with the one more die a
// `dice_missing` refusal asks for), and a refusal is shown right under what was tapped.
import { el } from "./ui.js";

/** The buttons of offered actions for one page. `api`, `enc`: where to send; `state()`: the
 * state as this page has it (its dice policy); `redraw()`: draw the actions again; `done(a)`:
 * after an action was accepted; `fail(err)`: what is not the server's answer (the network). */
export class Moves {
  constructor({ api, enc, state, redraw, done = () => {}, fail = () => {}, tapped = () => {} }) {
    Object.assign(this, { api, enc, state, redraw, done, fail, tapped });
    this.panel = null;    // the dice entry open under an action: { id, extra: {group: n}, missing: [{sides, purpose}] }
    this.refusal = null;  // the last refusal: { id, label, text }, shown under the action tapped
    this.sending = null;  // the id of the action being sent
    this.focusNext = null; // a control to focus once drawn (`data-focus`)
  }

  /** What the buttons' look hangs on besides the actions: the page draws again when it changes. */
  key() { return [this.panel, this.refusal, this.sending]; }

  /** Forget a dice entry whose action is no longer offered. */
  keep(list) {
    if (this.panel && !list.some((a) => a.id === this.panel.id)) this.panel = null;
  }

  /** A refusal of an action no longer offered (the fight moved on meanwhile), said on its own. */
  lost(list) {
    const r = this.refusal;
    return r && !list.some((a) => a.id === r.id)
      ? el("p", { class: "refusal", role: "alert" }, `“${r.label}” was not sent: ${r.text}`) : null;
  }

  /** Draw with `draw` keeping the dice typed so far, then focus what asked to be. */
  drawing(draw) {
    const typed = Object.fromEntries([...document.querySelectorAll(".dice-entry input")].map((i) => [i.id, i.value]));
    draw();
    for (const [id, v] of Object.entries(typed)) { const input = document.getElementById(id); if (input) input.value = v; }
    if (this.focusNext) {
      const target = [...document.querySelectorAll("[data-focus]")].find((n) => n.getAttribute("data-focus") === this.focusNext);
      if (target) target.focus();
      this.focusNext = null;
    }
  }

  takesDice(a) {
    const policy = this.state() && this.state().dice_policy;
    return (policy === "reported" || policy === "mixed") && a.dice && a.dice.length > 0;
  }

  /** One offered action: its button, and under it its dice entry or its refusal. `label`: the
   * button's words where the page says them otherwise (the action's own label by default). */
  item(a, label = a.label) {
    const open = this.panel && this.panel.id === a.id;
    const refused = this.refusal && this.refusal.id === a.id;
    return el("div", { class: "act-item" },
      el("button", {
        type: "button", class: `act ${a.kind}`, "data-focus": `act:${a.id}`, "data-action": a.id,
        "aria-expanded": this.takesDice(a) || open ? String(!!open) : null, "aria-busy": this.sending === a.id ? "true" : null,
        "aria-describedby": refused && !open ? `refused-${a.id}` : null, onclick: () => this.tap(a),
      }, label),
      refused && !open ? this.refusalNote(a) : null,
      open ? this.diceEntry(a) : null);
  }

  refusalNote(a) {
    return el("p", { class: "refusal", role: "alert", id: `refused-${a.id}` }, this.refusal.text);
  }

  tap(a) {
    if (this.sending) return;
    this.refusal = null;
    this.tapped(a);
    if (this.takesDice(a)) {
      this.panel = this.panel && this.panel.id === a.id ? null : { id: a.id, extra: {}, missing: [] };
      if (this.panel) this.focusNext = `die:${a.id}:0:0`;
      this.redraw();
      return;
    }
    this.send(a, null);
  }

  /** Send `body` (the action's command by default) for action `a`, its refusal shown under it. */
  async send(a, faces, body = a.command) {
    this.sending = a.id;
    this.redraw();
    try {
      await this.api.command(this.enc, faces ? { ...body, dice: faces } : body);
      this.panel = null;
      this.refusal = null;
      this.done(a);
    } catch (err) {
      const details = (err.problem && err.problem.details) || {};
      if (err.code === "dice_unused" && faces && Number.isInteger(details.used) && details.used < faces.length && !this.trimmed) {
        // the dice rolled ahead that the fight did not need (a miss rolls no damage): sent again without them
        this.trimmed = true;
        try { return await this.send(a, faces.slice(0, details.used), body); } finally { this.trimmed = false; }
      }
      if (err.code === "dice_missing" && details.needed_sides && this.state().dice_policy !== "seeded") {
        // one more die, hanging on how the others fell: asked for in the same place, then sent again
        if (!this.panel || this.panel.id !== a.id) this.panel = { id: a.id, extra: {}, missing: [] };
        this.panel.missing.push({ sides: details.needed_sides, purpose: details.purpose || "" });
        this.focusNext = `die:${a.id}:m:${this.panel.missing.length - 1}`;
      }
      this.refusal = { id: a.id, label: a.label, text: (err && (err.detail || err.title || err.message)) || String(err) };
      if (!err.status) this.fail(err);  // not the server's answer (the network): said at the top as well
    } finally {
      this.sending = null;
      this.redraw();
    }
  }

  // ---- a reported roll: one field a die, labelled with what it is for ----

  dieField(a, key, label, sides, required = true) {
    const id = `die-${a.id}-${key.replace(/:/g, "-")}`;
    return el("div", { class: "die" },
      el("label", { for: id }, label, " ", el("span", { class: "range" }, `(d${sides}: 1 to ${sides})`)),
      el("input", { id, type: "number", inputmode: "numeric", min: 1, max: sides, step: 1, required,
                    "aria-required": required ? "true" : null, "data-focus": `die:${a.id}:${key}`,
                    "data-die": required ? "face" : "extra" }));
  }

  diceEntry(a) {
    const panel = this.panel;
    const form = el("form", { class: "dice-entry", novalidate: true, "aria-label": `Dice for ${a.label}`,
                              onsubmit: (e) => { e.preventDefault(); this.sendFaces(a, form); } });
    form.append(el("p", { class: "status" }, "Roll, then type what each die shows."));
    // one roll: the listed dice in a row with the same purpose and size (Novus's open 2d10 is one
    // entry of two dice); dice of one purpose are numbered, and an open roll's further dice follow it
    const rolls = [];
    a.dice.forEach((d) => {
      const last = rolls[rolls.length - 1];
      if (last && last.for === d.for && last.sides === d.sides && last.open === d.open) last.count += d.count;
      else rolls.push({ ...d });
    });
    const alike = {};
    for (const r of rolls) alike[r.for] = (alike[r.for] || 0) + r.count;
    const nth = {};
    rolls.forEach((r, g) => {
      const group = el("div", { class: "die-group" });
      for (let i = 0; i < r.count; i++) {
        nth[r.for] = (nth[r.for] || 0) + 1;
        group.append(this.dieField(a, `${g}:${i}`, alike[r.for] > 1 ? `${r.for} (${nth[r.for]} of ${alike[r.for]})` : r.for, r.sides));
      }
      if (r.open) {
        group.append(el("p", { class: "rule" }, openRule(r.sides)));
        const extra = panel.extra[g] || 0;
        for (let j = 0; j < extra; j++) group.append(this.dieField(a, `${g}:x${j}`, `${r.for}: further die ${j + 1}`, r.sides, false));
        group.append(el("button", { type: "button", class: "small", "data-focus": `more:${a.id}:${g}`, onclick: () => {
          panel.extra[g] = extra + 1;
          this.focusNext = `die:${a.id}:${g}:x${extra}`;
          this.redraw();
        } }, `Add a d${r.sides}`));
      }
      form.append(group);
    });
    panel.missing.forEach((m, j) => form.append(this.dieField(a, `m:${j}`, m.purpose ? `One more die: ${m.purpose}` : "One more die", m.sides)));
    form.append(el("div", { class: "dice-buttons" },
      el("button", { type: "submit", class: "act send", "data-focus": `send:${a.id}`, "aria-busy": this.sending === a.id ? "true" : null },
        "Send these dice"),
      this.state().dice_policy === "mixed" ? el("button", { type: "button", class: "act", "data-focus": `server:${a.id}`,
        onclick: () => { if (!this.sending) { this.refusal = null; this.send(a, null); } } }, "Let the server roll") : null,
      el("button", { type: "button", class: "small", onclick: () => {
        this.panel = null; this.refusal = null; this.focusNext = `act:${a.id}`; this.redraw();
      } }, "Cancel")));
    if (this.refusal && this.refusal.id === a.id) form.append(this.refusalNote(a));
    return form;
  }

  sendFaces(a, form) {
    if (this.sending) return;
    const faces = [];
    for (const input of form.querySelectorAll("input[data-die]")) {
      if (input.value.trim() === "") {
        if (input.dataset.die === "extra") continue;
        this.refusal = { id: a.id, label: a.label, text: `Type what the die for “${input.labels[0].firstChild.textContent.trim()}” shows.` };
        this.focusNext = input.getAttribute("data-focus");
        this.redraw(true);
        return;
      }
      faces.push(Number(input.value));
    }
    this.refusal = null;
    this.send(a, faces);
  }
}

function openRule(sides) {
  return `An open roll: each die showing 1 or ${sides} is rolled again, and again while the new die shows `
    + `that same face (a 1 and a ${sides} together among the first dice: no more). Add those dice here, in order.`;
}

/** The offered decisions grouped by what they answer (`decision`, else each alone), in order. */
export function byDecision(list) {
  const out = new Map();
  for (const a of list.filter((x) => x.kind === "decision")) {
    const k = a.decision || a.id;
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(a);
  }
  return out;
}

/** One decision's buttons under its question (not repeated where its one button says it). */
export function decisionGroup(q, acts, i, item) {
  const said = acts.length === 1 && acts[0].label.replace(/\.$/, "") === q.replace(/\.$/, "");
  return el("div", { class: "prompt", role: "group", "aria-label": said ? q : null, "aria-labelledby": said ? null : `q-${i}` },
    said ? null : el("p", { class: "question", id: `q-${i}` }, q), acts.map(item));
}
