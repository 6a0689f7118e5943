// fracas-client.js: the Fracas API from a browser or a VTT module (Foundry, Owlbear Rodeo).
// One plain ES module, no dependencies, no build step: `import { Fracas } from ".../fracas-client.js"`.
// REST calls carry the bearer token, an Idempotency-Key kept across retries, and If-Match when
// asked; `live()` follows /encounters/{id}/live over a WebSocket, applies the state patches and
// resumes after a dropped connection from the last version seen (`after=`), so nothing is missed.

/** An RFC 9457 problem the server answered with (`status`, `code`, `title`, `detail`). */
export class ProblemError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.name = "ProblemError";
    this.status = status;
    this.code = problem && problem.code;
    this.title = problem && problem.title;
    this.detail = problem && problem.detail;
    this.problem = problem || {};
  }
}

function unescapePointer(part) {
  return part.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Apply a JSON Patch (RFC 6902 `add`, `remove`, `replace`, as projections/patch.py makes them)
 * to `doc`, returning the new document; `doc` itself is left as it was. */
export function applyPatch(doc, ops) {
  let root = structuredClone(doc);
  for (const op of ops) {
    if (op.path === "") {
      if (op.op === "remove") root = null;
      else root = structuredClone(op.value);
      continue;
    }
    const parts = op.path.split("/").slice(1).map(unescapePointer);
    const last = parts.pop();
    let parent = root;
    for (const p of parts) {
      if (parent === null || typeof parent !== "object" || !(p in parent)) {
        throw new Error(`patch path ${op.path} is not in the state`);
      }
      parent = parent[p];
    }
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (op.op === "add") parent.splice(index, 0, structuredClone(op.value));
      else if (op.op === "remove") parent.splice(index, 1);
      else if (op.op === "replace") parent[index] = structuredClone(op.value);
      else throw new Error(`unsupported patch op ${op.op}`);
    } else {
      if (op.op === "add" || op.op === "replace") parent[last] = structuredClone(op.value);
      else if (op.op === "remove") delete parent[last];
      else throw new Error(`unsupported patch op ${op.op}`);
    }
  }
  return root;
}

function newKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client of one Fracas server, acting with one token (or none). */
export class Fracas {
  /** @param {string} base the server's URL ("" for the page's own server) @param {string|null} token */
  constructor(base = "", token = null, { retries = 3 } = {}) {
    this.base = base.replace(/\/$/, "");
    this.token = token;
    this.retries = retries;
  }

  withToken(token) {
    return new Fracas(this.base, token, { retries: this.retries });
  }

  /** One request; JSON in and out. Writes get an Idempotency-Key kept across retries (a retry
   * never records a command twice); 429 and 503 with Retry-After are waited out. */
  async request(method, path, { body, ifMatch, idempotencyKey, accept } = {}) {
    const headers = { accept: accept || "application/json" };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    if (method !== "GET" && method !== "DELETE") headers["idempotency-key"] = idempotencyKey || newKey();
    if (ifMatch !== undefined && ifMatch !== null) headers["if-match"] = `"${ifMatch}"`;
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await fetch(this.base + path, {
          method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        if (attempt >= this.retries) throw err;
        await sleep(200 * 2 ** attempt);
        continue;
      }
      const wait = response.headers.get("retry-after");
      if ((response.status === 429 || response.status === 503) && wait && attempt < this.retries) {
        await sleep(Math.min(Number(wait) || 1, 10) * 1000);
        continue;
      }
      if (response.status === 204) return null;
      const type = response.headers.get("content-type") || "";
      const payload = type.includes("json") ? await response.json() : await response.text();
      if (!response.ok) throw new ProblemError(response.status, typeof payload === "object" ? payload : { detail: payload });
      return payload;
    }
  }

  get(path) { return this.request("GET", path); }
  post(path, body, options = {}) { return this.request("POST", path, { ...options, body }); }

