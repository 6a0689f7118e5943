// fracas-api.d.ts: the request and response types of every operation of the Fracas API.
// Generated from openapi/openapi.json by `fracas typescript`: do not edit by hand (a test fails
// when this file is stale). fracas-client.d.ts uses these types; a VTT module may import them:
//   import type { EncounterView, operations } from "./fracas-api.js";

// ---------------------------------------------------------------- schemas

export type Action = {
  combatant_id: string | null;
  command: {
    [key: string]: unknown;
  };
  cost?: {
    [key: string]: number;
  };
  decision?: string | null;
  dice?: DiceNeeded[];
  id: string;
  kind: "decision" | "move" | "lifecycle" | "gm";
  label: string;
  parameters?: {
    [key: string]: unknown;
  } | null;
};

/**
 * Add a combatant. ``sheet`` follows the ruleset's sheet schema. A ``hidden`` combatant
 * (an ambush) is seen by the GM only, until the GM reveals it.
 */
export type AddCombatant = {
  combatant_id?: string | null;
  controller: "gm" | "player";
  dice?: number[] | null;
  hidden?: boolean;
  name: string;
  sheet?: {
    [key: string]: unknown;
  };
  side: string;
  type: "AddCombatant";
};

export type AuditProblem = {
  code: string;
  detail: string;
  die?: DieFinding | null;
  version: number | null;
};

export type AuditReport = {
  chain_ok: boolean;
  dice: DiceReport;
  encounter_id: string;
  events: number;
  first: AuditProblem | null;
  head_hash: string | null;
  ok: boolean;
  problems: AuditProblem[];
  seed: SeedReport;
};

/** The GM closes the window: whoever has not answered passes. */
export type CloseReactions = {
  dice?: number[] | null;
  type: "CloseReactions";
  window: string;
};

export type Combatant = {
  action_points?: number;
  controller: "gm" | "player";
  hidden?: boolean;
  id: string;
  initiative?: number | null;
  name: string;
  resources?: {
    [key: string]: number;
  };
  seq?: number;
  sheet: unknown;
  side: string;
};

export type CombatantAdded = {
  action_points?: number;
  combatant_id: string;
  controller: "gm" | "player";
  hidden?: boolean;
  name: string;
  seq?: number;
  sheet: {
    [key: string]: unknown;
  };
  side: string;
  type: "CombatantAdded";
};

export type CombatantExample = {
  body: NewCombatant;
  label: string;
};

export type CombatantRemoved = {
  combatant_id: string;
  type: "CombatantRemoved";
};

export type CombatantRevealed = {
  combatant_id: string;
  type: "CombatantRevealed";
};

export type CombatantTotals = {
  action_points_spent?: number;
  attacks_landed?: number;
  attacks_made?: number;
  combatant_id: string;
  controller: string;
  defences_tried?: number;
  defences_won?: number;
  hits_dealt?: number;
  hits_taken?: number;
  name: string;
  outcomes?: {
    [key: string]: number;
  };
  removed?: boolean;
  rolls?: number;
  side: string;
};

export type CommandDoc = {
  actor_field?: string | null;
  dice?: string;
  json_schema: {
    [key: string]: unknown;
  };
  senders: ("gm" | "player")[];
  settings_schema?: {
    [key: string]: unknown;
  } | null;
  summary: string;
  type: string;
};

export type CommandInfo = {
  action_points?: number | null;
  summary: string;
  type: string;
  who?: string;
};

export type CommandResult = {
  encounter_id: string;
  events: EventView[];
  state: EncounterState;
  version: number;
};

export type Connected = {
  combatant_ids: string[];
  connected_at: string;
  connection_id: string;
  label: string;
  role: string;
  token_id: string;
  transport: string;
};

export type DiceNeeded = {
  by?: string | null;
  count: number;
  for: string;
  open?: boolean;
  sides: number;
};

export type DiceReport = {
  rederived: number | null;
  reported: number | null;
  seeded: number | null;
  verified: boolean;
};

export type DieFinding = {
  derived_face?: number | null;
  index: number | null;
  purpose: string;
  sides: number;
  stored_face: number;
};

/**
 * One die as rolled: its size, the face that came up, why it was rolled and where from.
 *
 * ``index`` is the seeded roll number (for audit), ``None`` for a reported die. ``by``: the
 * combatant who rolled it (``None``: the GM for a group, or a roll of no one's); ``purpose``
 * names the rule it was rolled for, never a combatant (who sees whom is decided by ``by``).
 * A viewer who may not see every roll is shown, while the seed is secret, a ``roll`` tag in
 * place of ``index`` (``roll_tag``: the numbers would count the unseen rolls).
 */
export type DieRoll = {
  by?: string | null;
  face: number;
  index?: number | null;
  purpose: string;
  /** Shown to a player or spectator in place of `index` until the fight ends and the seed is revealed: a tag that tells nothing of how many rolls came before. With the seed, `HMAC-SHA256(seed, "{encounter_id}:roll:{index}")`, its first 16 hex digits, gives each number's tag. */
  roll?: string;
  sides: number;
  source: "reported" | "seeded";
};

export type EncounterEnded = {
  seed?: string | null;
  type: "EncounterEnded";
};

export type EncounterList = {
  encounters: EncounterSummary[];
  limit: number;
  offset: number;
  total: number;
};

export type EncounterLog = {
  encounter_id: string;
  entries: LogEntry[];
  version: number;
};

/**
 * Schema version 2: ``seed_commitment`` is ``sha256:<hex>``, the SHA-256 of the dice seed
 * (version 1 had the bare hex as ``seed_sha256``; see ``domain/core/upcasting.py``).
 */
export type EncounterOpened = {
  dice_policy: string;
  encounter_id: string;
  name: string;
  ruleset: string;
  seed_commitment: string;
  type: "EncounterOpened";
};

export type EncounterOverview = {
  combatants: number;
  created_at?: string | null;
  encounter_id: string;
  ended_at?: string | null;
  last_activity?: string | null;
  name: string;
  projected_version: number;
  round: number;
  ruleset: string;
  sides: {
    [key: string]: Totals;
  };
  started_at?: string | null;
  statistics_version: number;
  status: "setup" | "active" | "ended";
  totals: Totals;
  version: number;
};

export type EncounterStarted = {
  type: "EncounterStarted";
};

export type EncounterState = {
  acted?: string[];
  combatants?: {
    [key: string]: Combatant;
  };
  combatants_added?: number;
  concealed?: string[];
  concealed_events?: {
    [key: string]: string[];
  };
  dice_policy: string;
  group_initiative?: {
    [key: string]: number;
  };
  id: string;
  initiative_rolled?: boolean;
  initiative_version?: number;
  name: string;
  order?: string[];
  rolls_used?: number;
  round?: number;
  rules?: unknown;
  ruleset: string;
  secret_versions?: number[];
  seed?: string | null;
  seed_sha256: string;
  status?: "setup" | "active" | "ended";
  turn?: string | null;
  version?: number;
};

export type EncounterStatistics = {
  combatants: CombatantTotals[];
  encounter_id: string;
  projected_version: number;
  version: number;
};

export type EncounterSummary = {
  combatants: number;
  created_at: string;
  id: string;
  last_activity: string;
  name: string;
  round: number;
  ruleset: string;
  status: "setup" | "active" | "ended";
  version: number;
};

export type EncounterView = {
  acted?: string[];
  combatants?: {
    [key: string]: Combatant;
  };
  combatants_added?: number;
  concealed?: string[];
  concealed_events?: {
    [key: string]: string[];
  };
  dice_policy: string;
  group_initiative?: {
    [key: string]: number;
  };
  id: string;
  initiative_rolled?: boolean;
  initiative_version?: number;
  name: string;
  order?: string[];
  presence?: Presence | null;
  rolls_used?: number;
  round?: number;
  rules?: unknown;
  ruleset: string;
  secret_versions?: number[];
  seed?: string | null;
  seed_sha256: string;
  status?: "setup" | "active" | "ended";
  turn?: string | null;
  version?: number;
};

/** End the fight. The dice seed is revealed so every roll can be verified. */
export type EndEncounter = {
  dice?: number[] | null;
  type: "EndEncounter";
};

/** The combatant whose turn it is ends it; the next one's turn begins. */
export type EndTurn = {
  combatant_id: string;
  dice?: number[] | null;
  type: "EndTurn";
};

export type EventPage = {
  events: EventView[];
  has_more: boolean;
  next_after: number;
};

export type EventView = {
  /** The event's payload, as stored at its `schema_version`: at the current version, one of the encounter's ruleset's events (its union, by `type`; `PlacesOfPower.Event`, `HealthTrauma.Event`, `Realms.Event`, `Novus.Event`). Shown to a player or a spectator, what they may not see is left out of it, and a `Redacted` event's payload is `{}`. */
  data: PlacesOfPower_Event | HealthTrauma_Event | Realms_Event | Novus_Event | {
    [key: string]: unknown;
  };
  event_id: string;
  hash: string;
  metadata: unknown;
  recorded_at: string;
  schema_version: number;
  type: string;
  version: number;
};

export type Health = {
  database: string;
  status: string;
};

/**
 * One action of the list the text points at ("Most actions will be listed as Quarter (1/4),
 * Half (1/2), or Full (1) Actions"): its size, whether it is a Move (``crawl``: one of "the
 * Crawl Move Actions"), whether it needs arms or legs (for the maimed), and whether it readies
 * a weapon of the sheet (``draws``: "Draw a weapon"; the one drawn is then the readied one).
 */
export type HealthTrauma_ActionRule = {
  crawl?: boolean;
  draws?: boolean;
  move?: boolean;
  name: string;
  needs_arms?: boolean;
  needs_legs?: boolean;
  size: "full" | "half" | "quarter" | "quick";
};

/** An action taken; ``weapon``: the weapon it drew, now the readied one. */
export type HealthTrauma_ActionTaken = {
  action: string;
  combatant_id: string;
  size: "full" | "half" | "quarter" | "quick";
  type: "HTActionTaken";
  weapon?: string | null;
};

/**
 * Attack ``target`` with the readied weapon (default: it; another is refused) at
 * ``distance`` spaces (0: base to base): "an Opposed Test that pits your combat skill
 * against your Target's Guard".
 */
export type HealthTrauma_Attack = {
  combatant_id: string;
  dice?: number[] | null;
  distance?: number;
  target: string;
  type: "HTAttack";
  weapon?: string | null;
};

/** An attack begins (its part of the turn spent); it waits while the target may react. */
export type HealthTrauma_AttackDeclared = {
  combatant_id: string;
  distance: number;
  size: "full" | "half" | "quarter" | "quick";
  target: string;
  type: "HTAttackDeclared";
  weapon: string;
};

/** The chance to hit: ``numerator`` / ``denominator`` of all the ways the dice can fall. */
export type HealthTrauma_AttackOdds = {
  denominator: number;
  hit: number;
  numerator: number;
};

/** The opposed test and, on a hit, the weapon's Damage less the target's Protection. */
export type HealthTrauma_AttackRolled = {
  attack_die: DieRoll;
  attack_total: number;
  combatant_id: string;
  damage?: number;
  damage_dice?: DieRoll[];
  defence_die?: DieRoll | null;
  guard_total: number;
  hit: boolean;
  protection?: number;
  reaction?: string | null;
  rolled_damage?: number;
  target: string;
  type: "HTAttackRolled";
  weapon: string;
};

/** A band of the injury chart: totals from ``least`` up (to the next band's least) give ``result``. */
export type HealthTrauma_Band = {
  least: number;
  result: "gut_wound" | "lucky_escape" | "maimed" | "mortal_blow" | "reeling" | "sliced_muscle";
};

/** A command of Health/Trauma (`health-trauma`): one of its types, by `type`. */
export type HealthTrauma_Command = 
  | AddCombatant
  | RemoveCombatant
  | RollInitiative
  | SetTurnOrder
  | StartEncounter
  | EndTurn
  | EndEncounter
  | RevealCombatant
  | RevealRoll
  | Retcon
  | HealthTrauma_SetHealthTraumaRules
  | HealthTrauma_RollInitiativeTest
  | HealthTrauma_Attack
  | HealthTrauma_TakeAction
  | HealthTrauma_RollInjury
  | HealthTrauma_RollFearSave
  | HealthTrauma_Heal
  | HealthTrauma_Stabilise
  | HealthTrauma_TreatWound
  | HealthTrauma_Recuperate
  | React
  | PassReaction
  | CloseReactions;

/** Death: ``cause`` "trauma" (Trauma equal to or above maximum Health) or "mortal_blow". */
export type HealthTrauma_Died = {
  cause: string;
  combatant_id: string;
  type: "HTDied";
};

/** An event of Health/Trauma (`health-trauma`): one of its types, by `type`. */
export type HealthTrauma_Event = 
  | EncounterOpened
  | CombatantAdded
  | CombatantRemoved
  | InitiativeRolled
  | TurnOrderSet
  | EncounterStarted
  | RoundStarted
  | TurnEnded
  | EncounterEnded
  | CombatantRevealed
  | RollRevealed
  | Retconned
  | HealthTrauma_RulesSet
  | HealthTrauma_InitiativeTestRolled
  | HealthTrauma_ActionTaken
  | HealthTrauma_AttackDeclared
  | HealthTrauma_Reacted
  | HealthTrauma_AttackRolled
  | HealthTrauma_Harmed
  | HealthTrauma_GutWoundSave
  | HealthTrauma_InjuryRolled
  | HealthTrauma_FearSaveDue
  | HealthTrauma_FearSave
  | HealthTrauma_Died
  | HealthTrauma_Healed
  | HealthTrauma_Stabilised
  | HealthTrauma_WoundTreated
  | HealthTrauma_Recuperated
  | ReactionsOpened
  | ReactionPassed
  | ReactionsClosed;

/** The reeling result's "Fear MSvs Trauma" at the start of a turn: Stunned on a failure, ended on a success. */
export type HealthTrauma_FearSave = {
  combatant_id: string;
  die: DieRoll;
  passed: boolean;
  total: number;
  type: "HTFearSave";
  vs: number;
};

/** A reeling character's turn starts: "they must take a Fear MSvs" before they act. */
export type HealthTrauma_FearSaveDue = {
  combatant_id: string;
  type: "HTFearSaveDue";
};

/** The gut wound's "BSvs Damage Taken": a Trauma on a failure. */
export type HealthTrauma_GutWoundSave = {
  combatant_id: string;
  die: DieRoll;
  passed: boolean;
  total: number;
  type: "HTGutWoundSave";
  vs: number;
};

/**
 * ``damage`` reduced health to ``health``; ``trauma``: gained for damage taken while dying;
 * ``dying``: now put into the dying state (an injury roll is due). An NPC's Health is the GM's
 * (at full it is five plus its Physique): the table sees the damage and the wound level.
 */
export type HealthTrauma_Harmed = {
  cause: string;
  combatant_id: string;
  damage: number;
  dying?: boolean;
  health: number;
  trauma?: number;
  type: "HTHarmed";
};

/**
 * Restore health (a spell, an item, the Medicine Skill): ``amount`` given, or rolled as
 * ``dice_count``D``dice_sides`` + ``bonus`` (the text gives no amounts: the GM's call).
 */
export type HealthTrauma_Heal = {
  amount?: number | null;
  bonus?: number;
  combatant_id: string;
  dice?: number[] | null;
  dice_count?: number;
  dice_sides?: number;
  type: "HTHeal";
};

export type HealthTrauma_Healed = {
  amount: number;
  combatant_id: string;
  dice?: DieRoll[];
  health: number;
  revived?: boolean;
  type: "HTHealed";
};

/**
 * The encounter's Health/Trauma data (all defaults ours, not the game's).
 *
 * - ``attack_die`` / ``defence_die``: the Attack Test (ours): the attacker rolls 1D``attack_die``
 *   + combat skill, the target 1D``defence_die`` + Guard (0: Guard is a fixed number); the
 *   attack hits on a higher total (``attacker_wins_ties``: on an equal one too).
 * - ``attack_size``: what part of a turn an attack takes (ours: a Half action).
 * - ``initiative_die``: the Initiative Test (ours): 1D``initiative_die`` + initiative bonus.
 * - ``injury_chart``: the bands read with "1D10, add five for each injury you already have"
 *   (ours: 1-3 lucky escape, 4-6 sliced muscle, 7-9 reeling, 10-12 maimed, 13-15 gut wound,
 *   16+ Mortal Blow, in the text's order of severity).
 * - ``penalty_x``: X of the sliced muscle's "-X modifier" (ours: 1).
 * - ``maim_table``: the 1D6 parts, each with the pair it is one of (``arm``, ``leg``, ``eye``: what
 *   "both your arms/legs/eyes" counts; ours: left/right arm, leg, eye). A plain name is one of
 *   a pair only as "left arm", "right arm", "left leg", ... are.
 * - ``save_die``: MSvs/BSvs "vs N" (ours: "Mental/Body Save versus N"): 1D``save_die`` + the
 *   sheet's save bonus - penalty succeeds on a total above N.
 * - ``reactions``: the Reactions a target may take against an attack (ours: Dodge, +2 Guard).
 * - ``actions``: the action list (ours; "Draw a weapon" readies another weapon), ``attack_needs_arms``: whether both arms maimed stops attacks.
 * - ``trauma_death``: "taken Trauma equal or greater than their maximum Health" read against the
 *   maximum before Trauma (ours: ``maximum_before_trauma``, five plus Physique, adjusted) or the
 *   maximum Trauma has lowered (``lowered_maximum``: death once Trauma reaches half the first).
 * - ``fear_save_against``: the N of "a Fear MSvs Trauma they received from the attack": the
 *   character's Trauma when the save is made (ours: ``trauma``), the Trauma they had when the
 *   reeling result was rolled (``trauma_at_injury``), or the damage of the hit that put them into
 *   the dying state (``injuring_damage``).
 */
export type HealthTrauma_HealthTraumaData = {
  actions?: HealthTrauma_ActionRule[];
  attack_die?: number;
  attack_needs_arms?: boolean;
  attack_size?: "full" | "half" | "quarter" | "quick";
  attacker_wins_ties?: boolean;
  defence_die?: number;
  fear_save_against?: "injuring_damage" | "trauma" | "trauma_at_injury";
  initiative_die?: number;
  injury_chart?: HealthTrauma_Band[];
  maim_table?: (string | HealthTrauma_MaimedPart)[];
  penalty_x?: number;
  reactions?: HealthTrauma_ReactionRule[];
  save_die?: number;
  trauma_death?: "lowered_maximum" | "maximum_before_trauma";
};

/** A character's own Initiative Test, kept for the GM's next RollInitiative. */
export type HealthTrauma_InitiativeTestRolled = {
  roll: InitiativeRoll;
  type: "HTInitiativeTestRolled";
};

/** 1D10 + 5 for each injury had, read on the chart; a maimed part (1D6) and its removal (3 + 1D3 Trauma). */
export type HealthTrauma_InjuryRolled = {
  coma?: boolean;
  combatant_id: string;
  die: DieRoll;
  injuries_had: number;
  part?: string | null;
  part_die?: DieRoll | null;
  penalty?: number;
  removal_die?: DieRoll | null;
  removed?: boolean;
  result: string;
  total: number;
  trauma?: number;
  type: "HTInjuryRolled";
};

