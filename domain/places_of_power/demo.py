"""Places of Power's demo fight (``fracas demo``): Mira and Kess (players) against two bandits
(the GM's), played through the public API by ``server/cli/demo.py``.

On each turn the combatant attacks someone on the other side (the most hurt); every decision
the exchange then waits for (``state.rules.exchange``: ``stage``, ``awaiting``, ``choices``)
is answered by whoever it waits for: a Critical's addition, the extra Successes, a defence
(Parry or Evade when affordable, else the armour, else taking it), the GM's mishap, and,
when a server has Pull your Punch, sparing a beaten enemy (the players) or not (the
bandits). A combatant with Medical tends to a Helpless friend first; a Prone one stands. A
step it does not know stops the fight there, told. The fight stops when one side is all
Helpless or dead, or after the rounds asked for.
"""

from __future__ import annotations

from typing import Any

from domain.core.demo import Aside, DemoFight, Json, Script, Seat, Send, Stuck, Table, beaten_side
from domain.core.log import count
from domain.core.names import called
from domain.places_of_power.harm import HIT_LEVELS, penalty_points

ATTACKS_PER_TURN = 2


def _weapon(name: str, skill: str, damage: int, **extra: Any) -> Json:
    at_melee = {"Melee": {"difficulty": "Normal", "damage": damage}}
    return {"name": name, "skill": skill, "kind": "melee", "ranges": at_melee, **extra}


def _armour(name: str, layer: str, value: int, durability: int) -> Json:
    return {"name": name, "layer": layer, "value": value, "durability": durability}


CAST = (
    Seat("Mira", "party", "player", {
        "attributes": {"strength": "D10", "stamina": "D8", "agility": "D8", "dexterity": "D8", "perception": "D6"},
        "skills": {"Sword": "D10", "Knife": "D6", "Athletics": "D8", "Brawling": "D6", "Medical": "D4"},
        "weapons": [_weapon("Sabre", "Sword", 3), _weapon("Knife", "Knife", 2)],
        "armour": [_armour("Cloak", "Outer", 1, 2), _armour("Leather jerkin", "Base", 2, 3)],
        "initiative_modifier": 2,
    }),
    Seat("Kess", "party", "player", {
        "attributes": {"strength": "D8", "agility": "D10", "dexterity": "D10", "intelligence": "D8"},
        "skills": {"Spear": "D8", "Athletics": "D8", "Medical": "D8", "Brawling": "D6"},
        "weapons": [_weapon("Spear", "Spear", 3, two_handed=True)],
        "armour": [_armour("Padded coat", "Outer", 1, 2), _armour("Gambeson", "Skin", 1, 2)],
        "initiative_modifier": 1,
    }),
    Seat("Bandit", "bandits", "gm", {
        "attributes": {"strength": "D6", "agility": "D6", "dexterity": "D6"},
        "skills": {"Melee": "D6", "Athletics": "D6", "Brawling": "D6"},
        "weapons": [_weapon("Cudgel", "Melee", 2)],
        "armour": [_armour("Greatcoat", "Outer", 1, 2)],
        "initiative_modifier": 1,
    }),
    Seat("Bandit Chief", "bandits", "gm", {
        "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D6"},
        "skills": {"Melee": "D8", "Athletics": "D8", "Brawling": "D6"},
        "weapons": [_weapon("Axe", "Melee", 3)],
        "armour": [_armour("Greatcoat", "Outer", 1, 2), _armour("Jerkin", "Base", 2, 3)],
        "initiative_modifier": 1,
    }),
)


# ---------------------------------------------------------------------- reading the state


def down(c: Json) -> bool:
    """Out of the fight: dead or Helpless."""
    s = c["sheet"]
    return bool(s["dead"] or s["hits"] >= 4 or s.get("helpless_for_fight"))


def beaten(state: Json) -> str | None:
    """The side all of whose combatants are down, if any."""
    return beaten_side(state, lambda st, cid: down(st["combatants"][cid]))


def wound_level(hits: int, dead: bool) -> str:
    return "dead" if dead else HIT_LEVELS[min(hits, len(HIT_LEVELS) - 1)]


def _sides_of_die(die: str | None) -> int:
    return int(die[1:]) if die else 0


