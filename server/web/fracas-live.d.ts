// fracas-live.d.ts: the messages of the live stream (/encounters/{id}/live).
// Generated from openapi/asyncapi.json by `fracas regen`: do not edit by hand (a test fails when this
// file is stale). The schemas the API document has too are its own (fracas-api.d.ts).
import type { EventView, NextMoves, Presence } from "./fracas-api.js";

/** What the fight waits on and the caller's next moves (as ``GET /encounters/{id}/actions`` answers), sent whole when the stream starts and after a gap; then changes come as ``actions_patch``. */
export type ActionsMessage = {
  actions: NextMoves;
  type: "actions";
  version: number;
};

/** The change to the caller's next moves since the ``actions`` (or ``actions_patch``) of version ``base``: a JSON Patch (RFC 6902). Sent only when they changed. */
export type ActionsPatchMessage = {
  base: number;
  patch: {
    [key: string]: unknown;
  }[];
  type: "actions_patch";
  version: number;
};

/** One answer: ``command`` is its whole body, accepted as sent (``action_id``: the same answer among ``GET /encounters/{id}/actions``, with its dice and cost). */
export type Choice = {
  action_id?: string;
  action_points?: number;
  command?: {
    [key: string]: unknown;
  };
  label?: string;
  name: string;
};

/** Why the server closes the stream (RFC 9457 fields; ``code`` is stable). */
export type ErrorMessage = {
  code: string;
  detail?: string | null;
  status: number;
  title: string;
  type: "error";
  version: number;
};

/** One event, filtered for the caller as ``GET /encounters/{id}/events`` shows it. */
export type EventMessage = {
  event: EventView;
  type: "event";
  version: number;
};

export type Heartbeat = {
  time: string;
  type: "heartbeat";
  version: number;
};

/** The stream is open: events after ``version`` follow (up to ``head`` at once). */
export type Hello = {
  connection_id: string;
  head: number;
  heartbeat_seconds: number;
  role: string;
  type: "hello";
  version: number;
};

/** The change to the caller's state since the state (or patch) of version ``base``: a JSON Patch (RFC 6902: ``add``, ``remove``, ``replace``). With ``?state=full`` the stream sends ``state`` messages instead. */
export type PatchMessage = {
  base: number;
  patch: {
    [key: string]: unknown;
  }[];
  type: "patch";
  version: number;
};

/** Who is connected changed (no event was committed). */
export type PresenceMessage = {
  presence: Presence;
  type: "presence";
  version: number;
};

/** A decision awaiting the caller: a view of its ``decision`` actions. Send one choice's ``command`` as it is (no choice: send ``body`` with ``type`` set to ``command``). */
export type Prompt = {
  body: {
    [key: string]: unknown;
  };
  choice_field?: string | null;
  choices?: Choice[];
  combatant_id: string | null;
  command: string;
  id: string;
  kind: string;
  stage?: string | null;
  summary?: string;
};

/** A decision that awaits the caller, with its legal choices. */
export type PromptMessage = {
  prompt: Prompt;
  type: "prompt";
  version: number;
};

/** The caller's view of the state after the events sent so far (the whole filtered state, as ``GET /encounters/{id}`` shows it), and who is connected. */
export type StateMessage = {
  presence: Presence;
  state: unknown;
  type: "state";
  version: number;
};

/** One message of the live stream (with `?batch=true`, a WebSocket frame is an array of them). */
export type LiveMessage =
  | Hello
  | EventMessage
  | StateMessage
  | PatchMessage
  | PromptMessage
  | ActionsMessage
  | ActionsPatchMessage
  | PresenceMessage
  | Heartbeat
  | ErrorMessage;
