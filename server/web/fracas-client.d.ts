// The API of fracas-client.js itself (hand-written). The request and response bodies are the
// OpenAPI document's (openapi/openapi.json); they are typed loosely here.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface PatchOp { op: "add" | "remove" | "replace"; path: string; value?: Json }

/** An RFC 9457 problem the server answered with. */
export class ProblemError extends Error {
  constructor(status: number, problem: Record<string, unknown> | null);
  status: number;
  code?: string;
  title?: string;
  detail?: string;
  problem: Record<string, unknown>;
}

/** Apply a JSON Patch to a copy of `doc`. */
export function applyPatch<T = Json>(doc: T, ops: PatchOp[]): T;

export interface Choice { name: string; action_points?: number; answer?: Record<string, Json> | null }
export interface Prompt {
  id: string; kind: string; combatant_id: string | null; command: string; body: Record<string, Json>;
  choice_field?: string | null; choices?: Choice[]; stage?: string | null; summary?: string;
}
/** The command answering `prompt` with `choice`. */
export function answer(prompt: Prompt, choice?: Choice | null): Record<string, Json>;

export interface RequestOptions { body?: unknown; ifMatch?: number | string; idempotencyKey?: string; accept?: string }

export class Fracas {
  constructor(base?: string, token?: string | null, options?: { retries?: number });
  base: string;
  token: string | null;
  withToken(token: string): Fracas;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T = any>(path: string): Promise<T>;
  post<T = any>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  rulesets(): Promise<{ id: string; name: string }[]>;
  ruleset(id: string): Promise<any>;
  encounters(): Promise<any>;
  openEncounter(ruleset: string, name: string, extra?: Record<string, unknown>): Promise<any>;
  state(enc: string): Promise<any>;
  log(enc: string): Promise<{ encounter_id: string; version: number; entries: { versions: number[]; round: number; sentence: string; undone: boolean }[] }>;
  events(enc: string, after?: number, limit?: number): Promise<any>;
  addCombatant(enc: string, combatant: Record<string, unknown>): Promise<any>;
  command(enc: string, body: Record<string, unknown>, options?: { ifMatch?: number }): Promise<any>;
  mintToken(enc: string, body: { role: "player" | "spectator"; combatant_ids?: string[]; label?: string }): Promise<{ token: string; [k: string]: any }>;
  tokens(enc: string): Promise<any>;
  /** The timeline SVG, or null where the server has none. */
  timeline(enc: string): Promise<string | null>;
  live(enc: string, handlers?: LiveHandlers, options?: LiveOptions): LiveEncounter;
}

export type LiveStatus = "connecting" | "open" | "closed" | "reconnecting";
export interface LiveHandlers {
  onHello?(message: any): void;
  onEvent?(event: { version: number; type: string; data: any; metadata: any; hash?: string }): void;
  onState?(state: any, version: number): void;
  onPrompt?(prompt: Prompt): void;
  onPresence?(presence: any): void;
  onStatus?(status: LiveStatus, detail?: string): void;
  onError?(message: { status: number; code: string; title: string; detail?: string | null }): void;
}
export interface LiveOptions { after?: number; reconnectMs?: number; WebSocketImpl?: typeof WebSocket }

export class LiveEncounter {
  constructor(client: Fracas, enc: string, handlers?: LiveHandlers, options?: LiveOptions);
  /** The last version received: a reconnection asks for what came after it. */
  after: number;
  state: any | null;
  stateVersion: number | null;
  presence: any | null;
  prompts: Map<string, Prompt>;
  url(): string;
  connect(): void;
  receive(message: { type: string; version: number; [k: string]: any }): void;
  resync(): void;
  close(): void;
}