def defence_dice(c: Json, defence: str) -> int:
    """How good a defence is for this combatant: the sides of its two dice added (0: cannot roll it)."""
    s = c["sheet"]
    if defence == "Parry":
        blade = next((w for w in s["weapons"] if w["kind"] == "melee" and w["name"] not in s["dropped_weapons"]), None)
        if blade is None or blade["skill"] not in s["skills"]:
            return 0
        return _sides_of_die(s["attributes"]["strength"]) + _sides_of_die(s["skills"][blade["skill"]])
    skill = s["skills"].get("Athletics")
    return _sides_of_die(s["attributes"]["agility"]) + _sides_of_die(skill) if skill else 0


def named(c: Json) -> str:
    """A combatant as the log names them: a player's by name, the GM's with the article."""
    return called(c["name"], c["controller"] != "player")


# ------------------------------------------------------------------------------ the script


class AmbushAtTheFord(DemoFight):
    name = "Ambush at the ford (fracas demo)"
    cast = CAST

    def play(self, table: Table) -> Script:
        yield Send({"type": "RollInitiative"})
        yield Send({"type": "StartEncounter"})
        while (beaten(table.state) is None and table.state["round"] <= table.rounds
               and table.state["status"] == "active"):
            yield from self.take_turn(table, table.state["turn"])

    def take_turn(self, table: Table, cid: str) -> Script:
        if not down(combatant(table, cid)):
            yield from self.act_on_turn(table, cid)
            if beaten(table.state) is not None:
                return
        yield Send({"type": "EndTurn", "combatant_id": cid}, cid)

    def act_on_turn(self, table: Table, cid: str) -> Script:
        c = combatant(table, cid)
        if c["sheet"]["prone"]:
            if c["action_points"] < 1 + penalty_points(c["sheet"]["hits"]):
                return
            if not (yield from act(table, {"type": "TakeAction", "combatant_id": cid, "action": "Stand"}, cid,
                                   rolled=False)):
                return
        yield from self.heal_a_friend(table, cid)
        for n in range(ATTACKS_PER_TURN):
            if not (yield from self.attack(table, cid, first=n == 0)):
                return
            if beaten(table.state) is not None:
                return

    def heal_a_friend(self, table: Table, cid: str) -> Script:
        """A combatant with Medical tends to a Helpless friend (3 AP) before fighting on."""
        c = combatant(table, cid)
        s = c["sheet"]
        if "Medical" not in s["skills"] or _sides_of_die(s["skills"]["Medical"]) < 8 or c["action_points"] < 3:
            return
        friend = next((f for f in table.state["combatants"].values() if f["side"] == c["side"] and f["id"] != cid
                       and not f["sheet"]["dead"] and f["sheet"]["hits"] >= 4
                       and not f["sheet"].get("helpless_for_fight")), None)
        if friend is None:
            return
        attribute = max(("dexterity", "intelligence"), key=lambda a: _sides_of_die(s["attributes"][a]))
        yield from act(table, {"type": "Heal", "combatant_id": cid, "target": friend["id"], "attribute": attribute},
                       cid, rolled=True)

    def attack(self, table: Table, cid: str, *, first: bool) -> Script:
        """One attack and its whole exchange; False when the combatant cannot or will not attack."""
        c = combatant(table, cid)
        targets = [o for o in table.state["combatants"].values() if o["side"] != c["side"] and not down(o)]
        if not targets:
            return False
        target = max(targets, key=lambda o: o["sheet"]["hits"])  # the most hurt: finish them
        s = c["sheet"]
        weapon = next((w for w in s["weapons"] if w["kind"] == "melee" and "Melee" in w["ranges"]
                       and w["name"] not in s["dropped_weapons"]), None)
        if weapon is None and "Brawling" not in s["skills"]:
            return False
        ap = c["action_points"]
        # The first attack of a turn: Heavy when it still leaves an Action Point to defend with.
        # A second one only keeps an Action Point back.
        kind = "HeavyMelee" if first and ap >= 3 else "LightMelee"
        if ap < (1 if first else 2):
            return False
        body = {"type": "Attack", "combatant_id": cid, "target": target["id"], "attack": kind, "band": "Melee",
                "weapon": weapon["name"] if weapon else None}
        if not (yield from act(table, body, cid, rolled=True)):
            return False
        yield from self.resolve_exchange(table)
        return True

    def resolve_exchange(self, table: Table) -> Script:
        """Answer every decision the exchange waits for, as whoever it waits for."""
        while (ex := table.state["rules"].get("exchange")) is not None:
            choices = {ch["name"]: ch["action_points"] for ch in ex["choices"]}
            awaiting = ex["awaiting"]
            stage = ex["stage"]
            base = {"attack": ex["id"]}
            if stage == "mishap":
                yield Send({"type": "ResolveMishap", **base})  # the GM rolls the D6
            elif stage == "critical":
                effect = "UnavoidableHit" if "UnavoidableHit" in choices else next(
                    n for n in choices if n != "InflictCondition")
                yield Send({"type": "ChooseCriticalEffect", "combatant_id": awaiting, "effect": effect, **base},
                           awaiting)
            elif stage == "spend":
                yield Send({"type": "SpendSuccesses", "combatant_id": awaiting, "split": ["Damage"] * ex["extra"],
                            **base}, awaiting)
            elif stage in ("defence", "riposte"):
                yield from self.defend(table, awaiting, choices, ex)
            elif stage == "pull":  # a killing blow: the players spare their enemy, the bandits do not
                spare = "PullYourPunch" in choices and awaiting in table.players
                yield Send({"type": "PullYourPunch", "combatant_id": awaiting, "pull": spare, **base}, awaiting)
            else:
                raise Stuck(f"Attack {ex['id']} waits for “{stage}”, a step this demo does not know: "
                            "the GM ends the fight here.")

    def defend(self, table: Table, cid: str, choices: dict[str, int], ex: Json) -> Script:
        """Parry or Evade (or Dive) if affordable, the better dice first; else the armour; else take it.
        A blow that does no harm is taken."""
        c = combatant(table, cid)
        body = {"type": "Defend", "combatant_id": cid, "attack": ex["id"]}
        harmless = ex["damage"] == 0 and ex.get("critical") is None and "Knockdown" not in ex["modifiers"]
        if harmless:
            yield Send({**body, "defence": "TakeIt"}, cid)
            return
        active = sorted((n for n in ("Parry", "Evade", "Dive") if n in choices and defence_dice(c, n) > 0),
                        key=lambda n: -defence_dice(c, n))
        if active and (yield from act(table, {**body, "defence": active[0]}, cid, rolled=True)):
            return
        yield Send({**body, "defence": "Armour" if "Armour" in choices else "TakeIt"}, cid)

    def summary(self, table: Table) -> list[str]:
        state = table.state
        lost = beaten(state)
        played = min(state["round"], table.rounds)
        if lost:
            others = dict.fromkeys(c["side"] for c in state["combatants"].values() if c["side"] != lost)
            winners = " and the ".join(others)
            lines = [f"After {count(played, 'round')} every one of the {lost} is down: the {winners} win."]
        else:
            lines = [f"After {count(played, 'round')} both sides still stand."]
        for c in state["combatants"].values():
            s = c["sheet"]
            standing = "down" if down(c) else "stands"
            injuries = f", {count(s['injuries'], 'Injury', 'Injuries')}" if s["injuries"] else ""
            name = named(c)
            lines.append(f"  {name[:1].upper() + name[1:]} ({c['side']}): {standing}, "
                         f"{wound_level(s['hits'], s['dead'])}, Hits taken: {s['hits']}{injuries}")
        return lines


def combatant(table: Table, cid: str) -> Json:
    return dict(table.state["combatants"][cid])


def act(table: Table, body: Json, cid: str, *, rolled: bool) -> Script:
    """An action the combatant chose, paying any Penalty Points its wounds owe (a rolled
    action steps a die down; one without dice costs an Action Point more). The rules may
    refuse it: the refusal is told and False returned."""
    owed = penalty_points(combatant(table, cid)["sheet"]["hits"])
    ways = ["StepDownDie", "IncreaseDifficulty", "IncreaseCost"] if rolled else ["IncreaseCost"]
    way = 0
    for _ in range(len(ways) + 2):
        refused = yield Send({**body, "penalties": [ways[way]] * owed}, cid, may_refuse=True)
        if refused is None:
            return True
        asked = refused.details.get("owed")
        if refused.code == "penalty_points_owed" and isinstance(asked, int) and asked != owed:
            owed = asked  # the server counts more (a grapple, say): pay what it asks
            continue
        if refused.code == "penalty_not_applicable" and way + 1 < len(ways):
            way += 1
            continue
        yield Aside(f"The rules refuse: {refused.detail}")
        return False
    return False