/**
 * A face of the 1D6 maimed-part table: the part, and which of "both your arms", "both your
 * legs" or "both your eyes" it is one of (``pair``; none: neither).
 */
export type HealthTrauma_MaimedPart = {
  name: string;
  pair?: ("arm" | "eye" | "leg") | null;
};

export type HealthTrauma_Reacted = {
  combatant_id: string;
  reaction: string;
  type: "HTReacted";
  window: string;
};

/** A Reaction a target may take while an attack at it waits: what it adds to its Guard. */
export type HealthTrauma_ReactionRule = {
  guard_bonus?: number;
  name: string;
};

/**
 * Recuperate between fights (the text gives no rule; ours): Trauma back to 0, health to
 * its maximum; the sliced muscles' penalty, a coma and a gut wound end with it. Never for the dead.
 */
export type HealthTrauma_Recuperate = {
  combatant_id: string;
  dice?: number[] | null;
  type: "HTRecuperate";
};

export type HealthTrauma_Recuperated = {
  combatant_id: string;
  type: "HTRecuperated";
};

/** Take the reeling result's Fear MSvs, due at the start of one's turn. */
export type HealthTrauma_RollFearSave = {
  combatant_id: string;
  dice?: number[] | null;
  type: "HTRollFearSave";
};

/**
 * Make one's Initiative Test before the GM rolls initiative: "Players will roll for their
 * characters while the Game Master rolls for Non-Player Characters." The GM's RollInitiative
 * then rolls for the rest and orders everyone.
 */
export type HealthTrauma_RollInitiativeTest = {
  combatant_id: string;
  dice?: number[] | null;
  type: "HTRollInitiativeTest";
};

/** Roll the injury of one put into the dying state: 1D10, plus five for each injury had. */
export type HealthTrauma_RollInjury = {
  combatant_id: string;
  dice?: number[] | null;
  type: "HTRollInjury";
};

export type HealthTrauma_RulesSet = {
  data: HealthTrauma_HealthTraumaData;
  type: "HTRulesSet";
};

/**
 * The GM sets the encounter's Health/Trauma data (before or during the fight): the Attack
 * Test, the injury chart, X, the maimed-part table, the saves, reactions and actions. Every
 * default is OURS, not the game's (the text leaves them open): see ``HealthTraumaData``.
 * ``data`` is a JSON Merge Patch of the current document (domain/core/settings.py).
 */
export type HealthTrauma_SetHealthTraumaRules = {
  /** A JSON Merge Patch (RFC 7396) of the encounter's current settings document: the fields named are changed (an object merged into the one there, null puts a field back to its default), the rest stay. The document's schema, with each default, is this command's `settings_schema` in `GET /rulesets/{ruleset_id}`. */
  data: {
    [key: string]: unknown;
  };
  dice?: number[] | null;
  type: "SetHealthTraumaRules";
};

/** End a character's dying (the text names stabilising but gives no test: the GM's call). */
export type HealthTrauma_Stabilise = {
  combatant_id: string;
  dice?: number[] | null;
  type: "HTStabilise";
};

export type HealthTrauma_Stabilised = {
  combatant_id: string;
  type: "HTStabilised";
};

/**
 * Take an action of the encounter's action list (a Quarter, Half, Full or Quick one);
 * ``weapon``: the sheet's weapon an action that draws one readies ("Draw a weapon").
 */
export type HealthTrauma_TakeAction = {
  action: string;
  combatant_id: string;
  dice?: number[] | null;
  type: "HTTakeAction";
  weapon?: string | null;
};

/** Medical treatment of a gut wound: no longer Dazed (the BSvs stays until recovered). */
export type HealthTrauma_TreatWound = {
  combatant_id: string;
  dice?: number[] | null;
  type: "HTTreatWound";
};

export type HealthTrauma_WoundTreated = {
  combatant_id: string;
  type: "HTWoundTreated";
};

/**
 * One initiative roll: ``who`` is a combatant id, or a group name such as ``npcs``.
 * A ``secret`` roll is the GM's, hidden from players until revealed.
 */
export type InitiativeRoll = {
  die: DieRoll;
  modifier: number;
  more_dice?: DieRoll[];
  secret?: boolean;
  total: number;
  who: string;
};

export type InitiativeRolled = {
  order: string[];
  rolls: InitiativeRoll[];
  secret?: boolean;
  type: "InitiativeRolled";
};

export type IssuedToken = {
  combatant_ids: string[];
  id: string;
  label: string;
  /** The page this token's holder opens, the token in its fragment: `{base}/#enc=...&token=...` (the GM's console), `{base}/play#enc=...&me=...&token=...` (a player's page) or `{base}/watch#enc=...&token=...` (the spectator view); `{base}` is the server's `FRACAS_PUBLIC_URL`, else the address the request reached it by. */
  link?: string;
  role: "gm" | "player" | "spectator";
  token: string;
};

export type IssuedWebhook = {
  created_at: string;
  delivered_version?: number | null;
  encounter_id: string | null;
  event_types: string[] | null;
  failures: number;
  format: "fracas" | "discord";
  last_attempt_at: string | null;
  last_error: string | null;
  last_status: number | null;
  last_success_at: string | null;
  secret: string;
  status: "active" | "paused";
  url: string;
  view: "spectator" | "gm";
  webhook_id: string;
};

export type LogEntry = {
  round: number;
  sentence: string;
  undone?: boolean;
  versions: number[];
};

export type NewCombatant = {
  controller: "gm" | "player";
  hidden?: boolean;
  name: string;
  sheet?: {
    [key: string]: unknown;
  };
  side: string;
};

/** ``{}`` (or no body): a new secret asks nothing more. */
export type NewSecret = Record<string, never>;

/** A player token acts for its combatants (one or more); a spectator token only reads. */
export type NewToken = {
  combatant_ids?: string[];
  label?: string;
  role: "player" | "spectator";
};

/**
 * ``url``: http(s), never a private address unless the operator allows it; ``view``: what it
 * receives as (a spectator's view, or the GM's); ``event_types``: only these (the types as the
 * view sees them, ``Redacted`` included; default: all); ``format``: ``fracas`` (the events and
 * the log's lines, signed) or ``discord`` (the log's lines as a Discord incoming webhook's
 * messages); ``after_version``: deliver the events after it (default: the current version).
 */
export type NewWebhook = {
  after_version?: number | null;
  event_types?: string[] | null;
  format?: "discord" | "fracas";
  url: string;
  view?: "gm" | "spectator";
};

export type NextMoves = {
  actions: Action[];
  out_of_fight?: string[];
  over: boolean;
  version: number;
  waiting_on: Waiting[];
};

/**
 * Perform the held actions at an IP lower than one's own (after one's turn), declared anew
 * (nothing: the hold lapses). ``ip`` (or ``at``, the combatant whose IP it is): the IP acted at;
 * none: now. At the IP of the one due to resolve next, Opposed Saving Throws say who goes first
 * (NovusRollOpposedSave); otherwise the actions resolve at once.
 */
export type Novus_ActHeld = {
  actions?: Novus_Action[];
  at?: string | null;
  combatant_id: string;
  defensive?: number;
  defensive_weapon?: string | null;
  dice?: number[] | null;
  ip?: number | null;
  type: "NovusActHeld";
};

/**
 * One declared action. An ``attack`` names its ``target`` and ``weapon`` (none: a Brawling
 * attack), with ``called_shot`` (-4 an arm or a leg, -8 the head), ``two_hands`` (a one-handed
 * weapon in both: +1 AP, +2 Base Damage), ``off_hand`` (-4 unless ambidextrous), ``improvised``
 * (the better of the skill and Brawling, -4, half damage), ``into_melee`` (a ranged attack into
 * a melee: -2), and ``position`` (from the ``flank``: +2, the ``rear``: +4). A ``move`` or ``run`` names the foes whose Control Zone it enters or crosses (``through``) and
 * leaves (``leaves``: no Opportunity Attack after a Disengage this round). A ``gm_action`` names one of the
 * encounter's Simple or Complex actions (``name``). An attack names the Combat Move it is made with
 * (``move``; none: the Basic Melee Attack, or the Basic Shot with a missile weapon) and, a shot, its
 * ``distance`` in feet (range penalties). ``multiple_weapon_attacks`` ("Multiple Weapon Attacks in 1 round",
 * 5 AP) names the first attack's ``target`` and ``weapon``, and each further one's in ``more_targets`` and
 * ``more_weapons``: the first is made at one's IP, the rest at the end of the round.
 */
export type Novus_Action = {
  called_shot?: ("arm" | "head" | "leg") | null;
  distance?: number | null;
  improvised?: boolean;
  into_melee?: boolean;
  kind: "attack" | "block" | "cast_spell" | "concentration" | "counterspell" | "disengage" | "dodge" | "draw_weapon" | "get_up" | "gm_action" | "instant_spell" | "mounted_charge" | "move" | "multiple_weapon_attacks" | "perception" | "reload_heavy_crossbow" | "reload_light_crossbow" | "reload_sling_bow" | "reroll_initiative" | "run" | "set_initiative";
  leaves?: string[];
  more_targets?: string[];
  more_weapons?: string[];
  move?: string | null;
  name?: string | null;
  near?: string[];
  of_multiple?: boolean;
  off_hand?: boolean;
  pace?: number;
  position?: "flank" | "front" | "rear";
  share?: number | null;
  split?: number[];
  target?: string | null;
  through?: string[];
  two_hands?: boolean;
  weapon?: string | null;
};

/**
 * The character holds: ``refund`` AP of the actions declared come back, ``lost`` AP are lost
 * (``refund_on``: those of actions aimed at one hidden from the table, by him, as ``ActionsDeclared``).
 */
export type Novus_ActionHeld = {
  combatant_id: string;
  lost?: number;
  refund?: number;
  refund_on?: {
    [key: string]: number;
  };
  type: "NovusActionHeld";
};

/**
 * A Simple or Complex action the GM has costed: "Simple Actions will normally take from 1 to
 * 2 AP"; "Complex Actions ... usually require somewhere between 2 and 5 AP".
 */
export type Novus_ActionRule = {
  ap: number;
  category: "complex" | "simple";
  name: string;
};

/**
 * A declared action other than an attack, performed (``lapsed``: its target is gone); a move's
 * ``reach``: how far (feet) each Control Zone it names reaches, those it goes through, then those it leaves.
 */
export type Novus_ActionTaken = {
  action: Novus_Action;
  combatant_id: string;
  lapsed?: boolean;
  reach?: number[];
  type: "NovusActionTaken";
};

/**
 * The declared actions are cancelled (their ``refund`` AP back), ``instead`` performed now (``ap``);
 * the AP of actions aimed at one hidden from the table apart, by him (``refund_on``, ``ap_on``).
 */
export type Novus_ActionsCancelled = {
  ap: number;
  ap_on?: {
    [key: string]: number;
  };
  combatant_id: string;
  instead: Novus_Action[];
  refund: number;
  refund_on?: {
    [key: string]: number;
  };
  type: "NovusActionsCancelled";
};

/**
 * ``ap``: the AP the actions take this round; ``carried``: the AP of the last one that run into
 * the next round (it "uses all of this round's AP"). Those of an action aimed at one hidden from the
 * table when declared are apart, by its target (``ap_on``, ``carried_on``): a player or a spectator
 * who does not see the target sees neither the action nor its AP (``total_ap``: all of them).
 */
export type Novus_ActionsDeclared = {
  actions: Novus_Action[];
  ap: number;
  ap_on?: {
    [key: string]: number;
  };
  carried?: number;
  carried_on?: {
    [key: string]: number;
  };
  combatant_id: string;
  defensive?: number;
  defensive_weapon?: string | null;
  type: "NovusActionsDeclared";
};

/** Every declared action of the character is resolved for this round. */
export type Novus_ActionsResolved = {
  combatant_id: string;
  type: "NovusActionsResolved";
};

/**
 * The chance of a hit, of each number of Boon Points (on a hit), of a Nova Roll, and the
 * distribution of the 2d10; ``bound``: the chance of the chains left out (each figure's error is less).
 */
export type Novus_AttackOdds = {
  boon_points: Novus_BoonChance[];
  bound: Novus_Chance;
  distribution: Novus_TotalChance[];
  hit: Novus_Chance;
  nova: Novus_Chance;
};

/**
 * 2d10 + Attack Bonus against DEF; on a hit Base Damage + Scaled Damage (1 a point over DEF)
 * less AR, and a Boon Point for every full 10 over. Totals off a sheet are that sheet's owner's:
 * a player sees an NPC's only as the hit, the Scaled Damage and the damage.
 */
export type Novus_AttackRolled = {
  armour?: number;
  attack_bonus: number;
  base_damage?: number;
  blocked?: boolean;
  boon_points?: number;
  called_shot?: ("arm" | "head" | "leg") | null;
  charge?: boolean;
  charge_damage?: number;
  combatant_id: string;
  damage?: number;
  defence: number;
  dice: DieRoll[];
  first?: boolean;
  head_boon_points?: number;
  hit: boolean;
  instead?: boolean;
  lightning?: boolean;
  move?: string | null;
  nova: boolean;
  opportunity?: boolean;
  opportunity_more?: number;
  rolled: number;
  scaled?: number;
  snag?: boolean;
  snag_points?: number;
  stray_near?: string[];
  target: string;
  total: number;
  type: "NovusAttackRolled";
  weapon: string;
};

/**
 * A Basic Block (N19): "roll your AB against TN 10 + the foe's AB. Both sides count only the AB
 * not shifted to DEF"; ``stopped``: the attack is stopped.
 */
export type Novus_BlockRolled = {
  attack_bonus: number;
  attacker: string;
  combatant_id: string;
  dice: DieRoll[];
  nova: boolean;
  rolled: number;
  stopped: boolean;
  tn: number;
  total: number;
  type: "NovusBlockRolled";
};

export type Novus_BoonChance = {
  boon_points: number;
  chance: Novus_Chance;
};

/**
 * A Combat Boon: its cost in Boon Points, whether it may be bought again (``repeatable``,
 * "+" in the table), what it adds to the damage of the attack that earned it, the Boons it
 * may not go with, and whether it is from the 2011 drafts (N16). A repeatable Boon ("2+": two
 * Boon Points or more) is named once for each Boon Point spent on it, at least ``cost`` times:
 * Attack Boost named 3 times is 3 BP, "+1 AB per BP".
 */
export type Novus_BoonRule = {
  cost?: number;
  damage?: "half_skill_ranks" | "none" | "strength_bonus" | "willpower_bonus";
  draft?: boolean;
  effect?: string;
  excludes?: string[];
  name: string;
  repeatable?: boolean;
};

/** The Boons bought with an attack's Boon Points; ``damage``: the attack's damage with them. */
export type Novus_BoonsSpent = {
  boons: string[];
  combatant_id: string;
  damage: number;
  extra_damage: number;
  target: string;
  type: "NovusBoonsSpent";
};

/**
 * Cancel one's declared actions before they resolve, and perform ``instead`` at once (none:
 * nothing): a melee attack at half AB, a move of up to 3 AP, another action at -5, an
 * Instantaneous defensive spell, Counterspell, or a Dodge.
 */
export type Novus_Cancel = {
  combatant_id: string;
  dice?: number[] | null;
  instead?: Novus_Action[];
  type: "NovusCancel";
};

/** A chance as a number and as an exact fraction (``numerator`` / ``denominator``). */
export type Novus_Chance = {
  chance: number;
  denominator: number;
  numerator: number;
};

/** A command of Novus (`novus`): one of its types, by `type`. */
export type Novus_Command = 
  | AddCombatant
  | RemoveCombatant
  | RollInitiative
  | SetTurnOrder
  | StartEncounter
  | EndTurn
  | EndEncounter
  | RevealCombatant
  | RevealRoll
  | Retcon
  | Novus_SetNovusRules
  | Novus_SetHaste
  | Novus_SetMounted
  | Novus_SetSurprised
  | Novus_Declare
  | Novus_Resolve
  | Novus_Cancel
  | Novus_Hold
  | Novus_ActHeld
  | Novus_SpendBoons
  | Novus_RollStraySave
  | Novus_RollSave
  | Novus_RollSkill
  | Novus_RollGroupPerception
  | Novus_Heal
  | Novus_Harm
  | Novus_RollOpposedSave
  | Novus_SpendSnags
  | React
  | PassReaction
  | CloseReactions;

/** ``damage`` hits taken; ``hit_points`` left (an NPC's are the GM's); ``helpless`` at 0 to -10. */
export type Novus_Damaged = {
  cause: string;
  combatant_id: string;
  damage: number;
  dead?: boolean;
  from_attack?: boolean;
  helpless?: boolean;
  hit_points: number;
  type: "NovusDamaged";
};

/**
 * Declare this round's actions, in turn from the lowest Initiative Point to the highest.
 * ``defensive``: Fighting Defensively, the points shifted from the Attack Bonus of the melee
 * weapon ``defensive_weapon`` (in hand) to DEF, +1 DEF for every 2, for the whole round.
 */
export type Novus_Declare = {
  actions?: Novus_Action[];
  combatant_id: string;
  defensive?: number;
  defensive_weapon?: string | null;
  dice?: number[] | null;
  type: "NovusDeclare";
};

/**
 * Basic Disarm (N19): "on a hit the foe saves vs Str at TN 15 + 1 for every 5 points the roll beat
 * DEF, or the weapon flies 1-10 ft" (``feet``, a d10, on a failure: the weapon is then disarmed).
 */
export type Novus_DisarmSaveRolled = {
  attacker: string;
  bonus: number;
  combatant_id: string;
  dice: DieRoll[];
  feet?: number;
  feet_dice?: DieRoll[];
  nova: boolean;
  passed: boolean;
  rolled: number;
  tn: number;
  total: number;
  type: "NovusDisarmSaveRolled";
  weapon: string;
};

/** An event of Novus (`novus`): one of its types, by `type`. */
export type Novus_Event = 
  | EncounterOpened
  | CombatantAdded
  | CombatantRemoved
  | InitiativeRolled
  | TurnOrderSet
  | EncounterStarted
  | RoundStarted
  | TurnEnded
  | EncounterEnded
  | CombatantRevealed
  | RollRevealed
  | Retconned
  | Novus_RulesSet
  | Novus_HasteSet
  | Novus_MountedSet
  | Novus_RidingRolled
  | Novus_SurpriseSet
  | Novus_ActionsDeclared
  | Novus_ActionHeld
  | Novus_HeldActionsTaken
  | Novus_ActionsCancelled
  | Novus_AttackRolled
  | Novus_BlockRolled
  | Novus_BoonsSpent
  | Novus_Damaged
  | Novus_Healed
  | Novus_ActionTaken
  | Novus_ActionsResolved
  | Novus_LateAttacksResolved
  | Novus_LateAttacksCancelled
  | Novus_InitiativeRerolled
  | Novus_StraySaveRolled
  | Novus_SkillRolled
  | Novus_SaveRolled
  | Novus_DisarmSaveRolled
  | Novus_OpposedSaveRolled
  | Novus_HeldActionsDue
  | Novus_SnagsSpent
  | ReactionsOpened
  | ReactionPassed
  | ReactionsClosed;

/** The GM deals ``amount`` hits outside an attack (a Bleeder, a fall), ``cause`` saying why. */
export type Novus_Harm = {
  amount: number;
  cause?: string;
  combatant_id: string;
  dice?: number[] | null;
  type: "NovusHarm";
};