  rulesets() { return this.get("/rulesets"); }
  ruleset(id) { return this.get(`/rulesets/${encodeURIComponent(id)}`); }
  encounters() { return this.get("/encounters"); }
  openEncounter(ruleset, name, extra = {}) { return this.post("/encounters", { ruleset, name, ...extra }); }
  state(enc) { return this.get(`/encounters/${enc}`); }
  /** What the fight waits on and this token's next moves: each action's `command` is sent as it is. */
  actions(enc) { return this.get(`/encounters/${enc}/actions`); }
  log(enc) { return this.get(`/encounters/${enc}/log`); }
  events(enc, after = 0, limit = 100) { return this.get(`/encounters/${enc}/events?after=${after}&limit=${limit}`); }
  addCombatant(enc, combatant) { return this.post(`/encounters/${enc}/combatants`, combatant); }
  /** Send a command; `ifMatch` (a version) makes it refused with 412 if the fight moved on. */
  command(enc, body, { ifMatch } = {}) { return this.post(`/encounters/${enc}/commands`, body, { ifMatch }); }
  mintToken(enc, body) { return this.post(`/encounters/${enc}/tokens`, body); }
  tokens(enc) { return this.get(`/encounters/${enc}/tokens`); }
  /** Revoke a token: its link stops working at once (its live streams are closed). */
  revokeToken(enc, id) { return this.request("DELETE", `/encounters/${enc}/tokens/${id}`); }

  /** The fight's timeline as SVG text, or null where the server has no such route (404). */
  async timeline(enc) {
    const headers = this.token ? { authorization: `Bearer ${this.token}` } : {};
    try {
      const response = await fetch(`${this.base}/encounters/${enc}/timeline.svg`, { headers });
      if (!response.ok || !(response.headers.get("content-type") || "").includes("image/svg+xml")) return null;
      return await response.text();
    } catch {
      return null;
    }
  }

  /** The timeline's address with this token as `?token=` (checked as the header is, never logged):
   * a link a browser tab opens, which sends no header. */
  timelineUrl(enc) {
    const token = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${this.base}/encounters/${enc}/timeline.svg${token}`;
  }

  /** Follow the encounter live; see `LiveEncounter`. */
  live(enc, handlers = {}, options = {}) {
    const stream = new LiveEncounter(this, enc, handlers, options);
    stream.connect();
    return stream;
  }
}

/** The live stream of one encounter, kept up: the caller's state (patches applied), every event
 * once and in order, the prompts, the next moves (`actions`: what the fight waits on and what this
 * token may send now), who is connected. Reconnects by itself with `after=` the last version
 * received. Handlers: onState(state, version), onEvent(event), onPrompt(prompt), onActions(actions),
 * onPresence(presence), onStatus("connecting"|"open"|"closed"|"reconnecting", detail), onError(message). */
export class LiveEncounter {
  constructor(client, enc, handlers = {}, { after = 0, reconnectMs = 1000, WebSocketImpl } = {}) {
    this.client = client;
    this.enc = enc;
    this.handlers = handlers;
    this.after = after;
    this.stateVersion = null;
    this.state = null;
    this.presence = null;
    this.prompts = new Map();
    this.actions = null;  // the next moves: { version, over, waiting_on, actions }
    this.actionsVersion = null;
    this.reconnectMs = reconnectMs;
    this.WebSocketImpl = WebSocketImpl || globalThis.WebSocket;
    this.closed = false;
    this.socket = null;
    this.dropping = null;  // the socket being closed to resync: what it still delivers is dropped
  }

  url() {
    const base = this.client.base || `${location.protocol}//${location.host}`;
    const ws = base.replace(/^http/, "ws");
    const token = this.client.token ? `&token=${encodeURIComponent(this.client.token)}` : "";
    return `${ws}/encounters/${this.enc}/live?after=${this.after}&batch=true${token}`;
  }

  emit(name, ...args) {
    const fn = this.handlers[name];
    if (fn) fn(...args);
  }

