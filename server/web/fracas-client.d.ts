// The API of fracas-client.js itself (hand-written). The request and response bodies are the
// OpenAPI document's, from fracas-api.d.ts (generated from openapi/openapi.json by
// `fracas typescript`); the live stream's messages are fracas-live.d.ts's (generated from openapi/asyncapi.json).
import type {
  Combatant, CommandResult, EncounterList, EncounterLog, EncounterView, EventPage, EventView,
  IssuedToken, NewCombatant, NewToken, OpenEncounterRequest, OpenedEncounter, Presence, ProblemDetails,
  RequestBody, ResponseBody, RulesetInfo, RulesetSummary, TokenView,
} from "./fracas-api.js";
import type { LiveMessage as GeneratedLiveMessage } from "./fracas-live.js";

export type * from "./fracas-api.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface PatchOp { op: "add" | "remove" | "replace"; path: string; value?: Json }

/** An RFC 9457 problem the server answered with. */
export class ProblemError extends Error {
  constructor(status: number, problem: Partial<ProblemDetails> | null);
  status: number;
  code?: string;
  title?: string;
  detail?: string | null;
  problem: Partial<ProblemDetails>;
}

/** Apply a JSON Patch to a copy of `doc`. */
export function applyPatch<T = Json>(doc: T, ops: PatchOp[]): T;

/** One answer of a prompt: `command` is its whole body, sent as it is (`action_id`: the same in `actions`). */
export interface Choice { name: string; action_points?: number; label?: string; command?: Record<string, Json>; action_id?: string }
export interface Prompt {
  id: string; kind: string; combatant_id: string | null; command: string; body: Record<string, Json>;
  choice_field?: string | null; choices?: Choice[]; stage?: string | null; summary?: string;
}
/** What the fight waits on and the caller's next moves (`GET /encounters/{id}/actions`). */
export type NextMoves = ResponseBody<"getActions">;
export type Action = NextMoves["actions"][number];
/** The command answering `prompt` with `choice` (the choice's whole `command`). */
export function answer(prompt: Prompt, choice?: Choice | null): Record<string, Json>;

/** A command of any ruleset the server runs (the body of `POST /encounters/{id}/commands`). */
export type Command = RequestBody<"sendCommand">;

export interface RequestOptions { body?: unknown; ifMatch?: number | string; idempotencyKey?: string; accept?: string }

export class Fracas {
  constructor(base?: string, token?: string | null, options?: { retries?: number });
  base: string;
  token: string | null;
  withToken(token: string): Fracas;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T = any>(path: string): Promise<T>;
  post<T = any>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  rulesets(): Promise<RulesetSummary[]>;
  ruleset(id: string): Promise<RulesetInfo>;
  encounters(): Promise<EncounterList>;
  openEncounter(ruleset: string, name: string, extra?: Partial<Omit<OpenEncounterRequest, "ruleset" | "name">>): Promise<OpenedEncounter>;
  state(enc: string): Promise<EncounterView>;
  /** What the fight waits on and this token's next moves: each action's `command` is sent as it is. */
  actions(enc: string): Promise<NextMoves>;
  log(enc: string): Promise<EncounterLog>;
  events(enc: string, after?: number, limit?: number): Promise<EventPage>;
  addCombatant(enc: string, combatant: NewCombatant): Promise<CommandResult>;
  /** Send a command: one of the encounter's ruleset's (`type` names it). */
  command(enc: string, body: Command, options?: { ifMatch?: number }): Promise<CommandResult>;
  mintToken(enc: string, body: NewToken): Promise<IssuedToken>;
  tokens(enc: string): Promise<TokenView[]>;
  revokeToken(enc: string, id: string): Promise<null>;
  /** The timeline SVG, or null where the server has none. */
  timeline(enc: string): Promise<string | null>;
  /** The timeline's address with this token as `?token=`: a link a browser tab opens. */
  timelineUrl(enc: string): string;
  live(enc: string, handlers?: LiveHandlers, options?: LiveOptions): LiveEncounter;
}

export type LiveStatus = "connecting" | "open" | "closed" | "reconnecting";
/** The state a live stream keeps: the encounter as this viewer may see it. */
export type LiveState = EncounterView & { combatants?: { [id: string]: Combatant }; pending?: { id: string }[] };
export interface LiveHandlers {
  onHello?(message: Extract<LiveMessage, { type: "hello" }>): void;
  onEvent?(event: EventView): void;
  onState?(state: LiveState, version: number): void;
  onPrompt?(prompt: Prompt): void;
  onActions?(actions: NextMoves): void;
  onPresence?(presence: Presence | null): void;
  onStatus?(status: LiveStatus, detail?: string): void;
  onError?(message: Extract<LiveMessage, { type: "error" }>): void;
}
export interface LiveOptions { after?: number; reconnectMs?: number; WebSocketImpl?: typeof WebSocket }

/** One message of `/encounters/{id}/live` (docs/live.md): the generated union (fracas-live.d.ts, from
 * openapi/asyncapi.json), its `state` typed as a client keeps it. With `?batch=true` (what
 * `LiveEncounter` asks for) each WebSocket frame is a `LiveMessage[]`: the messages of one batch. */
export type LiveMessage =
  | Exclude<GeneratedLiveMessage, { type: "state" }>
  | (Extract<GeneratedLiveMessage, { type: "state" }> & { state: LiveState });

export class LiveEncounter {
  constructor(client: Fracas, enc: string, handlers?: LiveHandlers, options?: LiveOptions);
  /** The last version received: a reconnection asks for what came after it. */
  after: number;
  state: LiveState | null;
  stateVersion: number | null;
  presence: Presence | null;
  prompts: Map<string, Prompt>;
  /** The next moves, kept up (null before the first). */
  actions: NextMoves | null;
  actionsVersion: number | null;
  url(): string;
  connect(): void;
  receive(message: LiveMessage): void;
  resync(): void;
  close(): void;
}