export type Novus_HasteSet = {
  combatant_id: string;
  hasted: boolean;
  type: "NovusHasteSet";
};

/** The GM restores ``amount`` Hit Points (first aid, rest, a spell): never above the sheet's. */
export type Novus_Heal = {
  amount: number;
  combatant_id: string;
  dice?: number[] | null;
  type: "NovusHeal";
};

export type Novus_Healed = {
  amount: number;
  combatant_id: string;
  hit_points: number;
  type: "NovusHealed";
};

/** The one who won the Opposed Saving Throws has resolved: the held actions resolve now. */
export type Novus_HeldActionsDue = {
  combatant_id: string;
  type: "NovusHeldActionsDue";
};

/**
 * The held actions, declared anew now (``ap``), resolve at once; ``at``: taken at this one's IP,
 * they wait for the Opposed Saving Throws that say who goes first.
 */
export type Novus_HeldActionsTaken = {
  actions: Novus_Action[];
  ap: number;
  ap_on?: {
    [key: string]: number;
  };
  at?: string | null;
  combatant_id: string;
  defensive?: number;
  defensive_weapon?: string | null;
  type: "NovusHeldActionsTaken";
};

/**
 * Hold one's actions: before declaring, free; after declaring, 1 AP lost and the actions
 * re-declared (NovusActHeld) within what is left, at any IP lower than one's own.
 */
export type Novus_Hold = {
  combatant_id: string;
  dice?: number[] | null;
  type: "NovusHold";
};

/** Reroll Initiative: "This new IP will be the character's IP for the remainder of the combat". */
export type Novus_InitiativeRerolled = {
  roll: InitiativeRoll;
  type: "NovusInitiativeRerolled";
};

/** "he may still cancel his remaining attacks". */
export type Novus_LateAttacksCancelled = {
  combatant_id: string;
  type: "NovusLateAttacksCancelled";
};

/** The character's remaining attacks, made at the end of the round, are resolved. */
export type Novus_LateAttacksResolved = {
  combatant_id: string;
  type: "NovusLateAttacksResolved";
};

/**
 * The actions each limb is used for, and whether a useless limb refuses them (``useless_refuses``;
 * False: the GM rules on it).
 */
export type Novus_LimbRules = {
  arm?: ("attack" | "block" | "cast_spell" | "concentration" | "counterspell" | "disengage" | "dodge" | "draw_weapon" | "get_up" | "gm_action" | "instant_spell" | "mounted_charge" | "move" | "multiple_weapon_attacks" | "perception" | "reload_heavy_crossbow" | "reload_light_crossbow" | "reload_sling_bow" | "reroll_initiative" | "run" | "set_initiative")[];
  leg?: ("attack" | "block" | "cast_spell" | "concentration" | "counterspell" | "disengage" | "dodge" | "draw_weapon" | "get_up" | "gm_action" | "instant_spell" | "mounted_charge" | "move" | "multiple_weapon_attacks" | "perception" | "reload_heavy_crossbow" | "reload_light_crossbow" | "reload_sling_bow" | "reroll_initiative" | "run" | "set_initiative")[];
  useless_refuses?: boolean;
};

export type Novus_MountedSet = {
  combatant_id: string;
  mounted: boolean;
  trained?: boolean;
  type: "NovusMountedSet";
};

/**
 * One Combat Move: its name and Character Point cost (``cp``: 0 a Basic move, None an advanced one whose
 * cost was not found), its family, the action it is performed as, its stat line (``ab``, ``def``,
 * ``ap``: "BMA", "BMA+n" or a number; ``rng`` in feet, None: the weapon's) and its effects.
 */
export type Novus_MoveRule = {
  ab?: number;
  ap?: string;
  base_damage?: number;
  cp?: number | null;
  damage?: "base_and_scaled" | "base_only" | "none";
  def?: number;
  disarm?: boolean;
  edged_only?: boolean;
  effect?: string;
  family?: "melee" | "ranged" | "unarmed";
  ignores_armour?: boolean;
  name: string;
  not_defensive?: boolean;
  range_offset?: number;
  range_penalty?: number;
  rng?: number | null;
  use?: "attack" | "block" | "dodge";
};

/** The encounter's Novus settings (see the module's docstring for where each default is from). */
export type Novus_NovusData = {
  actions?: Novus_ActionRule[];
  boons?: Novus_BoonRule[];
  death_below?: number | null;
  held_save?: "charisma" | "constitution" | "dexterity" | "intelligence" | "speed" | "strength" | "willpower" | "wisdom";
  held_save_tie?: "holder" | "other" | "reroll";
  impairing_boons?: string[];
  limbs?: Novus_LimbRules;
  moves?: Novus_MoveRule[];
  snag_step?: number | null;
  snags?: Novus_SnagRule[];
  stray_modifiers?: ("dodge" | "shield")[];
  surprise_beaten_by?: number | null;
};

/**
 * An Opposed Saving Throw against ``against``; on the second one ``winner`` goes first (none
 * on a tie the GM has rolled again).
 */
export type Novus_OpposedSaveRolled = {
  against: string;
  bonus: number;
  combatant_id: string;
  dice: DieRoll[];
  nova: boolean;
  rolled: number;
  stat: "charisma" | "constitution" | "dexterity" | "intelligence" | "speed" | "strength" | "willpower" | "wisdom";
  total: number;
  type: "NovusOpposedSaveRolled";
  winner?: string | null;
};

/** Resolve one's declared actions at one's Initiative Point (from the highest to the lowest). */
export type Novus_Resolve = {
  combatant_id: string;
  dice?: number[] | null;
  type: "NovusResolve";
};

/**
 * A Riding skill roll, which costs no AP: each round a mounted character attacks (TN 23, 18 on a
 * mount trained for combat), or a Mounted Charge's pace (TN 20, 25, 30 at 2x, 3x, 4x); a failure
 * is "an additional -1 modifier to both his DEF and AB" this round.
 */
export type Novus_RidingRolled = {
  bonus: number;
  charge?: boolean;
  combatant_id: string;
  dice: DieRoll[];
  nova: boolean;
  passed: boolean;
  rolled: number;
  tn: number;
  total: number;
  type: "NovusRidingRolled";
};

/**
 * Surprise: "both groups are required to make a single perception roll, using the character with
 * the highest skill bonus": one roll for ``side``, by its best at Perception (the GM then names who is
 * surprised: the results table is missing, U-N1).
 */
export type Novus_RollGroupPerception = {
  dice?: number[] | null;
  side: string;
  type: "NovusRollGroupPerception";
};

/**
 * One side's Opposed Saving Throw, when a held action is taken at another's IP: 2d10 + the
 * GM's stat (held_save, Spd by default) bonus + 5; the higher total goes first.
 */
export type Novus_RollOpposedSave = {
  combatant_id: string;
  dice?: number[] | null;
  type: "NovusRollOpposedSave";
};

/** A Saving Throw: 2d10 + the stat's bonus + 5 against ``tn`` (base 15). */
export type Novus_RollSave = {
  combatant_id: string;
  dice?: number[] | null;
  stat: "charisma" | "constitution" | "dexterity" | "intelligence" | "speed" | "strength" | "willpower" | "wisdom";
  tn?: number;
  type: "NovusRollSave";
};

/**
 * A skill roll (N2): 2d10 + the skill's total bonus (the sheet's; none: 0) against ``tn``: First
 * Aid to stabilise oneself when helpless (TN 25, N22), a Riding roll, a Perception roll.
 */
export type Novus_RollSkill = {
  combatant_id: string;
  dice?: number[] | null;
  skill: string;
  tn?: number;
  type: "NovusRollSkill";
};

/**
 * Firing into melee, missed: the next one near the path makes a Saving Throw vs Spd against the
 * attack's total; a failure takes the Base Damage and a Scaled hit for each point it failed by.
 */
export type Novus_RollStraySave = {
  combatant_id: string;
  dice?: number[] | null;
  type: "NovusRollStraySave";
};

export type Novus_RulesSet = {
  data: Novus_NovusData;
  type: "NovusRulesSet";
};

export type Novus_SaveRolled = {
  bonus: number;
  combatant_id: string;
  dice: DieRoll[];
  nova: boolean;
  passed: boolean;
  rolled: number;
  stat: "charisma" | "constitution" | "dexterity" | "intelligence" | "speed" | "strength" | "willpower" | "wisdom";
  tn: number;
  total: number;
  type: "NovusSaveRolled";
};

/**
 * The GM Hastes a character (a spell, an item) or ends it: "a total of 10 AP for the round",
 * from the next round on.
 */
export type Novus_SetHaste = {
  combatant_id: string;
  dice?: number[] | null;
  hasted?: boolean;
  type: "NovusSetHaste";
};

/**
 * The GM says a character is mounted (or no longer): ``trained``, the mount is trained for combat
 * (Mounted Combat's Riding roll: TN 18, not 23).
 */
export type Novus_SetMounted = {
  combatant_id: string;
  dice?: number[] | null;
  mounted?: boolean;
  trained?: boolean;
  type: "NovusSetMounted";
};

/**
 * The GM sets the encounter's Novus settings (before or during the fight): the Combat Boons
 * allowed, the Combat Moves (the Basic Dodge among them), which actions use which limb, the Simple
 * and Complex actions and their AP, dying past helpless.
 * See ``NovusData`` for which default is the publisher's and which is ours. ``data`` is a JSON
 * Merge Patch of the current settings (domain/core/settings.py).
 */
export type Novus_SetNovusRules = {
  /** A JSON Merge Patch (RFC 7396) of the encounter's current settings document: the fields named are changed (an object merged into the one there, null puts a field back to its default), the rest stay. The document's schema, with each default, is this command's `settings_schema` in `GET /rulesets/{ruleset_id}`. */
  data: {
    [key: string]: unknown;
  };
  dice?: number[] | null;
  type: "SetNovusRules";
};

/**
 * The GM names who is surprised, before the fight starts (the Surprise results table is the
 * GM's: it was not found, novus-gaps U-N1): "-20 modifier to Initiative for the first round".
 */
export type Novus_SetSurprised = {
  dice?: number[] | null;
  surprised: string[];
  type: "NovusSetSurprised";
};

/** A skill roll; ``group``: the side a group Perception roll was made for. */
export type Novus_SkillRolled = {
  bonus: number;
  combatant_id: string;
  dice: DieRoll[];
  group?: string | null;
  nova: boolean;
  passed?: boolean | null;
  rolled: number;
  skill: string;
  tn?: number | null;
  total: number;
  type: "NovusSkillRolled";
};

/**
 * A Snag: its cost in Snag Points, what it does (``does``: the effect the engine applies; "none":
 * recorded for the GM), and whether it is only in combat.
 */
export type Novus_SnagRule = {
  combat?: boolean;
  cost?: number;
  does?: "break_item" | "break_weapon" | "fumble" | "hurt" | "none" | "strain" | "strike_friend";
  effect?: string;
  name: string;
};

/** The Snags bought; ``dice``: the 1d10 of hurting oneself; ``recorded``: the effects left to the GM. */
export type Novus_SnagsSpent = {
  combatant_id: string;
  dice?: DieRoll[];
  friend?: string | null;
  recorded?: string[];
  snags: string[];
  type: "NovusSnagsSpent";
  weapon?: string | null;
};

/**
 * Spend the Boon Points an attack earned, at once, on Boons the GM allows (none: forfeit them); a
 * "2+" Boon (Attack Boost, Inspiring Attack) is named once for each Boon Point spent on it.
 * ``lightning_target``: Lightning Attack's "another foe within range and sight" (range and sight are
 * the table's: the engine keeps no positions); none: the same foe.
 */
export type Novus_SpendBoons = {
  boons?: string[];
  combatant_id: string;
  dice?: number[] | null;
  lightning_target?: string | null;
  type: "NovusSpendBoons";
};

/**
 * The GM spends the Snag Points ``combatant_id``'s imploded attack roll earned, at once, on the
 * Snag table (none: they go unspent); ``friend``: the nearest friend in range, for a Snag that
 * strikes one (positions are not tracked).
 */
export type Novus_SpendSnags = {
  combatant_id: string;
  dice?: number[] | null;
  friend?: string | null;
  snags?: string[];
  type: "NovusSpendSnags";
};

/**
 * A Saving Throw vs Spd of one near the path of a missed shot into melee: the TN is the
 * attacker's total; on a failure ``damage``: Base Damage + 1 a point failed by, less AR.
 */
export type Novus_StraySaveRolled = {
  attacker: string;
  bonus: number;
  combatant_id: string;
  damage?: number;
  dice: DieRoll[];
  nova: boolean;
  passed: boolean;
  rolled: number;
  tn: number;
  total: number;
  type: "NovusStraySaveRolled";
};

export type Novus_SurpriseSet = {
  surprised: string[];
  type: "NovusSurpriseSet";
};

export type Novus_TotalChance = {
  chance: Novus_Chance;
  roll: number;
};

/**
 * Open an encounter. ``dice_policy``: ``seeded`` (the server rolls verifiable dice),
 * ``reported`` (clients report every face), or ``mixed`` (reported when given, else seeded).
 */
export type OpenEncounterRequest = {
  dice_policy?: "mixed" | "reported" | "seeded";
  name: string;
  ruleset: string;
};

export type OpenedEncounter = {
  encounter_id: string;
  events: EventView[];
  gm_token: IssuedToken;
  state: EncounterState;
  version: number;
};

/** Let the action waiting in ``window`` go on without reacting to it. */
export type PassReaction = {
  combatant_id: string;
  dice?: number[] | null;
  type: "PassReaction";
  window: string;
};

/** ``weapon``: the weapon a Notch Arrow, Reload Crossbow or Reload Gun loaded. */
export type PlacesOfPower_ActionTaken = {
  action: string;
  action_points: number;
  combatant_id: string;
  description?: string;
  type: "ActionTaken";
  weapon?: string | null;
};

/** The GM puts a Condition on a combatant. */
export type PlacesOfPower_ApplyCondition = {
  combatant_id: string;
  condition: "Angry" | "Anxious" | "Dazed" | "Distracted" | "Dizzy" | "Exhausted" | "Numb" | "Weakened";
  dice?: number[] | null;
  reason?: string;
  type: "ApplyCondition";
};

/**
 * The GM puts a Status Effect on a combatant. ``lasts``: ``end_of_round``, ``turns``
 * (then ``turns`` ≥ 1) or ``until_removed``. Frightened names its ``source`` (a combatant);
 * Entangled the ``difficulty`` of the Athletics check that frees it (default Normal).
 */
export type PlacesOfPower_ApplyStatus = {
  combatant_id: string;
  dice?: number[] | null;
  difficulty?: ("Difficult" | "Easy" | "Hard" | "Normal" | "Very Hard") | null;
  lasts?: "end_of_round" | "turns" | "until_removed";
  reason?: string;
  source?: string | null;
  status: "Bleeding" | "Blinded" | "Burning" | "Crippled" | "Deafened" | "Entangled" | "Exposed" | "Frightened" | "Paralysed" | "Staggered" | "Unconscious";
  turns?: number;
  type: "ApplyStatus";
};

/**
 * One piece of armour worn.
 *
 * ``value``: how much incoming damage it takes off; ``durability``: how many more Hits
 * it can be used for ("If the Durability reaches zero, then that piece of Armour is
 * destroyed and cannot be repaired later").
 */
export type PlacesOfPower_ArmourPiece = {
  durability: number;
  layer: "Base" | "Helmet" | "Outer" | "Skin";
  name: string;
  value: number;
};

/** The armour met the damage: ``pieces`` are the combatant's armour afterwards. */
export type PlacesOfPower_ArmourTook = {
  attack_id: number;
  combatant_id: string;
  damage: number;
  damage_through: number;
  destroyed: string[];
  pieces: PlacesOfPower_ArmourPiece[];
  type: "ArmourTook";
  used: string[];
};

/**
 * Attack a ``target`` with a weapon at hand (none: Unarmed, Brawling + Strength) at a range
 * ``band``. ``modifiers`` cost extra AP; ``aim``: where a Targeted Hit aims (``unarmoured``:
 * no armour save; ``head``: a ranged head shot). ``penalties``: how a Wounded or
 * Afflicted attacker pays each Penalty Point. Reported dice: the Attribute die, then the
 * weapon skill's die.
 */
export type PlacesOfPower_Attack = {
  aim?: "body" | "head" | "unarmoured";
  attack: "HeavyMelee" | "LightMelee" | "Ranged";
  band: "Close" | "Far" | "Long" | "Melee" | "Near";
  combatant_id: string;
  dice?: number[] | null;
  exposed?: "Advantage" | "Damage";
  from_behind?: boolean;
  modifiers?: ("Knockdown" | "Steady" | "TargetedHit")[];
  penalties?: string[];
  target: string;
  type: "Attack";
  weapon?: string | null;
};

export type PlacesOfPower_AttackDeclared = {
  action_points: number;
  aim: string;
  attack: string;
  attack_id: number;
  attacker: string;
  band: string;
  base_damage: number;
  defender: string;
  difficulty: string;
  from_behind?: boolean;
  gun: boolean;
  melee: boolean;
  modifiers: string[];
  penalties?: string[];
  type: "AttackDeclared";
  weapon: string;
};

export type PlacesOfPower_AttackRolled = {
  attack_id: number;
  dice: DieRoll[];
  extra: number;
  outcome: string;
  total: number;
  type: "AttackRolled";
};

/** The GM awards a Hero Point (creative play, a strong character moment, a good joke). */
export type PlacesOfPower_AwardHeroPoint = {
  combatant_id: string;
  dice?: number[] | null;
  reason?: string;
  type: "AwardHeroPoint";
};

/** An Action Point spent to regain the balance mishap 2 took: Evade, Parry and Dive again. */
export type PlacesOfPower_BalanceRegained = {
  action_points: number;
  combatant_id: string;
  type: "BalanceRegained";
};

/**
 * The held combatant tries to break free or turn the tables (2 AP, an opposed Brawling
 * roll at a 1-point penalty; free for the holder). ``reverse``: on a win, hold the holder.
 * ``penalties``: one per Penalty Point, ``StepDownDie`` (one of your dice) or ``IncreaseCost``.
 */
export type PlacesOfPower_BreakFree = {
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  reverse?: boolean;
  type: "BreakFree";
};

export type PlacesOfPower_BreakFreeRolled = {
  action_points: number;
  combatant_id: string;
  freed: boolean;
  holder: string;
  reversed: boolean;
  roll: PlacesOfPower_OpposedRolled;
  type: "BreakFreeRolled";
};

/**
 * An Entangled combatant's Athletics + Strength or Agility check at the difficulty the GM
 * set; success frees them. Once a turn; no Action Points (the text names none).
 */
export type PlacesOfPower_BreakLoose = {
  attribute?: "agility" | "strength";
  combatant_id: string;
  dice?: number[] | null;
  type: "BreakLoose";
};

/**
 * The GM calls for a check: the combatant rolls an Attribute + a Skill (``attribute``,
 * ``skill``) against a ``difficulty``. ``occupation``: the roll relates to the character's occupation (an
 * extra D6). ``no_reroll``: "Unless the GM states otherwise, re-rolls are always an option": the GM
 * states otherwise for this check. The check's id is the version of the event that calls it.
 */
