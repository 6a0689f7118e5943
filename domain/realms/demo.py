"""RealmsRPG's demo fight (``fracas demo --ruleset realms``): Arwen and Bram (players) against two
brigands (the RM's) at a ford; the brigands started it (the first is the initiator, its free first
attack made before initiative is rolled). On each turn
a creature that can act makes Basic Action attacks on the first enemy standing while it has the
AP; a target Dodges when it has AP to spare, a creature with a shield takes the Shield Defense,
everyone else passes. The fight stops once a side is all Dying, unconscious or dead, or after the
rounds asked for."""

from __future__ import annotations

from typing import Any

from domain.core.demo import DemoFight, Json, Script, Seat, Send, Table, beaten_side


def _sheet(health: int, mp: int, abilities: Json, weapon: Json, **extra: Any) -> Json:
    return {"health": health, "martial_proficiency": mp, "abilities": abilities, "weapons": [weapon],
            "proficiencies": {weapon.get("damage_type", "slashing"): 12}, **extra}


CAST = (
    Seat("Arwen", "party", "player", _sheet(16, 2, {"agility": 3, "acuity": 2, "strength": 1},
                                            {"name": "Rapier", "dice": 1, "sides": 6, "damage_type": "piercing",
                                             "kind": "finesse"}, armour={"damage_reduction": 1})),
    Seat("Bram", "party", "player", _sheet(18, 2, {"strength": 3, "vitality": 2, "acuity": 1},
                                           {"name": "Axe", "dice": 1, "sides": 8}, shield={"sides": 6})),
    Seat("Brigand", "brigands", "gm", _sheet(12, 1, {"strength": 2, "agility": 1},
                                             {"name": "Club", "dice": 1, "sides": 6, "damage_type": "bludgeoning"})),
    Seat("Brigand Captain", "brigands", "gm", _sheet(15, 2, {"strength": 2, "agility": 2, "acuity": 2},
                                                     {"name": "Sabre", "dice": 1, "sides": 8})),
)


def body(state: Json, cid: str) -> Json:
    return state["rules"]["bodies"].get(cid) or {}


def out_of_it(state: Json, cid: str) -> bool:
    b = body(state, cid)
    return bool(b.get("dead") or b.get("dying") or b.get("unconscious"))


def beaten(state: Json) -> bool:
    return beaten_side(state, out_of_it) is not None


class AmbushAtTheFord(DemoFight):
    name = "Ambush at the ford (fracas demo)"
    cast = CAST

    def play(self, table: Table) -> Script:
        yield Send({"type": "SetInitiative", "combatant_id": table.ids["Brigand"], "initiator": True})
        # "The creature who initiates Combat can take their first Action without spending any Action
        # Points. Afterward, all creatures involved roll for Initiative"
        yield Send({"type": "RealmsAttack", "combatant_id": table.ids["Brigand"], "target": table.ids["Arwen"]})
        yield Send({"type": "RollInitiative"})
        yield Send({"type": "StartEncounter"})
        while not beaten(table.state) and table.state["round"] <= table.rounds and table.state["status"] == "active":
            cid = table.state["turn"]
            if cid is None:
                return
            me = table.state["combatants"][cid]
            while not beaten(table.state) and not out_of_it(table.state, cid) and me["action_points"] >= 2:
                target = next(o for o, c in table.state["combatants"].items()
                              if c["side"] != me["side"] and not out_of_it(table.state, o))
                yield Send({"type": "RealmsAttack", "combatant_id": cid, "target": target}, self.by(table, cid))
                yield from self.answer(table)
                me = table.state["combatants"][cid]
            yield Send({"type": "EndTurn", "combatant_id": cid}, self.by(table, cid))

    @staticmethod
    def by(table: Table, cid: str) -> str | None:
        return cid if table.state["combatants"][cid]["controller"] == "player" else None

    def answer(self, table: Table) -> Script:
        """Each Reaction window: Dodge with AP to spare, the Shield Defense with a shield, else pass."""
        for _ in range(10):
            window = table.state["rules"].get("window")
            if not window or all(c in window["answers"] for c in window["may_react"]):
                return
            cid = next(c for c in window["may_react"] if c not in window["answers"])
            c = table.state["combatants"][cid]
            sheet = c["sheet"]
            attack = table.state["rules"].get("attack") or {}
            if window["id"].endswith(":roll") and cid == attack.get("target") and attack.get("targets") == "evasion" \
                    and c["action_points"] >= 2:
                choice: str | None = "Dodge"
            elif window["id"].endswith(":defend") and sheet.get("shield") and c["action_points"] >= 1:
                choice = "Shield Defense"
            else:
                choice = None
            if choice is None:
                yield Send({"type": "PassReaction", "combatant_id": cid, "window": window["id"]}, self.by(table, cid))
            else:
                yield Send({"type": "React", "combatant_id": cid, "window": window["id"], "reaction": choice},
                           self.by(table, cid))

    def summary(self, table: Table) -> list[str]:
        lines = []
        for cid, c in table.state["combatants"].items():
            b = body(table.state, cid)
            health = c["sheet"]["current_health"]
            state = ("dead" if b.get("dead") else "Dying" if b.get("dying") else
                     "unconscious" if b.get("unconscious") else "standing")
            lines.append(f"{c['name']}: {state}, Health {health} of {c['sheet']['health']}.")
        return lines
