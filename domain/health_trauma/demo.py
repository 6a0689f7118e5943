"""Health/Trauma's demo fight (``fracas demo --ruleset health-trauma``): Mira and Kess (players)
against two raiders (the GM's). On each turn a fighter who can act attacks the first enemy still
standing, twice (two Half actions); the target dodges while it has its Reaction; an injury roll
due is rolled by whoever is dying, a Fear save by whoever is reeling. The fight stops once a side is all dying or dead, or after the
rounds asked for."""

from __future__ import annotations

from typing import Any

from domain.core.demo import DemoFight, Json, Script, Seat, Send, Table, beaten_side


def _sheet(physique: int, skill: int, guard: int, protection: int, weapon: Json, **extra: Any) -> Json:
    return {"physique": physique, "combat_skill": skill, "guard": guard, "protection": protection,
            "weapons": [weapon], **extra}


CAST = (
    Seat("Mira", "party", "player", _sheet(3, 6, 4, 1, {"name": "Sabre", "damage_dice": 1, "damage_sides": 8},
                                           initiative_bonus=2)),
    Seat("Kess", "party", "player", _sheet(2, 5, 3, 1, {"name": "Spear", "damage_dice": 1, "damage_sides": 8,
                                                        "range": 1}, initiative_bonus=1)),
    Seat("Raider", "raiders", "gm", _sheet(1, 4, 2, 0, {"name": "Club", "damage_dice": 1, "damage_sides": 6})),
    Seat("Raider Chief", "raiders", "gm", _sheet(3, 6, 3, 1, {"name": "Axe", "damage_dice": 2, "damage_sides": 4})),
)


def body(state: Json, cid: str) -> Json:
    return state["rules"]["bodies"].get(cid) or {}


def out_of_it(state: Json, cid: str) -> bool:
    b = body(state, cid)
    return bool(b.get("dead") or b.get("dying") or b.get("coma"))


def beaten(state: Json) -> bool:
    return beaten_side(state, out_of_it) is not None


class RaidOnTheMill(DemoFight):
    name = "Raid on the mill (fracas demo)"
    cast = CAST

    def play(self, table: Table) -> Script:
        yield Send({"type": "RollInitiative"})
        yield Send({"type": "StartEncounter"})
        while not beaten(table.state) and table.state["round"] <= table.rounds and table.state["status"] == "active":
            cid = table.state["turn"]
            if cid is None:
                return
            yield from self.answer(table)  # a Fear save due as the turn starts
            for _ in range(2):
                if beaten(table.state) or not self.can_attack(table.state, cid):
                    break
                target = next(o for o, c in table.state["combatants"].items()
                              if c["side"] != table.state["combatants"][cid]["side"] and not out_of_it(table.state, o))
                yield Send({"type": "HTAttack", "combatant_id": cid, "target": target}, self.by(table, cid))
                yield from self.answer(table)
            yield from self.answer(table)
            yield Send({"type": "EndTurn", "combatant_id": cid}, self.by(table, cid))

    @staticmethod
    def by(table: Table, cid: str) -> str | None:
        return cid if table.state["combatants"][cid]["controller"] == "player" else None

    @staticmethod
    def can_attack(state: Json, cid: str) -> bool:
        b = body(state, cid)
        left = (state["combatants"][cid].get("resources") or {}).get("turn quarters", 0)
        return left >= 2 and not (b.get("dead") or b.get("coma") or b.get("stunned") or b.get("dazed"))

    def answer(self, table: Table) -> Script:
        """The target's Reaction (a Dodge while it has one), then any injury roll due."""
        window = table.state["rules"].get("window")
        if window and not all(c in window["answers"] for c in window["may_react"]):
            target = window["may_react"][0]
            yield Send({"type": "React", "combatant_id": target, "window": window["id"], "reaction": "Dodge"},
                       self.by(table, target))
        for cid, b in list(table.state["rules"]["bodies"].items()):
            if b.get("injury_due") and not b.get("dead"):
                yield Send({"type": "HTRollInjury", "combatant_id": cid}, self.by(table, cid))
            if b.get("fear_save_due") and not b.get("dead"):
                yield Send({"type": "HTRollFearSave", "combatant_id": cid}, self.by(table, cid))

    def summary(self, table: Table) -> list[str]:
        lines = []
        for cid, c in table.state["combatants"].items():
            b = body(table.state, cid)
            state = "dead" if b.get("dead") else "dying" if b.get("dying") else "standing"
            lines.append(f"{c['name']}: {state}, Trauma {b.get('trauma', 0)}, injuries: "
                         f"{', '.join(b.get('injuries', [])) or 'none'}.")
        return lines