export type PlacesOfPower_CallForCheck = {
  advantage?: boolean;
  attribute: "agility" | "charisma" | "dexterity" | "empathy" | "intelligence" | "perception" | "stamina" | "strength";
  combatant_id: string;
  dice?: number[] | null;
  difficulty: "Difficult" | "Easy" | "Hard" | "Normal" | "Very Hard";
  disadvantage?: boolean;
  no_reroll?: boolean;
  occupation?: boolean;
  reason?: string;
  skill: string;
  type: "CallForCheck";
};

/**
 * Cast a spell on your turn (AP and Mere by its complexity, see ``SetSpellCosts``): roll the
 * Mere skill + ``attribute``. A player names the Mere colour (``mere``, a Mere skill on the
 * sheet) and ``complexity`` (modifiers, 0..3); an Enemy with a Stat Block casts one of its Set
 * Spells by name (colour, complexity, Mere Cost and healing come from the block; Magic skill).
 * ``healing``: heals complexity + 1 Hits of ``target`` (default: yourself). Otherwise, with a
 * ``target``, the spell attacks at range ``band`` with complexity + 1 Hits of Base Damage and
 * the attack exchange follows. Reported dice: the Attribute die, then the Mere skill's die.
 */
export type PlacesOfPower_CastSpell = {
  attribute: "agility" | "charisma" | "dexterity" | "empathy" | "intelligence" | "perception" | "stamina" | "strength";
  band?: ("Close" | "Far" | "Long" | "Melee" | "Near") | null;
  combatant_id: string;
  complexity?: number | null;
  dice?: number[] | null;
  exposed?: "Advantage" | "Damage";
  healing?: boolean | null;
  mere?: string | null;
  penalties?: string[];
  spell: string;
  target?: string | null;
  type: "CastSpell";
};

export type PlacesOfPower_CheckCalled = {
  advantage?: boolean;
  attribute: string;
  check: number;
  combatant_id: string;
  difficulty: string;
  disadvantage?: boolean;
  no_reroll?: boolean;
  occupation?: boolean;
  reason?: string;
  skill: string;
  type: "CheckCalled";
};

export type PlacesOfPower_CheckEased = {
  check: number;
  difficulty: string;
  type: "CheckEased";
};

export type PlacesOfPower_CheckOutcomeChanged = {
  check: number;
  outcome: string;
  type: "CheckOutcomeChanged";
};

/** ``dice``: the Attribute die, the Skill die, then the occupation D6 if any. */
export type PlacesOfPower_CheckRolled = {
  advantage?: boolean;
  check: number;
  combatant_id: string;
  dice: DieRoll[];
  difficulty: string;
  disadvantage?: boolean;
  levels: number;
  outcome: string;
  reroll?: boolean;
  total: number;
  type: "CheckRolled";
};

/**
 * After a Critical Success on an attack, the attacker picks one addition
 * (``condition``: which one, for InflictCondition).
 */
export type PlacesOfPower_ChooseCriticalEffect = {
  attack: number;
  combatant_id: string;
  condition?: ("Angry" | "Anxious" | "Dazed" | "Distracted" | "Dizzy" | "Exhausted" | "Numb" | "Weakened") | null;
  dice?: number[] | null;
  effect: "BypassArmour" | "Disarm" | "ForceMoraleCheck" | "InflictCondition" | "Knockback" | "Knockdown" | "RefundActionPoint" | "UnavoidableHit";
  type: "ChooseCriticalEffect";
};

/** A command of Places of Power (`places-of-power`): one of its types, by `type`. */
export type PlacesOfPower_Command = 
  | AddCombatant
  | RemoveCombatant
  | RollInitiative
  | SetTurnOrder
  | StartEncounter
  | EndTurn
  | EndEncounter
  | RevealCombatant
  | RevealRoll
  | Retcon
  | PlacesOfPower_TakeAction
  | PlacesOfPower_GmCostedAction
  | PlacesOfPower_CallForCheck
  | PlacesOfPower_RollCheck
  | PlacesOfPower_ReRoll
  | PlacesOfPower_ApplyCondition
  | PlacesOfPower_RemoveCondition
  | PlacesOfPower_SetHits
  | PlacesOfPower_StartSession
  | PlacesOfPower_AwardHeroPoint
  | PlacesOfPower_SpendHeroPoint
  | PlacesOfPower_OpposedRoll
  | PlacesOfPower_WillpowerRoll
  | PlacesOfPower_LongRest
  | PlacesOfPower_Attack
  | PlacesOfPower_ChooseCriticalEffect
  | PlacesOfPower_SpendSuccesses
  | PlacesOfPower_Defend
  | PlacesOfPower_ResolveMishap
  | PlacesOfPower_RegainBalance
  | PlacesOfPower_Grapple
  | PlacesOfPower_ReleaseGrapple
  | PlacesOfPower_BreakFree
  | PlacesOfPower_Squeeze
  | PlacesOfPower_NonLethalAttack
  | PlacesOfPower_Taunt
  | PlacesOfPower_SwapWeapons
  | PlacesOfPower_Heal
  | PlacesOfPower_ApplyStatus
  | PlacesOfPower_RemoveStatus
  | PlacesOfPower_ResolveStatus
  | PlacesOfPower_Stabilise
  | PlacesOfPower_BreakLoose
  | PlacesOfPower_CastSpell
  | PlacesOfPower_SetSpellCosts
  | PlacesOfPower_SetMere
  | PlacesOfPower_SetInjuryTreatment
  | PlacesOfPower_TreatInjury
  | PlacesOfPower_PassDays
  | PlacesOfPower_SetRange
  | PlacesOfPower_Move
  | PlacesOfPower_FreeAction
  | PlacesOfPower_Disengage
  | PlacesOfPower_Shove
  | PlacesOfPower_MoraleCheck
  | PlacesOfPower_DemandSurrender
  | PlacesOfPower_Suppression
  | PlacesOfPower_UseSpecialAction
  | PlacesOfPower_PullYourPunch;

export type PlacesOfPower_ConditionRemoved = {
  combatant_id: string;
  condition: string;
  reason?: string;
  type: "ConditionRemoved";
};

export type PlacesOfPower_ConditionTaken = {
  combatant_id: string;
  condition: string;
  reason?: string;
  type: "ConditionTaken";
};

/** One side of an opposed roll. ``bonus``: a flat modifier the rules give (a shield's +2). */
export type PlacesOfPower_Contestant = {
  advantage?: boolean;
  attribute: "agility" | "charisma" | "dexterity" | "empathy" | "intelligence" | "perception" | "stamina" | "strength";
  bonus?: number;
  combatant_id: string;
  disadvantage?: boolean;
  skill: string;
};

export type PlacesOfPower_ContestantRolled = {
  bonus: number;
  combatant_id: string;
  dice: DieRoll[];
  total: number;
};

/** A Hero Point turned the incoming Critical Hit into a regular Hit. */
export type PlacesOfPower_CriticalDowngraded = {
  attack_id: number;
  type: "CriticalDowngraded";
};

export type PlacesOfPower_CriticalEffectChosen = {
  attack_id: number;
  condition?: string | null;
  effect: string;
  type: "CriticalEffectChosen";
};

/** ``recovered``: the Injuries these days healed completely (removed from the sheets). */
export type PlacesOfPower_DaysPassed = {
  days: number;
  recovered?: PlacesOfPower_RecoveredInjury[];
  type: "DaysPassed";
};

export type PlacesOfPower_DefenceRolled = {
  action_points: number;
  attack_id: number;
  defence: string;
  defender: string;
  dice?: DieRoll[];
  difficulty?: string;
  riposte?: boolean;
  success?: boolean;
  total?: number;
  type: "DefenceRolled";
};

/**
 * The defender answers an attack: an active defence (rolled), Tank, Human Shield, taking
 * it on the armour, or taking it. Reported dice: the defence's two dice.
 */
export type PlacesOfPower_Defend = {
  attack: number;
  combatant_id: string;
  defence: "Armour" | "Dive" | "Evade" | "HelmetSacrifice" | "HumanShield" | "Parry" | "TakeIt" | "Tank";
  dice?: number[] | null;
  penalties?: string[];
  type: "Defend";
};

/**
 * Demand Surrender (2 AP, on your turn) of a human target: your Strength + Persuasion
 * against the target's Morale. ``penalties``: how a Wounded or Afflicted combatant pays each
 * Penalty Point (``StepDownDie``, one of your dice, or ``IncreaseCost``). Reported
 * dice: your Strength die, then your Persuasion die.
 */
export type PlacesOfPower_DemandSurrender = {
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  target: string;
  type: "DemandSurrender";
};

/**
 * Pull back from melee (1 AP, once a round): Athletics + Agility at Normal. Success moves
 * you out of reach of everyone engaging you. Reported dice: Agility die, then Athletics.
 */
export type PlacesOfPower_Disengage = {
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  type: "Disengage";
};

/** ``ranges``: the bands to each opponent afterwards (on success). */
export type PlacesOfPower_DisengageRolled = {
  action_points: number;
  combatant_id: string;
  dice: DieRoll[];
  difficulty: string;
  outcome: string;
  ranges?: {
    [key: string]: string;
  };
  success: boolean;
  total: number;
  type: "DisengageRolled";
};

/** An event of Places of Power (`places-of-power`): one of its types, by `type`. */
export type PlacesOfPower_Event = 
  | EncounterOpened
  | CombatantAdded
  | CombatantRemoved
  | InitiativeRolled
  | TurnOrderSet
  | EncounterStarted
  | RoundStarted
  | TurnEnded
  | EncounterEnded
  | CombatantRevealed
  | RollRevealed
  | Retconned
  | PlacesOfPower_ActionTaken
  | PlacesOfPower_CheckCalled
  | PlacesOfPower_CheckRolled
  | PlacesOfPower_ConditionTaken
  | PlacesOfPower_ConditionRemoved
  | PlacesOfPower_SkillMarked
  | PlacesOfPower_HitsSet
  | PlacesOfPower_SessionStarted
  | PlacesOfPower_HeroPointAwarded
  | PlacesOfPower_HeroPointSpent
  | PlacesOfPower_CheckEased
  | PlacesOfPower_CheckOutcomeChanged
  | PlacesOfPower_OpposedRolled
  | PlacesOfPower_WillpowerTested
  | PlacesOfPower_SkillLevelRolled
  | PlacesOfPower_MarkCleared
  | PlacesOfPower_LongRestTaken
  | PlacesOfPower_AttackDeclared
  | PlacesOfPower_AttackRolled
  | PlacesOfPower_CriticalEffectChosen
  | PlacesOfPower_SuccessesSpent
  | PlacesOfPower_DefenceRolled
  | PlacesOfPower_ArmourTook
  | PlacesOfPower_HitsTaken
  | PlacesOfPower_KnockedProne
  | PlacesOfPower_MishapSuffered
  | PlacesOfPower_ExchangeEnded
  | PlacesOfPower_CriticalDowngraded
  | PlacesOfPower_HelmetSacrificed
  | PlacesOfPower_LethalBlow
  | PlacesOfPower_BalanceRegained
  | PlacesOfPower_GrappleAttempted
  | PlacesOfPower_GrappleEnded
  | PlacesOfPower_BreakFreeRolled
  | PlacesOfPower_Squeezed
  | PlacesOfPower_NonLethalAttackRolled
  | PlacesOfPower_TauntRolled
  | PlacesOfPower_WeaponsSwapped
  | PlacesOfPower_HealingRolled
  | PlacesOfPower_StatusApplied
  | PlacesOfPower_StatusRemoved
  | PlacesOfPower_StatusRolled
  | PlacesOfPower_SpellCast
  | PlacesOfPower_SpellRolled
  | PlacesOfPower_SpellCostsSet
  | PlacesOfPower_MereSet
  | PlacesOfPower_InjuryTreatmentSet
  | PlacesOfPower_InjuryTreated
  | PlacesOfPower_DaysPassed
  | PlacesOfPower_RangeSet
  | PlacesOfPower_Moved
  | PlacesOfPower_FreeActionTaken
  | PlacesOfPower_DisengageRolled
  | PlacesOfPower_ShoveRolled
  | PlacesOfPower_MoraleChecked
  | PlacesOfPower_SurrenderDemanded
  | PlacesOfPower_SuppressionFired
  | PlacesOfPower_SpecialActionUsed
  | PlacesOfPower_PunchPulled;

export type PlacesOfPower_ExchangeEnded = {
  attack_id: number;
  result: string;
  type: "ExchangeEnded";
};

/**
 * A free action, one of each kind a turn: ``SmallChangeOfPosition`` (between Melee and
 * Close of ``toward``: ``band``), ``PickUp`` / ``Drop`` / ``DrawWeapon`` (``item``: a weapon
 * name), ``ShoutCommand`` (``words``: a few short words).
 */
export type PlacesOfPower_FreeAction = {
  band?: ("Close" | "Far" | "Long" | "Melee" | "Near") | null;
  combatant_id: string;
  dice?: number[] | null;
  item?: string | null;
  kind: "DrawWeapon" | "Drop" | "PickUp" | "ShoutCommand" | "SmallChangeOfPosition";
  toward?: string | null;
  type: "FreeAction";
  words?: string | null;
};

export type PlacesOfPower_FreeActionTaken = {
  combatant_id: string;
  item?: string | null;
  kind: string;
  type: "FreeActionTaken";
  words?: string | null;
};

/**
 * A Non-Combat Task or the use of an Ability, at the cost the GM sets ("Non-Combat Task"
 * and "Use Ability" in the common actions): the GM's command, on the combatant's turn.
 */
export type PlacesOfPower_GmCostedAction = {
  action: "NonCombatTask" | "UseAbility";
  action_points: number;
  combatant_id: string;
  description: string;
  dice?: number[] | null;
  type: "GmCostedAction";
};

/**
 * Grapple a combatant in reach (2 AP, on your turn). Reported dice: your two dice, then
 * the target's.
 */
export type PlacesOfPower_Grapple = {
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  target: string;
  type: "Grapple";
};

export type PlacesOfPower_GrappleAttempted = {
  action_points: number;
  combatant_id: string;
  held: boolean;
  roll: PlacesOfPower_OpposedRolled;
  target: string;
  type: "GrappleAttempted";
};

export type PlacesOfPower_GrappleEnded = {
  controller: string;
  held: string;
  reason: string;
  type: "GrappleEnded";
};

/**
 * Healing (3 AP, on your turn): a Medical check to restore one Hit of the ``target`` (yourself
 * included, unless Helpless). ``attribute``: the one paired with Medical (most commonly
 * Dexterity or Intelligence). Reported dice: the Attribute die, then the Medical die.
 */
export type PlacesOfPower_Heal = {
  attribute?: "agility" | "charisma" | "dexterity" | "empathy" | "intelligence" | "perception" | "stamina" | "strength";
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  target: string;
  type: "Heal";
};

export type PlacesOfPower_HealingRolled = {
  action_points: number;
  dice: DieRoll[];
  difficulty: string;
  healed: boolean;
  healer: string;
  outcome: string;
  target: string;
  total: number;
  type: "HealingRolled";
};

export type PlacesOfPower_HelmetSacrificed = {
  attack_id: number;
  combatant_id: string;
  pieces: PlacesOfPower_ArmourPiece[];
  type: "HelmetSacrificed";
};

export type PlacesOfPower_HeroPointAwarded = {
  combatant_id: string;
  reason?: string;
  type: "HeroPointAwarded";
};

export type PlacesOfPower_HeroPointSpent = {
  check?: number | null;
  combatant_id: string;
  condition?: string | null;
  narration?: string;
  type: "HeroPointSpent";
  use: string;
};

export type PlacesOfPower_HitsSet = {
  combatant_id: string;
  hits: number;
  reason?: string;
  type: "HitsSet";
};

export type PlacesOfPower_HitsTaken = {
  attack_id: number;
  combatant_id: string;
  damage: number;
  dead: boolean;
  helpless: boolean;
  helpless_for_fight: boolean;
  hits: number;
  injuries: number;
  type: "HitsTaken";
};

/**
 * A treatment check. ``total_recovery_time`` None: the Injury remains untreated
 * (``needs_surgery``). ``permanent_condition``: the one applied, if any.
 */
export type PlacesOfPower_InjuryTreated = {
  attribute: string;
  dice: DieRoll[];
  difficulty: string;
  healer: string;
  injury: number;
  method: string;
  needs_surgery?: boolean;
  outcome: string;
  patient: string;
  permanent_condition?: string | null;
  recovery_roll?: DieRoll | null;
  total: number;
  total_recovery_time?: number | null;
  type: "InjuryTreated";
};

/**
 * The GM's terms for treating one Injury: "Injuries have a Base Recovery Time and a
 * Recovery Dice Value ... The GM will set the difficulty of the check, depending on the type
 * of Injury sustained." ``permanent_condition``: what the Injury leaves if a Permanent
 * Condition is applied (empty: the GM describes it later).
 */
export type PlacesOfPower_InjuryTreatment = {
  base_recovery_time: number;
  difficulty: "Difficult" | "Easy" | "Hard" | "Normal" | "Very Hard";
  permanent_condition?: string;
  recovery_die: "D10" | "D12" | "D20" | "D4" | "D6" | "D8";
};

export type PlacesOfPower_InjuryTreatmentSet = {
  injury: number;
  patient: string;
  treatment: PlacesOfPower_InjuryTreatment;
  type: "InjuryTreatmentSet";
};

export type PlacesOfPower_KnockedProne = {
  combatant_id: string;
  reason: string;
  type: "KnockedProne";
};

/**
 * The Hits getting through would kill a target who failed to defend: the attacker may
 * Pull their Punch (pull_your_punch.py) before they land.
 */
export type PlacesOfPower_LethalBlow = {
  attack_id: number;
  combatant_id: string;
  damage: number;
  type: "LethalBlow";
};

/**
 * The GM grants a Long Rest: every marked skill rolls to level up, marks are cleared,
 * Conditions are removed. ``mere_activation``: per combatant, the Mere skills (at D10 or
 * above) that take a Mere Activation Point instead of a level if their roll succeeds.
 * Reported dice: one D20 per marked skill, combatants in the order they were added,
 * skills in the order they were marked.
 */
export type PlacesOfPower_LongRest = {
  dice?: number[] | null;
  mere_activation?: {
    [key: string]: string[];
  };
  type: "LongRest";
};

/** Conditions are removed from everyone. */
export type PlacesOfPower_LongRestTaken = {
  type: "LongRestTaken";
};

/** A marked skill that cannot level further (D20) loses its mark. */
export type PlacesOfPower_MarkCleared = {
  combatant_id: string;
  skill: string;
  type: "MarkCleared";
};

export type PlacesOfPower_MereSet = {
  combatant_id: string;
  mere: number;
  reason?: string;
  type: "MereSet";
};

export type PlacesOfPower_MishapSuffered = {
  attack_id: number;
  combatant_id: string;
  die?: DieRoll | null;
  result: number;
  type: "MishapSuffered";
};

/**
 * The GM tests NPCs' Morale (a Force Morale Check, or whenever the story calls for one):
 * the NPCs named in ``combatant_ids``, or every remaining NPC (not dead, Helpless or fled)
 * on a ``side`` (say, the side a Critical Hit's attacker fights). ``one_roll``: one D20 for
 * them all ("The GM can roll a single check for all of the remaining NPCs"), else one each.
 * Each NPC holds at or under its own Morale; those that fail flee the battle. Reported dice:
 * the one D20, or one per NPC in the order named (by ``side``: the order they were added).
 */
