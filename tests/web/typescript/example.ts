// What a VTT module writes against fracas-client.js, type-checked by tests/web/test_typescript.py
// with the pinned TypeScript (the types are fracas-api.d.ts's, generated from the OpenAPI document).
import { Fracas, ProblemError, answer } from "../../../server/web/fracas-client.js";
import type { Command, EncounterView, LiveMessage, LiveState, Prompt, RulesetInfo } from "../../../server/web/fracas-client.js";

export async function runAFight(base: string, operatorKey: string | null): Promise<number> {
  const api = new Fracas(base, operatorKey);
  const rulesets = await api.rulesets();
  const info: RulesetInfo = await api.ruleset(rulesets[0].id);
  const playerCommands: string[] = info.commands.filter((c) => c.senders.includes("player")).map((c) => c.type);
  const opened = await api.openEncounter("places-of-power", "Ambush at the ford", { dice_policy: "mixed" });
  const gm = api.withToken(opened.gm_token.token);
  const enc: string = opened.encounter_id;
  const added = await gm.addCombatant(enc, { name: "Mira", side: "party", controller: "player" });
  const mira: string = added.events[0].type === "CombatantAdded" ? Object.keys(added.state.combatants ?? {})[0] : "";
  const token = await gm.mintToken(enc, { role: "player", combatant_ids: [mira], label: "Mira's player" });
  const start: Command = { type: "StartEncounter" };
  const result = await gm.command(enc, start, { ifMatch: added.version });
  const endTurn: Command = { type: "EndTurn", combatant_id: mira };
  const state: EncounterView = await gm.state(enc);
  const round: number = state.round ?? 0;
  const log = await gm.log(enc);
  const sentences: string[] = log.entries.map((e) => e.sentence);
  const player = api.withToken(token.token);
  const live = player.live(enc, {
    onState(s: LiveState, version: number) { void s.turn; void version; },
    onPrompt(p: Prompt) { void player.command(enc, answer(p, p.choices?.[0]) as Command); },
    onEvent(e) { void e.version; void e.hash; },
    onPresence(p) { void (p ? p.roles : {}); },
    onError(m) { void m.code; },
  });
  live.close();
  try {
    await player.command(enc, endTurn);
  } catch (err) {
    if (err instanceof ProblemError && err.code === "not_your_turn") return -1;
  }
  // @ts-expect-error: the state has no such field (the types are not `any`)
  void state.hit_points_of_everyone;
  // @ts-expect-error: no ruleset has this command
  void gm.command(enc, { type: "WinTheFight" });
  // @ts-expect-error: a token for a player names a role the API has
  void gm.mintToken(enc, { role: "referee" });
  return result.version + round + sentences.length + playerCommands.length;
}

/** A VTT module's own reading of the live stream's messages, typed by the generated union
 * (fracas-live.d.ts, from openapi/asyncapi.json). */
export function describe(message: LiveMessage): string {
  switch (message.type) {
    case "hello": return `open at ${message.head}, a beat every ${message.heartbeat_seconds.toFixed(0)} s`;
    case "event": return `${message.event.type} at ${message.event.version}`;
    case "state": return `turn ${String(message.state.turn)}`;
    case "patch": case "actions_patch": return `${message.patch.length} changes since ${message.base}`;
    case "actions": return `${message.actions.actions.length} moves`;
    case "error": return `${message.status} ${message.code}`;
    default: return message.type;
  }
}

// @ts-expect-error: no live message has this type
export const unknownMessage: LiveMessage = { type: "gossip", version: 1 };