  connect() {
    this.emit("onStatus", "connecting");
    const socket = new this.WebSocketImpl(this.url());
    this.socket = socket;
    socket.onopen = () => this.emit("onStatus", "open");
    // `batch=true`: each frame is a JSON array, the messages of one batch (a lone message is taken too)
    socket.onmessage = (m) => {
      const data = JSON.parse(m.data);
      for (const msg of Array.isArray(data) ? data : [data]) {
        if (this.socket !== socket || this.dropping === socket) return;  // resyncing: the rest comes again
        this.receive(msg);
      }
    };
    socket.onclose = (e) => {
      if (this.socket !== socket) return;
      this.socket = null;
      const fatal = e && [4401, 4403, 4400].includes(e.code);
      if (this.closed || fatal) {
        this.emit("onStatus", "closed", e && e.reason);
        return;
      }
      this.emit("onStatus", "reconnecting", e && e.reason);
      setTimeout(() => { if (!this.closed) this.connect(); }, this.reconnectMs);
    };
  }

  /** Handle one message of the stream (exposed so that it can be tested without a server). */
  receive(msg) {
    switch (msg.type) {
      case "hello":
        this.emit("onHello", msg);
        break;
      case "event":
        if (msg.event.version > this.after) {
          this.after = msg.event.version;
          this.emit("onEvent", msg.event);
        }
        break;
      case "state":
        this.state = msg.state;
        this.stateVersion = msg.version;
        this.presence = msg.presence;
        this.after = Math.max(this.after, msg.version);
        this.prompts = new Map([...this.prompts].filter(([, p]) => this.stillPending(p)));
        this.emit("onState", this.state, msg.version);
        this.emit("onPresence", this.presence);
        break;
      case "patch":
        if (this.state === null || this.stateVersion !== msg.base) {
          this.resync();  // a patch on a state we do not have: fetch the whole state again
          return;
        }
        this.state = applyPatch(this.state, msg.patch);
        this.stateVersion = msg.version;
        this.after = Math.max(this.after, msg.version);
        this.emit("onState", this.state, msg.version);
        break;
      case "prompt":
        this.prompts.set(msg.prompt.id, msg.prompt);
        this.emit("onPrompt", msg.prompt);
        break;
      case "actions":
        this.actions = msg.actions;
        this.actionsVersion = msg.version;
        this.offered();
        break;
      case "actions_patch":
        if (this.actions === null || this.actionsVersion !== msg.base) {
          this.resync();  // a patch on next moves we do not have: start again, whole
          return;
        }
        this.actions = applyPatch(this.actions, msg.patch);
        this.actionsVersion = msg.version;
        this.offered();
        break;
      case "presence":
        this.presence = msg.presence;
        this.emit("onPresence", this.presence);
        break;
      case "error":
        this.emit("onError", msg);
        break;
      default:
        break;
    }
  }

  /** New next moves: a prompt none of whose answers is offered any more is answered: gone. */
  offered() {
    const asked = new Set(this.actions.actions.map((a) => a.decision).filter(Boolean));
    this.prompts = new Map([...this.prompts].filter(([id]) => asked.has(id)));
    this.emit("onActions", this.actions);
  }

  stillPending(prompt) {
    const pending = this.state && this.state.pending;
    if (!Array.isArray(pending)) return true;
    return pending.some((d) => d.id === prompt.id);
  }

  /** Drop the connection and start again from the last version seen, with the whole state. */
  resync() {
    this.stateVersion = null;
    this.actionsVersion = null;
    this.dropping = this.socket;
    if (this.socket) this.socket.close(4000, "resync");
  }

  close() {
    this.closed = true;
    if (this.socket) this.socket.close(1000, "bye");
  }
}

/** The command that answers a prompt with one of its choices: the choice's whole `command`. */
export function answer(prompt, choice) {
  if (choice && choice.command && choice.command.type) return choice.command;
  const body = { type: prompt.command, ...prompt.body };
  if (!choice) return body;
  if (choice.answer) return { ...body, ...choice.answer };
  return { ...body, [prompt.choice_field]: choice.name };
}