export type PlacesOfPower_MoraleCheck = {
  combatant_ids?: string[];
  dice?: number[] | null;
  one_roll?: boolean;
  reason?: string;
  side?: string | null;
  type: "MoraleCheck";
};

/** ``fled``: the NPCs whose Morale broke; they flee the battle. */
export type PlacesOfPower_MoraleChecked = {
  dice: DieRoll[];
  fled: string[];
  reason?: string;
  tests: PlacesOfPower_MoraleTest[];
  type: "MoraleChecked";
};

/** One combatant's Morale Check: ``die`` is the index of its D20 in the event's ``dice``. */
export type PlacesOfPower_MoraleTest = {
  combatant_id: string;
  die: number;
  held: boolean;
  morale: number;
};

/**
 * Use the turn's movement to go to a range ``band`` from a combatant (``toward``), nearer or
 * farther.
 */
export type PlacesOfPower_Move = {
  band: "Close" | "Far" | "Long" | "Melee" | "Near";
  combatant_id: string;
  dice?: number[] | null;
  toward: string;
  type: "Move";
};

export type PlacesOfPower_Moved = {
  band: string;
  combatant_id: string;
  free?: boolean;
  from_band: string;
  half_steps: number;
  partway?: boolean;
  toward: string;
  type: "Moved";
};

/**
 * Trip or Disarm a combatant in reach with the weapon in your hand (none: Unarmed).
 * Reported dice: your two dice, then the target's.
 */
export type PlacesOfPower_NonLethalAttack = {
  combatant_id: string;
  dice?: number[] | null;
  move: "Disarm" | "Trip";
  penalties?: string[];
  target: string;
  type: "NonLethalAttack";
  weapon?: string | null;
};

export type PlacesOfPower_NonLethalAttackRolled = {
  action_points: number;
  combatant_id: string;
  move: string;
  roll: PlacesOfPower_OpposedRolled;
  success: boolean;
  target: string;
  type: "NonLethalAttackRolled";
  weapon_lost?: string | null;
};

/** The chance of each outcome class of a Places of Power check, by enumeration. */
export type PlacesOfPower_Odds = {
  dice: string[];
  difficulty: string;
  outcomes: {
    [key: string]: PlacesOfPower_OutcomeOdds;
  };
};

/**
 * The GM has two combatants roll against each other; the higher total wins. Reported
 * dice: the first side's two dice, then the second side's.
 */
export type PlacesOfPower_OpposedRoll = {
  dice?: number[] | null;
  first: PlacesOfPower_Contestant;
  reason?: string;
  second: PlacesOfPower_Contestant;
  type: "OpposedRoll";
};

/**
 * ``winner``: the higher total (None on a tie: the GM decides); ``by_a_level``: the
 * winner's total reached a difficulty level above the one the loser's reached.
 */
export type PlacesOfPower_OpposedRolled = {
  by_a_level: boolean;
  reason?: string;
  sides: PlacesOfPower_ContestantRolled[];
  type: "OpposedRolled";
  winner: string | null;
};

/** An exact chance: ``numerator`` / ``denominator`` of all the ways the dice can fall. */
export type PlacesOfPower_OutcomeOdds = {
  denominator: number;
  numerator: number;
  probability: number;
};

/**
 * The GM lets in-game ``days`` pass, between fights: every treated Injury's Total
 * Recovery Time drops by as many; at zero the Injury is recovered and removed.
 */
export type PlacesOfPower_PassDays = {
  days: number;
  dice?: number[] | null;
  type: "PassDays";
};

/**
 * The attacker's answer to a lethal blow: pull the punch (``pull``: 1 AP, re-roll the
 * attack) or let it land. Reported dice: the attack's two dice again.
 */
export type PlacesOfPower_PullYourPunch = {
  attack: number;
  combatant_id: string;
  dice?: number[] | null;
  pull?: boolean;
  type: "PullYourPunch";
};

export type PlacesOfPower_PunchPulled = {
  action_points: number;
  attack_id: number;
  combatant_id: string;
  dice: DieRoll[];
  difficulty: string;
  success: boolean;
  total: number;
  type: "PunchPulled";
};

export type PlacesOfPower_RangeSet = {
  a: string;
  b: string;
  band: string;
  reason?: string;
  type: "RangeSet";
};

/**
 * Re-roll a failed (not critically failed) check, once. The Attribute's Condition is
 * taken, the re-roll is at Disadvantage, and failing it is a Critical Failure.
 */
export type PlacesOfPower_ReRoll = {
  check: number;
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  type: "ReRoll";
};

export type PlacesOfPower_RecoveredInjury = {
  combatant_id: string;
  injury: number;
};

/**
 * Spend an Action Point to regain your balance after mishap 2, so Evade, Parry and Dive are yours again.
 *
 * "2. You are left unbalanced and struggling to keep your feel. You can spend an Action Point
 * to regain your balance, otherwise you cannot use Evade, Parry, or Dive for the rest of this
 * round." Any time in that round, on your turn or when attacked. ``penalties``: how a
 * Wounded or Afflicted combatant pays each Penalty Point (``IncreaseCost``).
 */
export type PlacesOfPower_RegainBalance = {
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  type: "RegainBalance";
};

/** The combatant in control lets go (a free action). */
export type PlacesOfPower_ReleaseGrapple = {
  combatant_id: string;
  dice?: number[] | null;
  type: "ReleaseGrapple";
};

/** The GM removes a Condition. */
export type PlacesOfPower_RemoveCondition = {
  combatant_id: string;
  condition: "Angry" | "Anxious" | "Dazed" | "Distracted" | "Dizzy" | "Exhausted" | "Numb" | "Weakened";
  dice?: number[] | null;
  reason?: string;
  type: "RemoveCondition";
};

/** The GM removes a Status Effect (its cause dealt with, a spell, the story). */
export type PlacesOfPower_RemoveStatus = {
  combatant_id: string;
  dice?: number[] | null;
  reason?: string;
  status: "Bleeding" | "Blinded" | "Burning" | "Crippled" | "Deafened" | "Entangled" | "Exposed" | "Frightened" | "Paralysed" | "Staggered" | "Unconscious";
  type: "RemoveStatus";
};

/** The GM settles a Critical Miss: a ``result`` of 1-6 from the table, or none to roll the D6. */
export type PlacesOfPower_ResolveMishap = {
  attack: number;
  dice?: number[] | null;
  result?: number | null;
  type: "ResolveMishap";
};

/**
 * Settle a Bleeding or Burning that fell due as the turn began (the bearer's player or
 * the GM). Reported dice: Bleeding, the Stamina die then the Medical die; Burning with a
 * Rosmere Affinity of 5, the Stamina die then the Rosmere die.
 */
export type PlacesOfPower_ResolveStatus = {
  combatant_id: string;
  dice?: number[] | null;
  status: "Bleeding" | "Burning";
  type: "ResolveStatus";
};

/**
 * Roll a check the GM called for. Reported dice: the Attribute die, the Skill die (as
 * stepped by Advantage or Disadvantage, and by penalties), then the occupation D6.
 * ``penalties``: how a Wounded or Afflicted character pays each Penalty Point
 * (``IncreaseDifficulty`` or ``StepDownDie``).
 */
export type PlacesOfPower_RollCheck = {
  check: number;
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  type: "RollCheck";
};

export type PlacesOfPower_SessionStarted = {
  hero_points: {
    [key: string]: number;
  };
  session: number;
  type: "SessionStarted";
};

/** The GM sets how many Hits a combatant has taken (0: unhurt, 4: Helpless). */
export type PlacesOfPower_SetHits = {
  combatant_id: string;
  dice?: number[] | null;
  hits: number;
  type: "SetHits";
};

/**
 * The GM sets how an Injury (``injury``) of a ``patient`` is treated: the check's
 * ``difficulty`` ("depending on the type of Injury sustained"), its ``base_recovery_time``
 * in days and ``recovery_die`` (the Recovery Dice Value), and the ``permanent_condition`` it
 * leaves if one is applied. Not during the fight; again, to change them, until it is treated.
 */
export type PlacesOfPower_SetInjuryTreatment = {
  base_recovery_time: number;
  dice?: number[] | null;
  difficulty: "Difficult" | "Easy" | "Hard" | "Normal" | "Very Hard";
  injury: number;
  patient: string;
  permanent_condition?: string;
  recovery_die: "D10" | "D12" | "D20" | "D4" | "D6" | "D8";
  type: "SetInjuryTreatment";
};

/** The GM sets how much Mere a combatant has left to cast with (restoring it, say). */
export type PlacesOfPower_SetMere = {
  combatant_id: string;
  dice?: number[] | null;
  mere: number;
  type: "SetMere";
};

/** The GM places two combatants at a range band from each other. */
export type PlacesOfPower_SetRange = {
  a: string;
  b: string;
  band: "Close" | "Far" | "Long" | "Melee" | "Near";
  dice?: number[] | null;
  type: "SetRange";
};

/**
 * The GM sets what spells cost: four entries, for complexity 0, 1, 2 and 3, each with its
 * Action Points, Mere and casting difficulty. Both costs must rise with the complexity.
 */
export type PlacesOfPower_SetSpellCosts = {
  costs: PlacesOfPower_SpellCost[];
  dice?: number[] | null;
  type: "SetSpellCosts";
};

/**
 * Shove a target at Melee or Close range to Near (1 AP): opposed Athletics + Strength,
 * +2 with a shield at hand. ``edge``: the GM says the target stands at an edge: a
 * successful shove makes them fall (Prone; the GM applies the Fall Damage). Reported dice:
 * your two dice, then the target's.
 */
export type PlacesOfPower_Shove = {
  combatant_id: string;
  dice?: number[] | null;
  edge?: boolean;
  penalties?: string[];
  target: string;
  type: "Shove";
};

export type PlacesOfPower_ShoveRolled = {
  action_points: number;
  combatant_id: string;
  fell?: boolean;
  roll: PlacesOfPower_OpposedRolled;
  success: boolean;
  target: string;
  type: "ShoveRolled";
};

/**
 * ``to_die``: the skill's new die when it levelled up; ``activation_point``: a Mere
 * Activation Point was taken instead.
 */
export type PlacesOfPower_SkillLevelRolled = {
  activation_point?: boolean;
  combatant_id: string;
  die: DieRoll;
  from_die: string;
  skill: string;
  success: boolean;
  target: number;
  to_die?: string | null;
  type: "SkillLevelRolled";
};

/**
 * A Critical Success or Critical Failure marks the skill used, for levelling up. The skill is a
 * value of the sheet: who may not see an NPC's sheet does not see which.
 */
export type PlacesOfPower_SkillMarked = {
  combatant_id: string;
  skill: string;
  type: "SkillMarked";
};

export type PlacesOfPower_SpecialActionUsed = {
  action_points: number;
  combatant_id: string;
  name: string;
  note?: string;
  once_per_combat: boolean;
  type: "SpecialActionUsed";
};

/**
 * A spell was cast and its Mere spent. A damaging spell's attack follows
 * (``attack_id``); any other spell's roll follows in ``SpellRolled``.
 */
export type PlacesOfPower_SpellCast = {
  attack_id?: number | null;
  caster: string;
  complexity: number;
  healing: boolean;
  mere: string;
  mere_spent: number;
  spell: string;
  target?: string | null;
  type: "SpellCast";
};

/** What casting a spell of one complexity costs, and the difficulty it is rolled at. */
export type PlacesOfPower_SpellCost = {
  action_points: number;
  difficulty?: "Difficult" | "Easy" | "Hard" | "Normal" | "Very Hard";
  mere: number;
};

export type PlacesOfPower_SpellCostsSet = {
  costs: PlacesOfPower_SpellCost[];
  type: "SpellCostsSet";
};

/**
 * The roll of a spell that is not an attack; ``hits_healed``: Hits a healing spell took
 * off the target.
 */
export type PlacesOfPower_SpellRolled = {
  action_points: number;
  caster: string;
  dice: DieRoll[];
  difficulty: string;
  hits_healed?: number;
  outcome: string;
  spell: string;
  target?: string | null;
  total: number;
  type: "SpellRolled";
};

/**
 * Spend a Hero Point. ``ReduceDifficulty`` (a called ``check``, before it is rolled),
 * ``RemoveCondition`` (``condition``), ``RestoreHit``, ``DowngradeCriticalHit`` (an
 * incoming Critical Hit), ``ReduceCriticalFailure`` (a rolled ``check``), ``CheatDeath``
 * (back to a single Hit), ``Flashback`` (``narration``; the GM may call for a check).
 */
export type PlacesOfPower_SpendHeroPoint = {
  check?: number | null;
  combatant_id: string;
  condition?: ("Angry" | "Anxious" | "Dazed" | "Distracted" | "Dizzy" | "Exhausted" | "Numb" | "Weakened") | null;
  dice?: number[] | null;
  narration?: string;
  type: "SpendHeroPoint";
  use: "CheatDeath" | "DowngradeCriticalHit" | "Flashback" | "ReduceCriticalFailure" | "ReduceDifficulty" | "RemoveCondition" | "RestoreHit";
};

/** Spend each extra Success on ``Damage`` (+1 Hit) or ``Precision`` (+1 defence level). */
export type PlacesOfPower_SpendSuccesses = {
  attack: number;
  combatant_id: string;
  dice?: number[] | null;
  split: ("Damage" | "Precision")[];
  type: "SpendSuccesses";
};

/** The holder spends 2 AP to inflict 1 Hit of unavoidable damage on the held. */
export type PlacesOfPower_Squeeze = {
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  type: "Squeeze";
};

export type PlacesOfPower_Squeezed = {
  action_points: number;
  controller: string;
  held: string;
  type: "Squeezed";
};

/**
 * Stabilise (3 AP, on your turn): a Medical check, at the difficulty for the target's
 * Hits, to remove one Status Effect of the ``target``. Reported dice: the Attribute die, then
 * the Medical die.
 */
export type PlacesOfPower_Stabilise = {
  attribute?: "agility" | "charisma" | "dexterity" | "empathy" | "intelligence" | "perception" | "stamina" | "strength";
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  status: "Bleeding" | "Blinded" | "Burning" | "Crippled" | "Deafened" | "Entangled" | "Exposed" | "Frightened" | "Paralysed" | "Staggered" | "Unconscious";
  target: string;
  type: "Stabilise";
};

/** The GM starts a play session: every player character's Hero Points are set to 1. */
export type PlacesOfPower_StartSession = {
  dice?: number[] | null;
  type: "StartSession";
};

/**
 * ``lasts``: until the end of the round it was applied in (``round``), for ``turns`` of
 * the combatant's own turns, or until removed. ``source``: the combatant a Frightened
 * character fears; ``difficulty``: the Athletics check that frees an Entangled one;
 * ``level``: how many turns a Bleeding has gone on (its check starts Easy and rises).
 */
export type PlacesOfPower_Status = {
  difficulty?: string | null;
  due?: boolean;
  lasts?: "end_of_round" | "turns" | "until_removed";
  level?: number;
  name: "Bleeding" | "Blinded" | "Burning" | "Crippled" | "Deafened" | "Entangled" | "Exposed" | "Frightened" | "Paralysed" | "Staggered" | "Unconscious";
  reason?: string;
  round?: number;
  source?: string | null;
  turns?: number;
  used?: number;
};

export type PlacesOfPower_StatusApplied = {
  combatant_id: string;
  status: PlacesOfPower_Status;
  type: "StatusApplied";
};

export type PlacesOfPower_StatusRemoved = {
  combatant_id: string;
  reason?: string;
  status: string;
  type: "StatusRemoved";
};

/**
 * A check a status called for: a Bleeding or Burning check, Stabilise, breaking loose.
 * ``removed``: the status is gone; ``hits``: Hits the status dealt (then the harm fields).
 */
export type PlacesOfPower_StatusRolled = {
  action_points?: number;
  check: "Bleeding" | "BreakLoose" | "Burning" | "Stabilise";
  combatant_id: string;
  dead?: boolean;
  dice?: DieRoll[];
  difficulty?: string;
  healer?: string | null;
  helpless?: boolean;
  helpless_for_fight?: boolean;
  hits?: number;
  hits_after?: number;
  injuries?: number;
  outcome?: string;
  removed?: boolean;
  status: string;
  total?: number;
  type: "StatusRolled";
};

export type PlacesOfPower_SuccessesSpent = {
  attack_id: number;
  damage: number;
  defence_difficulty: string;
  split: string[];
  type: "SuccessesSpent";
};

/**
 * Suppression (2 AP, on your turn): a shot at the cover the ``targets`` are behind (each must
 * be in cover) with a ranged weapon at hand (``weapon``; none named: the first ranged weapon
 * at hand, loaded: domain/places_of_power/loading.py). Each target
 * rolls a Morale Check; NPCs that fail cannot act until the next round. Reported dice: one
 * D20 per target, in the order named.
 */
export type PlacesOfPower_Suppression = {
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  targets: string[];
  type: "Suppression";
  weapon?: string | null;
};

/** ``suppressed``: the NPCs that failed their Morale Check, unable to act this round. */
export type PlacesOfPower_SuppressionFired = {
  action_points: number;
  combatant_id: string;
  dice: DieRoll[];
  suppressed: string[];
  tests: PlacesOfPower_MoraleTest[];
  type: "SuppressionFired";
  weapon: string;
};

/**
 * ``roll``: the demander's Strength + Persuasion against the target's Morale (the target's
 * side has no dice: its total is its Morale value). ``weapons_dropped``: on a success, the
 * target's weapons at hand, now on the floor.
 */
export type PlacesOfPower_SurrenderDemanded = {
  action_points: number;
  combatant_id: string;
  roll: PlacesOfPower_OpposedRolled;
  success: boolean;
  target: string;
  type: "SurrenderDemanded";
  weapons_dropped: string[];
};

/**
 * Put weapons at hand away (``put_away``) and take carried ones (``take``). In a fight it
 * is done on your turn and costs 3 AP for each weapon taken or put away beyond a pair:
 * 3 AP a swap.
 */
export type PlacesOfPower_SwapWeapons = {
  combatant_id: string;
  dice?: number[] | null;
  put_away?: string[];
  take?: string[];
  type: "SwapWeapons";
};

/**
 * A common action on your own turn; costs the Action Points listed for it.
 * ``penalties``: how a Wounded or Afflicted combatant pays each Penalty Point (for an
 * action without a roll, ``IncreaseCost``). ``weapon``: the one Notch Arrow, Reload Crossbow or
 * Reload Gun loads (none: the first at hand it loads that a shot spent).
 */
export type PlacesOfPower_TakeAction = {
  action: "ClimbLeap" | "Dash" | "EquipArmour" | "InventoryItem" | "NotchArrow" | "ReloadCrossbow" | "ReloadGun" | "RemoveArmour" | "Stand" | "TakeCover";
  combatant_id: string;
  dice?: number[] | null;
  penalties?: string[];
  type: "TakeAction";
  weapon?: string | null;
};

/**
 * Taunt an NPC (1 AP, on your turn): Persuasion + Strength at Normal if the NPC has not
 * yet engaged in the combat, Difficult if it has. The GM decides the effect on its Combat
 * Stance. Reported dice: the Strength die, then the Persuasion die.
 */
export type PlacesOfPower_Taunt = {
  combatant_id: string;
  dice?: number[] | null;
  engaged: boolean;
  penalties?: string[];
  target: string;
  type: "Taunt";
};

export type PlacesOfPower_TauntRolled = {
  action_points: number;
  combatant_id: string;
  dice: DieRoll[];
  difficulty: string;
  outcome: string;
  target: string;
  total: number;
  type: "TauntRolled";
};

/**
 * A ``healer`` treats an Injury (``injury``) of a ``patient`` with a Surgery or Medical
 * check (``method``) at the difficulty the GM set (``SetInjuryTreatment``), pairing the skill
 * with an ``attribute``. Not during the fight. Reported dice: the Attribute die, the skill
 * die, then the Recovery Dice when the outcome rolls it (Surgery succeeding, Medical
 * succeeding critically).
 */
export type PlacesOfPower_TreatInjury = {
  attribute?: "agility" | "charisma" | "dexterity" | "empathy" | "intelligence" | "perception" | "stamina" | "strength";
  dice?: number[] | null;
  healer: string;
  injury: number;
  method: "Medical" | "Surgery";
  patient: string;
  type: "TreatInjury";
};

/**
 * The GM has an Enemy use a Special Action from its Stat Block on its turn, paying the
 * Action Points the block lists. One a turn; one marked ``once_per_combat`` only once in the
 * fight. Its effect is the GM's to apply (``note``: what it did). ``penalties``: how a
 * Wounded or Afflicted Enemy pays each Penalty Point (``IncreaseCost``).
 */
export type PlacesOfPower_UseSpecialAction = {
  combatant_id: string;
  dice?: number[] | null;
  name: string;
  note?: string;
  penalties?: string[];
  type: "UseSpecialAction";
};

export type PlacesOfPower_WeaponsSwapped = {
  action_points: number;
  combatant_id: string;
  put_away: string[];
  take: string[];
  type: "WeaponsSwapped";
};

/** The GM tests a combatant's willpower or morale: a D20 at or under Willpower holds. */
export type PlacesOfPower_WillpowerRoll = {
  combatant_id: string;
  dice?: number[] | null;
  reason?: string;
  type: "WillpowerRoll";
};

export type PlacesOfPower_WillpowerTested = {
  combatant_id: string;
  die: DieRoll;
  held: boolean;
  reason?: string;
  type: "WillpowerTested";
  willpower: number;
};

export type Presence = {
  combatants: string[];
  connections?: Connected[] | null;
  roles: {
    [key: string]: number;
  };
};

export type ProblemDetails = {
  code: string;
  detail?: string | null;
  details?: {
    [key: string]: unknown;
  } | null;
  instance?: string | null;
  status: number;
  title: string;
  type?: string;
};

/** React to the action waiting in ``window`` with ``reaction`` (one of its choices). */
export type React = {
  combatant_id: string;
  dice?: number[] | null;
  reaction: string;
  type: "React";
  window: string;
};

export type ReactionPassed = {
  combatant_id: string;
  type: "ReactionPassed";
  window: string;
};

/**
 * An action waiting for reactions. ``id``: what the window is for (stable while open);
 * ``actor``: whose action waits; ``may_react``: who may answer; ``reactions``: the legal
 * reactions; ``answers``: who answered, with their reaction or ``"pass"``.
 */
export type ReactionWindow = {
  actor: string;
  answers?: {
    [key: string]: string;
  };
  id: string;
  may_react: string[];
  reactions: string[];
  trigger?: string;
};

/** The GM closed the window: ``passed`` had not answered. */
export type ReactionsClosed = {
  passed: string[];
  type: "ReactionsClosed";
  window: string;
};

export type ReactionsOpened = {
  type: "ReactionsOpened";
  window: ReactionWindow;
};

/**
 * An Action and its AP (``free``: the initiator's first Action, or a free Interaction or
 * Ability Roll); its D20 roll, if any, with the Multiple Action Penalty (``penalty``).
 */
export type Realms_ActionTaken = {
  action: string;
  action_points: number;
  against?: number | null;
  combatant_id: string;
  degrees?: number | null;
  description?: string;
  die?: DieRoll | null;
  discarded?: DieRoll | null;
  free?: boolean;
  help?: number;
  partial?: string | null;
  penalty?: number;
  prepared?: boolean;
  roll_with?: string | null;
  spaces?: number;
  split?: boolean;
  total?: number | null;
  type: "RealmsActionTaken";
};

/**
 * The RM puts a condition on a creature (R24), ``level`` for a leveled one, and the Defence and
 * Difficulty Score or Potency its End-of-Turn Overcome rolls against (none: not overcome by a
 * roll), and for Charmed or Frightened its ``source``. "Conditions don't stack": a creature has each
 * once; the RM's new one replaces the old.
 */
export type Realms_ApplyCondition = {
  combatant_id: string;
  condition: "bleed" | "blinded" | "charmed" | "dazed" | "deafened" | "exhausted" | "exposed" | "faint" | "frightened" | "grappled" | "hidden" | "immobile" | "invisible" | "prone" | "resilient" | "restrained" | "slowed" | "staggered" | "stunned" | "susceptible" | "weakened";
  defence?: ("discernment" | "fortitude" | "mental_fortitude" | "might" | "reflexes" | "resolve") | null;
  dice?: number[] | null;
  level?: number;
  score?: number | null;
  source?: string | null;
  type: "RealmsApplyCondition";
};

/**
 * Attack ``target`` at ``distance`` spaces with ``weapon`` (a weapon on the sheet, ``Unarmed``
 * or ``Improvised``; default the first weapon) or ``power`` (a Power on the sheet, with its AP
 * and Energy): a Basic Action (2 AP). ``off_hand``: the dual wielder's Quick Action attack;
 * ``quick``: Unarmed Prowess's Quick Attack; ``thrown``: an improvised weapon thrown;
 * ``non_lethal``: declared before dealing damage. Dice: the d20, then the damage dice.
 */
export type Realms_Attack = {
  collateral?: Realms_Collateral | null;
  combatant_id: string;
  determination?: boolean;
  dice?: number[] | null;
  distance?: number;
  non_lethal?: boolean;
  obscurity?: number;
  off_hand?: boolean;
  power?: string | null;
  quick?: boolean;
  target: string;
  thrown?: boolean;
  type: "RealmsAttack";
  weapon?: string | null;
};

/** An attack begins: its AP (and a Power's Energy) spent; it waits while its target may Dodge. */
export type Realms_AttackDeclared = {
  action_points: number;
  attack: string;
  collateral?: Realms_Collateral | null;
  combatant_id: string;
  determination?: boolean;
  distance: number;
  energy?: number;
  free?: boolean;
  kind: string;
  non_lethal?: boolean;
  obscurity?: number;
  off_hand?: boolean;
  penalty?: number;
  prepared?: boolean;
  quick?: boolean;
  range_penalty?: number;
  target: string;
  targets: "discernment" | "evasion" | "fortitude" | "mental_fortitude" | "might" | "reflexes" | "resolve";
  thrown?: boolean;
  type: "RealmsAttackDeclared";
};

/** The chance to hit and to hit critically: ``*_ways`` of the ``ways`` (20) faces. */
export type Realms_AttackOdds = {
  critical: number;
  critical_ways: number;
  degrees: Realms_Degree[];
  hit: number;
  hit_ways: number;
  ways: number;
};

/**
 * The Attack Roll against the Defence (``score``), and on a hit the damage dice (multiplied
 * by the Critical Multiplier on a Critical Hit) plus the Attack Bonus (``damage``).
 */
export type Realms_AttackRolled = {
  attack: string;
  combatant_id: string;
  counter_die?: DieRoll | null;
  counter_penalty?: number;
  counter_total?: number | null;
  countered?: boolean;
  counterer?: string | null;
  critical?: boolean;
  damage?: number;
  damage_dice?: DieRoll[];
  defences?: Realms_DefenceRolled[];
  degrees?: number;
  die: DieRoll | null;
  discarded?: DieRoll | null;
  help?: number;
  hit: boolean;
  multiplier?: number;
  score: number;
  target: string;
  targets: "discernment" | "evasion" | "fortitude" | "mental_fortitude" | "might" | "reflexes" | "resolve";
  total: number;
  type: "RealmsAttackRolled";
};

/**
 * An effect drains (``amount`` below 0) or restores (above 0) a creature's Energy, as the RM
 * rules. R20: "If Energy drops below 0, the creature takes 1 damage per point below 0. Energy
 * can't go below 0"; restoring stops at the maximum. (One's own Powers are refused beyond one's
 * Energy: "you can't push your own Energy below 0".)
 */
export type Realms_ChangeEnergy = {
  amount: number;
  combatant_id: string;
  dice?: number[] | null;
  type: "RealmsChangeEnergy";
};

/**
 * Collateral Countering: a Power in effect the attack's roll may counter as well, with its original
 * attack ``score`` and the ``energy`` spent on it (the RM's to give), and the ``part`` to end ("": all).
 */
export type Realms_Collateral = {
  energy?: number;
  part?: string;
  score: number;
};

/**
 * Collateral Countering: the Power attack's own roll (+1 per 5 Energy of the Power) against a Power
 * in effect's original attack score (+1 per 5 Energy spent on it); ``nullified`` if it exceeds it.
 */
export type Realms_CollateralCountered = {
  combatant_id: string;
  nullified: boolean;
  part?: string;
  power: string;
  score: number;
  total: number;
  type: "RealmsCollateralCountered";
};

/** A command of RealmsRPG (`realms`): one of its types, by `type`. */
export type Realms_Command = 
  | AddCombatant
  | RemoveCombatant
  | RollInitiative
  | SetTurnOrder
  | StartEncounter
  | EndTurn
  | EndEncounter
  | RevealCombatant
  | RevealRoll
  | Retcon
  | Realms_SetRealmsRules
  | Realms_SetInitiative
  | Realms_Attack
  | Realms_TakeAction
  | Realms_ImprovisedAction
  | Realms_Heal
  | Realms_Stabilise
  | Realms_ApplyCondition
  | Realms_RemoveCondition
  | Realms_Overcome
  | Realms_ImprovisePower
  | Realms_Grapple
  | Realms_DealDamage
  | Realms_CommandCompanion
  | Realms_Prepare
  | Realms_UsePrepared
  | Realms_StealthHide
  | Realms_Detect
  | Realms_CoupDeGrace
  | Realms_Help
  | Realms_ChangeEnergy
  | Realms_Recover
  | Realms_SetDetermination
  | Realms_CounterInEffect
  | Realms_ModifyRoll
  | React
  | PassReaction
  | CloseReactions;

/**
 * Command (1 AP), the owner's Reaction: "command, control, or grant a turn to, a Companion" (at
 * the start of its turn, or for its Reaction, which also gives its upcoming turn). Each further use
 * in a round controls one AP less: "Second use. Control all Companions' available AP minus 1".
 */
export type Realms_CommandCompanion = {
  combatant_id: string;
  companion: string;
  dice?: number[] | null;
  type: "RealmsCommand";
};

/** The owner's ``use``-th Command this round: the Companion acts this round with ``action_points``. */
export type Realms_Commanded = {
  action_points: number;
  combatant_id: string;
  companion: string;
  type: "RealmsCommanded";
  use: number;
};

/**
 * ``replaced``: the condition it replaces (conditions don't stack); ``action_points``: a
 * Stunned creature's AP after "lose level AP at once".
 */
export type Realms_ConditionApplied = {
  action_points?: number | null;
  combatant_id: string;
  condition: string;
  defence?: string | null;
  level?: number;
  replaced?: string | null;
  score?: number | null;
  source?: string | null;
  type: "RealmsConditionApplied";
};

export type Realms_ConditionRemoved = {
  combatant_id: string;
  condition: string;
  type: "RealmsConditionRemoved";
};

/**
 * Countering a Power already in effect: "You can also attempt to end or dispel a Power that is
 * already in effect by targeting its original attack score with your own Power" (``power``, one's own,
 * at its AP and Energy, on one's turn or as a Reaction); ``score``: that original attack score and
 * ``energy`` the Energy spent on it (the RM's, from the log: "Both sides add +1 to their roll or
 * Score for every 5 energy spent"); ``part``: "only ... a specific part of an opponent's Power", as
 * the RM rules. What ending it undoes is the RM's (RealmsRemoveCondition...). Dice: the d20.
 */
export type Realms_CounterInEffect = {
  combatant_id: string;
  determination?: boolean;
  dice?: number[] | null;
  energy?: number;
  part?: string;
  power: string;
  score: number;
  type: "RealmsCounterInEffect";
};

/**
 * A Power in effect countered: the counterer's Power attack roll (+1 per 5 Energy it spent)
 * against the original attack score (+1 per 5 Energy spent on it); ``nullified`` if it exceeds it.
 */
export type Realms_CounteredInEffect = {
  action_points: number;
  combatant_id: string;
  die: DieRoll;
  discarded?: DieRoll | null;
  energy: number;
  nullified: boolean;
  part?: string;
  penalty?: number;
  power: string;
  score: number;
  total: number;
  type: "RealmsCounteredInEffect";
};

/**
 * Coup de Grâce: "Whenever you attempt to attack a creature outside of Combat that is unconscious or
 * asleep and within 1 space, you automatically hit and achieve a critical hit" (``asleep``: the RM
 * says the target sleeps). Dice: the damage dice.
 */
export type Realms_CoupDeGrace = {
  asleep?: boolean;
  combatant_id: string;
  dice?: number[] | null;
  target: string;
  type: "RealmsCoupDeGrace";
  weapon?: string | null;
};

/**
 * The RM deals damage the rules leave to them (an improvised Power's, a hazard's): ``amount`` or
 * ``dice_count``d``dice_sides`` + ``bonus`` of ``damage_type``, reduced as an attack's would be.
 */
export type Realms_DealDamage = {
  amount?: number | null;
  bonus?: number;
  by?: string | null;
  combatant_id: string;
  damage_type?: "acid" | "bludgeoning" | "fire" | "ice" | "light" | "lightning" | "magic" | "necrotic" | "piercing" | "poison" | "psychic" | "slashing" | "sonic" | "spiritual";
  dice?: number[] | null;
  dice_count?: number;
  dice_sides?: number;
  non_lethal?: boolean;
  type: "RealmsDealDamage";
};

/**
 * One further Defence an attack targets: "the attacker will always roll to hit Evasion (if
 * applicable), as well as roll against all (but one) of the targeted Defenses. The defending creature
 * then rolls their untargeted Defense, typically against the attacker's Attack Score" (``roller``:
 * who rolled; ``hit``: the attack's effect on it goes through).
 */
export type Realms_DefenceRolled = {
  defence: string;
  die?: DieRoll | null;
  hit: boolean;
  roller: string;
  score: number;
  total: number;
};

/**
 * The Defend reactions settle the attack: ``blocked`` (a Weapon Block's Evasion turned the
 * hit into a miss), ``defender`` (a Body Shield stepped in: the attack is on them, double
 * damage), ``shield``: a Shield Defense's reduction.
 */
export type Realms_Defended = {
  blocked?: boolean;
  combatant_id: string;
  defender: string;
  doubled?: boolean;
  hit: boolean;
  shield?: number;
  target: string;
  type: "RealmsDefended";
};

/** ``degrees``: Successes (positive) or Failures (negative); ``ways``: faces of the d20 giving it. */
export type Realms_Degree = {
  degrees: number;
  ways: number;
};

/**
 * Detect (a Reaction: 0 AP, each further one in the round 1): "a Perceive roll against the revealed
 * creature's Stealth or Hide Score"; ``search``: the Search Action on one's turn (1 AP). +3 once the
 * hidden creature has attacked. Dice: the d20.
 */
export type Realms_Detect = {
  combatant_id: string;
  determination?: boolean;
  dice?: number[] | null;
  search?: boolean;
  target: string;
  type: "RealmsDetect";
};

/** A Detect or Search roll against the hidden creature's score (``bonus``: +3 after its attack). */
export type Realms_Detected = {
  action_points: number;
  bonus?: number;
  combatant_id: string;
  die: DieRoll;
  discarded?: DieRoll | null;
  found?: boolean;
  score: number;
  search: boolean;
  target: string;
  total: number;
  type: "RealmsDetected";
};

export type Realms_DeterminationSet = {
  combatant_id: string;
  count: number;
  type: "RealmsDeterminationSet";
};

/**
 * Energy drained or restored: ``change`` as the effect had it, ``energy`` after (never below 0),
 * ``below``: the points it would have gone below 0, each 1 damage (the ``Harmed`` that follows).
 */
export type Realms_EnergyChanged = {
  below?: number;
  change: number;
  combatant_id: string;
  energy: number;
  type: "RealmsEnergyChanged";
};

/** An event of RealmsRPG (`realms`): one of its types, by `type`. */
export type Realms_Event = 
  | EncounterOpened
  | CombatantAdded
  | CombatantRemoved
  | InitiativeRolled
  | TurnOrderSet
  | EncounterStarted
  | RoundStarted
  | TurnEnded
  | EncounterEnded
  | CombatantRevealed
  | RollRevealed
  | Retconned
  | Realms_RulesSet
  | Realms_InitiativeSet
  | Realms_ActionTaken
  | Realms_AttackDeclared
  | Realms_Reacted
  | Realms_AttackRolled
  | Realms_Defended
  | Realms_Harmed
  | Realms_Healed
  | Realms_Stabilised
  | Realms_ConditionApplied
  | Realms_ConditionRemoved
  | Realms_OvercomeDue
  | Realms_Overcame
  | Realms_PowerImprovised
  | Realms_GrappleRolled
  | Realms_Commanded
  | Realms_Prepared
  | Realms_HidingRolled
  | Realms_Detected
  | Realms_Helped
  | Realms_EnergyChanged
  | Realms_Recovered
  | Realms_DeterminationSet
  | Realms_CounteredInEffect
  | Realms_CollateralCountered
  | Realms_RollModified
  | ReactionsOpened
  | ReactionPassed
  | ReactionsClosed;

/**
 * Grapple (2 AP): "make a Strength Unarmed Prowess attack to grab an opponent within your melee
 * range, targeting their Might or Reflex"; ``damage``: "whether or not to deal unarmed damage, using
 * Strength". Dice: the d20, then any damage dice.
 */
export type Realms_Grapple = {
  combatant_id: string;
  damage?: boolean;
  defence?: "might" | "reflexes";
  determination?: boolean;
  dice?: number[] | null;
  target: string;
  type: "RealmsGrapple";
};

/**
 * The grapple's Strength Unarmed Prowess attack against Might or Reflexes (with the size
 * modifier): on a success the target is Grappled (escaping by Overcome, Might against the
 * grappler's Strength Score).
 */
export type Realms_GrappleRolled = {
  action_points?: number;
  combatant_id: string;
  damage?: number;
  damage_dice?: DieRoll[];
  defence: string;
  die: DieRoll;
  discarded?: DieRoll | null;
  hit?: boolean;
  penalty?: number;
  score: number;
  size?: number;
  strength_score?: number;
  target: string;
  total: number;
  type: "RealmsGrappleRolled";
};

/**
 * Damage taken: ``rolled`` before reductions, less the armour's (``armour``) and a shield's,
 * then resistances; ``health`` after; ``dying``: enters Dying now (at 0 or below), ``dead`` at
 * minus the maximum Health;
 * ``unconscious``: a non-lethal attack's target instead; ``dice``: the Dying damage's.
 */
export type Realms_Harmed = {
  armour?: number;
  brace?: number;
  braced?: boolean;
  by?: string | null;
  cause: string;
  combatant_id: string;
  damage: number;
  dead?: boolean;
  dice?: DieRoll[];
  dying?: boolean;
  health: number;
  resisted?: string;
  rolled?: number;
  shield?: number;
  type: "RealmsHarmed";
  unconscious?: boolean;
};

/**
 * Healing (a Power, a potion, Medicine): ``amount``, or ``dice_count``d``dice_sides`` + ``bonus``.
 * R20: "Healing restores Health up to the maximum; healing from a Power adds the healer's Power
 * Bonus" (``healer``: the creature whose Power heals, its Power Bonus added); ``overheal``: the
 * effect Overheals ("can go over the maximum, stacks, and lasts until damage would take you below
 * the maximum or until a recovery"), the RM's to say of it.
 */
export type Realms_Heal = {
  amount?: number | null;
  bonus?: number;
  combatant_id: string;
  dice?: number[] | null;
  dice_count?: number;
  dice_sides?: number;
  healer?: string | null;
  overheal?: boolean;
  type: "RealmsHeal";
};

/**
 * ``bleed``: the Bleed levels the healing took away ("healing reduces Bleed by the amount healed
 * but restores that much less Health"); ``overheal``: the Health it left above the maximum;
 * ``power_bonus``: the healer's Power Bonus added.
 */
export type Realms_Healed = {
  amount: number;
  bleed?: number;
  combatant_id: string;
  dice?: DieRoll[];
  exhausted?: boolean;
  health: number;
  overheal?: number;
  power_bonus?: number;
  revived?: boolean;
  type: "RealmsHealed";
};

/**
 * Help (1 AP, a Reaction): "add your Help Die to an ally's Ability or Skill roll; +1 AP if the task
 * needs an Interaction"; the die from the helper's bonus in ``skill`` (an Ability or one of its Skills),
 * added to the ally's next Ability or Skill roll this round. Dice: the Help Die.
 */
export type Realms_Help = {
  ally: string;
  combatant_id: string;
  dice?: number[] | null;
  interaction?: boolean;
  skill: string;
  type: "RealmsHelp";
};

export type Realms_Helped = {
  action_points: number;
  ally: string;
  combatant_id: string;
  die: DieRoll;
  type: "RealmsHelped";
};

/**
 * The Stealth or Hide roll: "You are Hidden from creatures whose Discernment score you surpass";
 * ``switched``: a switch between Hiding and Stealthing (no roll); ``upkeep``: the 1 AP "to stay hidden"
 * at the end of a later turn.
 */
export type Realms_HidingRolled = {
  action_points: number;
  combatant_id: string;
  die?: DieRoll | null;
  discarded?: DieRoll | null;
  ended?: boolean;
  hidden_from?: string[];
  mode: string;
  obscurity?: number;
  switched?: boolean;
  total?: number | null;
  type: "RealmsHidingRolled";
  upkeep?: boolean;
};

/**
 * Power Improvisation (2 AP): the creature describes a Power; "the RM ... will ultimately
 * determine both the Difficulty Score of creating that Power and its Energy cost": the RM sends
 * the Parts (the Difficulty Score is 10 + their costs) and the estimated ``energy``. Dice: the d20.
 */
export type Realms_ImprovisePower = {
  combatant_id: string;
  description: string;
  determination?: boolean;
  dice?: number[] | null;
  energy: number;
  parts: Realms_PowerPart[];
  type: "RealmsImprovisePower";
};

/**
 * The RM records an improvised Action at the cost the RM sets: "Improvised actions may have variable
 * AP costs based on their complexity, as determined by the RM".
 */
export type Realms_ImprovisedAction = {
  action_points: number;
  combatant_id: string;
  description: string;
  dice?: number[] | null;
  type: "RealmsImprovisedAction";
};

export type Realms_InitiativeSet = {
  combatant_id: string;
  initiator?: boolean;
  roll_with?: string | null;
  surprised?: boolean;
  type: "RealmsInitiativeSet";
};

/**
 * The RM's bonus or penalty to a creature's next d20 roll, for what the engine does not see (sight,
 * a map, the situation): a Charmed creature's charmer "+2 on Charisma rolls ... against it", a Frightened
 * creature's "−½ level while seeing it". R7: "A Bonus or Penalty applies to the roller only". ``amount``
 * replaces one not yet spent (0: none); ``reason``: what it is for, told in the log.
 */
export type Realms_ModifyRoll = {
  amount: number;
  combatant_id: string;
  dice?: number[] | null;
  reason?: string;
  type: "RealmsModifyRoll";
};

/** The Overcome's rolls (``declined``: none taken); ``early``: the 1 AP Action earlier in the turn. */
export type Realms_Overcame = {
  combatant_id: string;
  declined?: boolean;
  discarded?: DieRoll | null;
  early?: boolean;
  rolls?: Realms_OvercomeRoll[];
  type: "RealmsOvercame";
};

/**
 * The End-of-Turn Overcome: "roll each Defense that is being targeted by those conditions or
 * effects. Each roll is compared against every relevant Difficulty Score or Potency affecting that
 * Defense"; ``attempt`` "decline" lets them be; ``order``: the Defences in the order the player
 * rolls them ("You may attempt to Overcome the effects in any order"). Dice: one d20 per Defence.
 */
export type Realms_Overcome = {
  attempt?: "decline" | "roll";
  combatant_id: string;
  determination?: ("discernment" | "fortitude" | "mental_fortitude" | "might" | "reflexes" | "resolve") | null;
  dice?: number[] | null;
  order?: (("discernment" | "fortitude" | "mental_fortitude" | "might" | "reflexes" | "resolve")[]) | null;
  type: "RealmsOvercome";
};

/** The end of a turn: the creature may attempt to overcome its conditions, before gaining AP. */
export type Realms_OvercomeDue = {
  combatant_id: string;
  type: "RealmsOvercomeDue";
};

/** One Defence rolled: its total against each Score on it, and the conditions it overcame. */
export type Realms_OvercomeRoll = {
  against: {
    [key: string]: number;
  };
  by: string;
  defence: string;
  die: DieRoll;
  overcome: string[];
  total: number;
};

/**
 * The Power Improvisation Roll against the Difficulty Score, its Successes or Failures, the
 * Energy Multiplier (R3) and the final cost, rounded up; ``created``: False when the cost exceeds
 * the Energy ("you simply fail to create the Power; retaining your Energy, but losing the Action").
 */
export type Realms_PowerImprovised = {
  action_points?: number;
  combatant_id: string;
  created: boolean;
  degrees: number;
  description: string;
  die: DieRoll;
  difficulty: number;
  discarded?: DieRoll | null;
  energy: number;
  estimate: number;
  multiplier: string;
  reaction?: boolean;
  total: number;
  type: "RealmsPowerImprovised";
};

/**
 * A Power Part of an improvised Power: its Training Point cost (from the Codex), and whether the
 * creature is proficient with it ("use half of those Parts' Training Point costs instead").
 */
export type Realms_PowerPart = {
  cost: number;
  name: string;
  proficient?: boolean;
};

/**
 * Prepared Actions: "prepare an Action to use as a Reaction later in the round by spending the
 * Action Point cost for that Action on your turn. Specify what you will be reacting to and what the
 * Action will be": an attack (its ``target``, weapon or Power, distance), paid now (AP and Energy), or
 * another ``action`` of the Action table (with the ``roll_with`` and ``spaces`` it will take), paid
 * its AP now.
 */
export type Realms_Prepare = {
  action?: ("Ability Roll" | "Basic Action" | "Brace" | "Evade" | "Focus" | "Free Action" | "Interaction" | "Movement" | "Overcome" | "Quick Action" | "Search" | "Skill Encounter Action") | null;
  combatant_id: string;
  dice?: number[] | null;
  distance?: number;
  power?: string | null;
  roll_with?: string | null;
  spaces?: number;
  target?: string | null;
  trigger: string;
  type: "RealmsPrepare";
  weapon?: string | null;
};

/**
 * An attack prepared, its AP and Energy spent now: "If you fail to utilize the prepared action you
 * do not regain those spent resources".
 */
export type Realms_Prepared = {
  action?: string | null;
  action_points: number;
  attack: string;
  combatant_id: string;
  distance: number;
  energy?: number;
  free?: boolean;
  kind: string;
  roll_with?: string | null;
  spaces?: number;
  target: string | null;
  trigger: string;
  type: "RealmsPrepared";
};

/**
 * A Reaction to the attack waiting in ``window``, its AP and its roll (Weapon Block: an
 * attack roll, the new Evasion; Shield Defense: a Strength attack roll against the attack's,
 * then the Shield Die; Combination Attack: the Help Die; Counter Power: its AP and Energy).
 */
export type Realms_Reacted = {
  action_points: number;
  again?: boolean;
  combatant_id: string;
  die?: DieRoll | null;
  energy?: number;
  help_die?: DieRoll | null;
  penalty?: number;
  reaction: string;
  shield_die?: DieRoll | null;
  total?: number | null;
  type: "RealmsReacted";
  window: string;
};

export type Realms_RealmsRules = {
  determination_dice?: number;
  dying_damage?: "appendix" | "chapter";
  evade_bonus?: number;
  partial_success?: "at_most_1" | "exactly_1";
};

/**
 * Rest, outside combat (R25): a ``partial`` recovery of ``blocks`` 2-hour blocks ("up to 6
 * hours"), each giving back "¼ of maximum Health and ¼ of maximum Energy, or ½ of one of them"
 * (``restore``); a ``full`` recovery (8-10 hours) "restores everything", and one level of
 * Exhausted goes with it. A recovery ends Overheal.
 */
export type Realms_Recover = {
  blocks?: number;
  combatant_id: string;
  dice?: number[] | null;
  recovery: "full" | "partial";
  restore?: "both" | "energy" | "health";
  type: "RealmsRecover";
};

/**
 * A recovery: Health and Energy after (Overheal ended), ``exhausted``: the Exhausted level left
 * (a full recovery takes one away).
 */
export type Realms_Recovered = {
  blocks?: number;
  combatant_id: string;
  energy: number;
  exhausted?: number;
  health: number;
  recovery: string;
  type: "RealmsRecovered";
};

/** The RM ends a condition on a creature. */
export type Realms_RemoveCondition = {
  combatant_id: string;
  condition: "bleed" | "blinded" | "charmed" | "dazed" | "deafened" | "exhausted" | "exposed" | "faint" | "frightened" | "grappled" | "hidden" | "immobile" | "invisible" | "prone" | "resilient" | "restrained" | "slowed" | "staggered" | "stunned" | "susceptible" | "weakened";
  dice?: number[] | null;
  type: "RealmsRemoveCondition";
};

/** The RM's bonus or penalty waiting for the creature's next d20 roll (``ModifyRoll``). */
export type Realms_RollModified = {
  amount: number;
  combatant_id: string;
  reason?: string;
  type: "RealmsRollModified";
};

export type Realms_RulesSet = {
  data: Realms_RealmsRules;
  type: "RealmsRulesSet";
};

/**
 * The RM sets how many Determination Dice a creature holds (R10: "each character starts every
 * session with one and can hold up to 3"; the encounter starts each player's creature with the
 * ``determination_dice`` setting: a later fight of the session gives what is left): ``count``.
 */
export type Realms_SetDetermination = {
  combatant_id: string;
  count: number;
  dice?: number[] | null;
  type: "RealmsSetDetermination";
};

/**
 * The RM's say on one creature's start of combat, before initiative is rolled: ``roll_with``
 * the Ability or Skill its initiative adds (None: the sheet's, Acuity by default);
 * ``surprised``: unaware of the impending attack; ``initiator``: it started the fight ("can
 * take their first Action without spending any Action Points").
 */
export type Realms_SetInitiative = {
  combatant_id: string;
  dice?: number[] | null;
  initiator?: boolean;
  roll_with?: string | null;
  surprised?: boolean;
  type: "SetInitiative";
};

/**
 * The RM sets the encounter's settings where the publisher's texts disagree (the Dying
 * damage sequence), before or during the fight: see ``RealmsRules``. ``data`` is a JSON Merge
 * Patch of the current settings (domain/core/settings.py).
 */
export type Realms_SetRealmsRules = {
  /** A JSON Merge Patch (RFC 7396) of the encounter's current settings document: the fields named are changed (an object merged into the one there, null puts a field back to its default), the rest stay. The document's schema, with each default, is this command's `settings_schema` in `GET /rulesets/{ruleset_id}`. */
  data: {
    [key: string]: unknown;
  };
  dice?: number[] | null;
  type: "SetRealmsRules";
};

/**
 * R22: "Medicine, bandages, potions, feats or any Healing Power (any amount of healing) stops
 * the escalation"; the RM records it.
 */
export type Realms_Stabilise = {
  combatant_id: string;
  dice?: number[] | null;
  type: "RealmsStabilise";
};

export type Realms_Stabilised = {
  combatant_id: string;
  exhausted?: boolean;
  type: "RealmsStabilised";
};

/**
 * Stealth/Hide Action (2 AP; 1 AP on a turn one was Detected): "Make a Stealth or Hide Skill Roll,
 * gaining +1 to the roll for each level of Obscurity you have from target creatures. If you're
 * unobscured, the roll suffers a -4 penalty"; ``switch``: "spend 1 Action Point on your turn to switch
 * from Hiding to Stealthing" (or back). Dice: the d20 (none for a switch).
 */
export type Realms_StealthHide = {
  combatant_id: string;
  determination?: boolean;
  dice?: number[] | null;
  mode?: "hide" | "stealth";
  obscurity?: number;
  switch?: boolean;
  type: "RealmsStealthHide";
};

/**
 * Take an Action of the Action table. ``roll_with``: for one with a D20 roll (an Ability
 * Roll, a Skill Encounter Action, a Search...), the Ability, Skill or Defence rolled, against
 * ``against`` if the RM names a Score; ``spaces``: a Movement's spaces (at most the Speed);
 * ``determination``: spend a Determination Die on the roll (R10: "Spending it re-rolls any roll,
 * and you keep the result you prefer": the two d20s are rolled, the better kept).
 */
export type Realms_TakeAction = {
  action: "Ability Roll" | "Basic Action" | "Brace" | "Evade" | "Focus" | "Free Action" | "Interaction" | "Movement" | "Overcome" | "Quick Action" | "Search" | "Skill Encounter Action";
  against?: number | null;
  combatant_id: string;
  determination?: boolean;
  dice?: number[] | null;
  roll_with?: string | null;
  spaces?: number;
  split?: boolean;
  type: "RealmsTakeAction";
};

/**
 * Use the prepared attack or Action, as a Reaction ("even if the specified conditions aren't met, as
 * long as it's a reasonable response"). Dice: as the attack's or the Action's roll.
 */
export type Realms_UsePrepared = {
  combatant_id: string;
  dice?: number[] | null;
  type: "RealmsUsePrepared";
};

/** The GM takes a combatant out of the fight (not on their own turn). */
export type RemoveCombatant = {
  combatant_id: string;
  dice?: number[] | null;
  type: "RemoveCombatant";
};

/**
 * ``{}`` resumes from the first event not delivered; ``after_version`` (an encounter's
 * webhook only) skips ahead: the events after it come next.
 */
export type ResumeWebhook = {
  after_version?: number | null;
};

/**
 * The GM corrects a mistake: the story goes back to how it stood at an earlier version
 * (``to_version``).
 *
 * Nothing is deleted: a ``Retconned`` event is appended and the state is again the state
 * at ``to_version`` (its version goes on). The GM may go back to any version a command
 * ended at, from the start of the current round on, or undo the last command whatever the
 * round; never back before the fight's start (once it has started) nor before its end
 * (once it has ended: the dice seed is public). Seeded dice go back too: the same command
 * sent again rolls the same faces (a retcon is not a re-roll).
 */
export type Retcon = {
  dice?: number[] | null;
  reason?: string;
  to_version: number;
  type: "Retcon";
};

/**
 * The GM undid events ``undone_from`` .. ``undone_to``: the state is again the state at
 * ``to_version`` (``undone_from - 1``), but for its version, which goes on, and the record
 * of what stays hidden (``concealed``, ``secret_versions``), which keeps the undone events'
 * secrets. ``evolve`` cannot fold it alone: ``Ruleset.replay`` does, with the history.
 */
export type Retconned = {
  reason?: string;
  to_version: number;
  type: "Retconned";
  undone_from: number;
  undone_to: number;
};

/** The GM reveals a hidden combatant: from now on everyone sees it, and its history. */
export type RevealCombatant = {
  combatant_id: string;
  dice?: number[] | null;
  type: "RevealCombatant";
};

/** The GM reveals the secret rolls of an earlier event (the one at ``version``). */
export type RevealRoll = {
  dice?: number[] | null;
  type: "RevealRoll";
  version: number;
};

/**
 * Roll (or, during the fight, re-roll) initiative for everyone. GM's command.
 *
 * Reported dice are used in the ruleset's own order: the `dice` of this command in
 * `GET /rulesets/{ruleset_id}` (each ruleset's ``initiative_dice``). ``secret``: the GM's own
 * roll is shown to players and spectators only once the GM reveals it (``RevealRoll``).
 */
export type RollInitiative = {
  dice?: number[] | null;
  secret?: boolean;
  type: "RollInitiative";
};

export type RollRevealed = {
  type: "RollRevealed";
  version: number;
};

/** A new round: ``action_points`` is every combatant's AP after the round's grant. */
export type RoundStarted = {
  action_points: {
    [key: string]: number;
  };
  round: number;
  type: "RoundStarted";
};

export type RulesetInfo = {
  actions: CommandInfo[];
  commands: CommandDoc[];
  coverage?: Section[] | null;
  dice_policies: string[];
  examples?: CombatantExample[];
  id: string;
  name: string;
  resources?: {
    [key: string]: string;
  };
  rule_texts?: {
    [key: string]: string;
  };
  sheet_schema: {
    [key: string]: unknown;
  };
  violation_codes: {
    [key: string]: string;
  };
};

export type RulesetSummary = {
  id: string;
  name: string;
};

export type Section = {
  chapter: string;
  heading: string;
  how: string;
  part_of?: string | null;
  readings?: string[];
  support: "enforced" | "gm" | "partial" | "not covered";
};

export type SeedReport = {
  commitment: string | null;
  matches?: boolean | null;
  revealed: boolean;
};

/** The GM sets the order of play, within what the ruleset allows. */
export type SetTurnOrder = {
  dice?: number[] | null;
  order: string[];
  type: "SetTurnOrder";
};

/** Start the fight: round 1 begins with the first combatant in the order. */
export type StartEncounter = {
  dice?: number[] | null;
  type: "StartEncounter";
};

export type TokenView = {
  combatant_ids: string[];
  created_at: string;
  id: string;
  label: string;
  revoked_at?: string | null;
  role: "gm" | "player" | "spectator";
};

export type Totals = {
  action_points_spent?: number;
  attacks_landed?: number;
  attacks_made?: number;
  defences_tried?: number;
  defences_won?: number;
  hits_dealt?: number;
  hits_taken?: number;
  outcomes?: {
    [key: string]: number;
  };
  rolls?: number;
};

/** ``action_points``: the combatant's AP after the end of their turn, where the ruleset changes it. */
export type TurnEnded = {
  action_points?: number | null;
  combatant_id: string;
  type: "TurnEnded";
};

export type TurnOrderSet = {
  order: string[];
  type: "TurnOrderSet";
};

export type Waiting = {
  combatant_id: string | null;
  what: string;
  who: "gm" | "player";
};

export type WebhookView = {
  created_at: string;
  delivered_version?: number | null;
  encounter_id: string | null;
  event_types: string[] | null;
  failures: number;
  format: "fracas" | "discord";
  last_attempt_at: string | null;
  last_error: string | null;
  last_status: number | null;
  last_success_at: string | null;
  status: "active" | "paused";
  url: string;
  view: "spectator" | "gm";
  webhook_id: string;
};

// ------------------------------------------------------------- operations

/** Every operation, by its `operationId`: parameters, request body, responses. */
export interface operations {
  /** GET /encounters: List encounters */
  listEncounters: {
    method: "GET";
    path: "/encounters";
    parameters: {
      path: Record<string, never>;
      query: {
        /** At most this many encounters. */
        limit?: number;
        /** Skip this many (the next page: offset + limit). */
        offset?: number;
        /** Only this ruleset's. */
        ruleset?: string | null;
        /** Only those being set up, fought, or over. */
        status?: "setup" | "active" | "ended" | null;
        /** Only those whose name contains this (any case). */
        name?: string | null;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": EncounterList;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: EncounterList;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /encounters: Open an encounter */
  openEncounter: {
    method: "POST";
    path: "/encounters";
    parameters: {
      path: Record<string, never>;
      query: Record<string, never>;
      header: {
        /** A retry with the same key returns the first answer and appends nothing. */
        "Idempotency-Key"?: string | null;
      };
    };
    requestBody: OpenEncounterRequest;
    responses: {
      "201": OpenedEncounter;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: OpenedEncounter;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}: Current state of an encounter */
  getEncounter: {
    method: "GET";
    path: "/encounters/{encounter_id}";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": EncounterView;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: EncounterView;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/actions: What the fight waits on, and the caller's next moves */
  getActions: {
    method: "GET";
    path: "/encounters/{encounter_id}/actions";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": NextMoves;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: NextMoves;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/audit: Audit the encounter's log */
  auditEncounter: {
    method: "GET";
    path: "/encounters/{encounter_id}/audit";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": AuditReport;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: AuditReport;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /encounters/{encounter_id}/combatants: Add a combatant (GM) */
  addCombatant: {
    method: "POST";
    path: "/encounters/{encounter_id}/combatants";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: {
        /** The version the command was decided on, as the ETag shows it. A stale one gets 412. */
        "If-Match"?: string | null;
        /** A retry with the same key returns the first answer and appends nothing. */
        "Idempotency-Key"?: string | null;
      };
    };
    requestBody: NewCombatant;
    responses: {
      "201": CommandResult;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: CommandResult;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /encounters/{encounter_id}/commands: Send a command */
  sendCommand: {
    method: "POST";
    path: "/encounters/{encounter_id}/commands";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: {
        /** The version the command was decided on, as the ETag shows it. A stale one gets 412. */
        "If-Match"?: string | null;
        /** A retry with the same key returns the first answer and appends nothing. */
        "Idempotency-Key"?: string | null;
      };
    };
    requestBody: PlacesOfPower_Command | HealthTrauma_Command | Realms_Command | Novus_Command;
    responses: {
      "200": CommandResult;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: CommandResult;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/events: Event history */
  listEvents: {
    method: "GET";
    path: "/encounters/{encounter_id}/events";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: {
        /** Return events after this version. */
        after?: number;
        /** At most this many events. */
        limit?: number;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": EventPage;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: EventPage;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/live: Live stream of an encounter (Server-Sent Events) */
  streamEncounter: {
    method: "GET";
    path: "/encounters/{encounter_id}/live";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: {
        /** The last version the client has: every event after it follows. Default 0: the whole history. */
        after?: number;
        /** false: send what is there (events after `after`, the state, the prompts) and end the stream. */
        follow?: boolean;
        /** patch: the whole state first, then each change as a JSON Patch (`patch` messages); full: the whole state after every batch. */
        state?: "patch" | "full";
        /** The token, where the client cannot send `Authorization: Bearer` (a browser's EventSource). Never logged. */
        token?: string | null;
      };
      header: {
        /** Sent by an EventSource when it reconnects: the last `id` (version) it received; takes the place of `after`. */
        "Last-Event-ID"?: string | null;
      };
    };
    requestBody: never;
    responses: {
      "200": string;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: string;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/log: The readable log */
  getLog: {
    method: "GET";
    path: "/encounters/{encounter_id}/log";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: {
        /** `text` for plain text; without it, the `Accept` header chooses (JSON by default). */
        format?: "json" | "text" | null;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": EncounterLog;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: EncounterLog;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/state: State of an encounter, now or at a version */
  getState: {
    method: "GET";
    path: "/encounters/{encounter_id}/state";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: {
        /** The version to go back to (1 .. current). */
        at?: number | null;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": EncounterState;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: EncounterState;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/statistics: Per-combatant statistics */
  getStatistics: {
    method: "GET";
    path: "/encounters/{encounter_id}/statistics";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": EncounterStatistics;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: EncounterStatistics;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/summary: An encounter's summary */
  getSummary: {
    method: "GET";
    path: "/encounters/{encounter_id}/summary";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": EncounterOverview;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: EncounterOverview;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/timeline.svg: The fight's timeline (SVG) */
  getTimeline: {
    method: "GET";
    path: "/encounters/{encounter_id}/timeline.svg";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: {
        /** The token, where the client cannot send `Authorization: Bearer` (a link opened in a browser tab). Checked as the header's is; never logged. */
        token?: string | null;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": string;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: string;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/tokens: List the encounter's tokens (GM) */
  listTokens: {
    method: "GET";
    path: "/encounters/{encounter_id}/tokens";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": TokenView[];
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: TokenView[];
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /encounters/{encounter_id}/tokens: Mint a player or spectator token (GM) */
  mintToken: {
    method: "POST";
    path: "/encounters/{encounter_id}/tokens";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: {
        /** A retry with the same key returns the first answer and appends nothing. */
        "Idempotency-Key"?: string | null;
      };
    };
    requestBody: NewToken;
    responses: {
      "201": IssuedToken;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: IssuedToken;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** DELETE /encounters/{encounter_id}/tokens/{token_id}: Revoke a player or spectator token (GM) */
  revokeToken: {
    method: "DELETE";
    path: "/encounters/{encounter_id}/tokens/{token_id}";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
        /** The token's id (`id` in the answer to `POST /encounters/{encounter_id}/tokens`). */
        token_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "204": null;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: null;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /encounters/{encounter_id}/webhooks: The encounter's webhooks (GM) */
  listWebhooks: {
    method: "GET";
    path: "/encounters/{encounter_id}/webhooks";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": WebhookView[];
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: WebhookView[];
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /encounters/{encounter_id}/webhooks: Register a webhook on the encounter (GM) */
  registerWebhook: {
    method: "POST";
    path: "/encounters/{encounter_id}/webhooks";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: NewWebhook;
    responses: {
      "201": IssuedWebhook;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: IssuedWebhook;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** DELETE /encounters/{encounter_id}/webhooks/{webhook_id}: Delete a webhook (GM) */
  deleteWebhook: {
    method: "DELETE";
    path: "/encounters/{encounter_id}/webhooks/{webhook_id}";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
        /** The webhook's id (`webhook_id` in the answer that registered it). */
        webhook_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "204": null;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: null;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /encounters/{encounter_id}/webhooks/{webhook_id}/resume: Resume a paused webhook (GM) */
  resumeWebhook: {
    method: "POST";
    path: "/encounters/{encounter_id}/webhooks/{webhook_id}/resume";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
        /** The webhook's id (`webhook_id` in the answer that registered it). */
        webhook_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: ResumeWebhook;
    responses: {
      "200": WebhookView;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: WebhookView;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /encounters/{encounter_id}/webhooks/{webhook_id}/secret: Give a webhook a new signing secret (GM) */
  rotateWebhookSecret: {
    method: "POST";
    path: "/encounters/{encounter_id}/webhooks/{webhook_id}/secret";
    parameters: {
      path: {
        /** The encounter's id (`encounter_id` in the answer to `POST /encounters`). */
        encounter_id: string;
        /** The webhook's id (`webhook_id` in the answer that registered it). */
        webhook_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: NewSecret;
    responses: {
      "200": IssuedWebhook;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: IssuedWebhook;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /health: Is the server and its database up */
  getHealth: {
    method: "GET";
    path: "/health";
    parameters: {
      path: Record<string, never>;
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": Health;
      "429": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: Health;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /metrics: Prometheus metrics (operator) */
  getMetrics: {
    method: "GET";
    path: "/metrics";
    parameters: {
      path: Record<string, never>;
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": string;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "429": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: string;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /rulesets: Rulesets this server runs */
  listRulesets: {
    method: "GET";
    path: "/rulesets";
    parameters: {
      path: Record<string, never>;
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": RulesetSummary[];
      "429": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: RulesetSummary[];
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /rulesets/health-trauma/odds: Odds of an attack hitting (the Attack Test's formula is the GM's data; these are ours) */
  getAttackOdds: {
    method: "GET";
    path: "/rulesets/health-trauma/odds";
    parameters: {
      path: Record<string, never>;
      query: {
        /** The attacker's combat skill. */
        combat_skill?: number;
        /** The target's Guard (with a Reaction's bonus). */
        guard?: number;
        /** The attacker's die (ours: 20). */
        attack_die?: number;
        /** The target's die; 0: Guard is fixed (ours: 20). */
        defence_die?: number;
        /** The attacker's -X (sliced muscles). */
        penalty?: number;
        /** An equal total hits too (ours: it does not). */
        attacker_wins_ties?: boolean;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": HealthTrauma_AttackOdds;
      "400": ProblemDetails;
      "404": ProblemDetails;
      "500": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: HealthTrauma_AttackOdds;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /rulesets/novus/odds: Odds of an attack: its Attack Bonus (all modifiers in) against the target's DEF */
  getNovusAttackOdds: {
    method: "GET";
    path: "/rulesets/novus/odds";
    parameters: {
      path: Record<string, never>;
      query: {
        /** The attack's AB, modifiers included. */
        attack_bonus?: number;
        /** The target's DEF (the TN to hit). */
        defence?: number;
        /** Further dice per exploding or imploding die counted (the rest is the bound). */
        depth?: number;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": Novus_AttackOdds;
      "400": ProblemDetails;
      "404": ProblemDetails;
      "500": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: Novus_AttackOdds;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /rulesets/places-of-power/odds: Odds of a Places of Power check */
  getCheckOdds: {
    method: "GET";
    path: "/rulesets/places-of-power/odds";
    parameters: {
      path: Record<string, never>;
      query: {
        /** The Attribute's die. */
        attribute_die: "D4" | "D6" | "D8" | "D10" | "D12";
        /** The Skill's die. */
        skill_die: "D4" | "D6" | "D8" | "D10" | "D12" | "D20";
        /** The Difficulty the total must reach. */
        difficulty?: "Easy" | "Normal" | "Difficult" | "Hard" | "Very Hard";
        /** The check relates to the character's occupation: an extra D6. */
        occupation?: boolean;
        /** At Advantage: the lower die steps up one rung. */
        advantage?: boolean;
        /** At Disadvantage: the higher die steps down one rung. */
        disadvantage?: boolean;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": PlacesOfPower_Odds;
      "400": ProblemDetails;
      "404": ProblemDetails;
      "500": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: PlacesOfPower_Odds;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /rulesets/realms/odds: An Attack Roll: D20 + ``bonus`` (the Martial or Power Bonus with any penalty) against ``score`` */
  getRealmsAttackOdds: {
    method: "GET";
    path: "/rulesets/realms/odds";
    parameters: {
      path: Record<string, never>;
      query: {
        /** The Attack Bonus, penalties included. */
        bonus?: number;
        /** The target's Evasion or Defence Score. */
        score?: number;
        /** The amount over the Defence a Critical Hit needs (standard: 10). */
        critical_range?: number;
      };
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": Realms_AttackOdds;
      "400": ProblemDetails;
      "404": ProblemDetails;
      "500": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: Realms_AttackOdds;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /rulesets/{ruleset_id}: A ruleset's commands, costs and sheet schema */
  getRuleset: {
    method: "GET";
    path: "/rulesets/{ruleset_id}";
    parameters: {
      path: {
        /** The ruleset's id, such as `places-of-power` (see `GET /rulesets`). */
        ruleset_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": RulesetInfo;
      "400": ProblemDetails;
      "404": ProblemDetails;
      "500": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: RulesetInfo;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /rulesets/{ruleset_id}/odds: Odds of a ruleset's roll */
  getRulesetOdds: {
    method: "GET";
    path: "/rulesets/{ruleset_id}/odds";
    parameters: {
      path: {
        /** The ruleset's id, such as `places-of-power` (see `GET /rulesets`). */
        ruleset_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": PlacesOfPower_Odds | HealthTrauma_AttackOdds | Realms_AttackOdds | Novus_AttackOdds;
      "400": ProblemDetails;
      "404": ProblemDetails;
      "500": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: (PlacesOfPower_Odds | HealthTrauma_AttackOdds | Realms_AttackOdds | Novus_AttackOdds);
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** GET /webhooks: The webhooks for every encounter (operator) */
  listServerWebhooks: {
    method: "GET";
    path: "/webhooks";
    parameters: {
      path: Record<string, never>;
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "200": WebhookView[];
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: WebhookView[];
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /webhooks: Register a webhook for every encounter (operator) */
  addServerWebhook: {
    method: "POST";
    path: "/webhooks";
    parameters: {
      path: Record<string, never>;
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: NewWebhook;
    responses: {
      "201": IssuedWebhook;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: IssuedWebhook;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** DELETE /webhooks/{webhook_id}: Delete a webhook (operator) */
  deleteServerWebhook: {
    method: "DELETE";
    path: "/webhooks/{webhook_id}";
    parameters: {
      path: {
        /** The webhook's id (`webhook_id` in the answer that registered it). */
        webhook_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: never;
    responses: {
      "204": null;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: null;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /webhooks/{webhook_id}/resume: Resume a paused webhook (operator) */
  resumeServerWebhook: {
    method: "POST";
    path: "/webhooks/{webhook_id}/resume";
    parameters: {
      path: {
        /** The webhook's id (`webhook_id` in the answer that registered it). */
        webhook_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: ResumeWebhook;
    responses: {
      "200": WebhookView;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: WebhookView;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
  /** POST /webhooks/{webhook_id}/secret: Give a webhook a new signing secret (operator) */
  rotateServerWebhook: {
    method: "POST";
    path: "/webhooks/{webhook_id}/secret";
    parameters: {
      path: {
        /** The webhook's id (`webhook_id` in the answer that registered it). */
        webhook_id: string;
      };
      query: Record<string, never>;
      header: Record<string, never>;
    };
    requestBody: NewSecret;
    responses: {
      "200": IssuedWebhook;
      "400": ProblemDetails;
      "401": ProblemDetails;
      "403": ProblemDetails;
      "404": ProblemDetails;
      "412": ProblemDetails;
      "413": ProblemDetails;
      "422": ProblemDetails;
      "429": ProblemDetails;
      "500": ProblemDetails;
      "503": ProblemDetails;
    };
    /** The body of a successful answer. */
    response: IssuedWebhook;
    /** The body of a refusal (RFC 9457 problem details). */
    error: ProblemDetails;
  };
}

/** Every path, by method, to its operation. */
export interface paths {
  "/encounters": {
    get: operations["listEncounters"];
    post: operations["openEncounter"];
  };
  "/encounters/{encounter_id}": {
    get: operations["getEncounter"];
  };
  "/encounters/{encounter_id}/actions": {
    get: operations["getActions"];
  };
  "/encounters/{encounter_id}/audit": {
    get: operations["auditEncounter"];
  };
  "/encounters/{encounter_id}/combatants": {
    post: operations["addCombatant"];
  };
  "/encounters/{encounter_id}/commands": {
    post: operations["sendCommand"];
  };
  "/encounters/{encounter_id}/events": {
    get: operations["listEvents"];
  };
  "/encounters/{encounter_id}/live": {
    get: operations["streamEncounter"];
  };
  "/encounters/{encounter_id}/log": {
    get: operations["getLog"];
  };
  "/encounters/{encounter_id}/state": {
    get: operations["getState"];
  };
  "/encounters/{encounter_id}/statistics": {
    get: operations["getStatistics"];
  };
  "/encounters/{encounter_id}/summary": {
    get: operations["getSummary"];
  };
  "/encounters/{encounter_id}/timeline.svg": {
    get: operations["getTimeline"];
  };
  "/encounters/{encounter_id}/tokens": {
    get: operations["listTokens"];
    post: operations["mintToken"];
  };
  "/encounters/{encounter_id}/tokens/{token_id}": {
    delete: operations["revokeToken"];
  };
  "/encounters/{encounter_id}/webhooks": {
    get: operations["listWebhooks"];
    post: operations["registerWebhook"];
  };
  "/encounters/{encounter_id}/webhooks/{webhook_id}": {
    delete: operations["deleteWebhook"];
  };
  "/encounters/{encounter_id}/webhooks/{webhook_id}/resume": {
    post: operations["resumeWebhook"];
  };
  "/encounters/{encounter_id}/webhooks/{webhook_id}/secret": {
    post: operations["rotateWebhookSecret"];
  };
  "/health": {
    get: operations["getHealth"];
  };
  "/metrics": {
    get: operations["getMetrics"];
  };
  "/rulesets": {
    get: operations["listRulesets"];
  };
  "/rulesets/health-trauma/odds": {
    get: operations["getAttackOdds"];
  };
  "/rulesets/novus/odds": {
    get: operations["getNovusAttackOdds"];
  };
  "/rulesets/places-of-power/odds": {
    get: operations["getCheckOdds"];
  };
  "/rulesets/realms/odds": {
    get: operations["getRealmsAttackOdds"];
  };
  "/rulesets/{ruleset_id}": {
    get: operations["getRuleset"];
  };
  "/rulesets/{ruleset_id}/odds": {
    get: operations["getRulesetOdds"];
  };
  "/webhooks": {
    get: operations["listServerWebhooks"];
    post: operations["addServerWebhook"];
  };
  "/webhooks/{webhook_id}": {
    delete: operations["deleteServerWebhook"];
  };
  "/webhooks/{webhook_id}/resume": {
    post: operations["resumeServerWebhook"];
  };
  "/webhooks/{webhook_id}/secret": {
    post: operations["rotateServerWebhook"];
  };
}

/** The request body of an operation (`never` for one that takes none). */
export type RequestBody<Op extends keyof operations> = operations[Op]["requestBody"];
/** The body of an operation's successful answer. */
export type ResponseBody<Op extends keyof operations> = operations[Op]["response"];
/** An operation's query parameters. */
export type QueryOf<Op extends keyof operations> = operations[Op]["parameters"]["query"];
