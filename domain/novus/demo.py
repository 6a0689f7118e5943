"""Novus' demo fight (``fracas demo --ruleset novus``): Aren and Sela (players) against two
brigands (the GM's) at a ford. Each round everyone who can act declares, from the lowest IP to
the highest, an attack on the first foe still standing (Sela, the archer, shoots); the attacks
resolve from the highest IP down; Boon Points go on a Strong Attack when there is one, else on
Daze Foe. The fight stops once a side is all helpless, or after the rounds asked for."""

from __future__ import annotations

from domain.core.demo import DemoFight, Json, Script, Seat, Send, Table, beaten_side
from domain.novus.sheet import STATS


def _stats(**bonus: int) -> Json:
    return {s: {"value": 10 + 2 * bonus.get(s, 0), "bonus": bonus.get(s, 0)} for s in STATS}


def _sheet(hp: int, skill: str, ranks: int, bonus: int, weapon: Json, ar: int, **stats: int) -> Json:
    return {"stats": _stats(**stats), "hit_points": hp, "armour": {"ar": ar, "called_shot_ar": {"head": 1}},
            "skills": [{"name": skill, "ranks": ranks, "bonus": bonus, "melee": weapon.get("kind", "melee") == "melee"}],
            "weapons": [{**weapon, "skill": skill}]}


CAST = (
    Seat("Aren", "party", "player", _sheet(44, "Broadsword", 6, 9, {"name": "Broadsword", "size": "medium", "dr": 8},
                                           6, strength=2, speed=1, wisdom=1, constitution=1)),
    Seat("Sela", "party", "player", _sheet(36, "Short Bow", 5, 8, {"name": "Short Bow", "size": "small", "dr": 6,
                                                                    "kind": "missile", "range": 50, "stat": "dexterity"},
                                           4, dexterity=2, speed=2, wisdom=1)),
    Seat("Brigand", "brigands", "gm", _sheet(34, "Club", 3, 5, {"name": "Club", "size": "medium", "dr": 6}, 4,
                                             strength=1)),
    Seat("Brigand Captain", "brigands", "gm", _sheet(42, "Bastard Sword", 6, 8, {"name": "Bastard Sword", "size": "large",
                                                                                 "dr": 9}, 6, strength=2, speed=1)),
)


def _lost(state: Json, cid: str) -> int:
    return int(state["rules"]["hits_lost"].get(cid, 0))


def down(state: Json, cid: str) -> bool:
    return cid in state["rules"]["dead"] or state["combatants"][cid]["sheet"]["hit_points"] - _lost(state, cid) <= 0


def beaten(state: Json) -> bool:
    return beaten_side(state, down) is not None


class AmbushAtTheFord(DemoFight):
    name = "Ambush at the ford (fracas demo)"
    cast = CAST

    def play(self, table: Table) -> Script:
        yield Send({"type": "RollInitiative"})
        yield Send({"type": "StartEncounter"})
        for _ in range(400):
            state = table.state
            if beaten(state) or state["round"] > table.rounds or state["status"] != "active":
                return
            yield self.next_step(state)

    def next_step(self, state: Json) -> Send:
        r = state["rules"]
        due = r.get("boons_due")
        if due:
            cid = due["attacker"]
            boons = ["Strong Attack"] if due["points"] >= 1 else ["Daze Foe"]
            return Send({"type": "NovusSpendBoons", "combatant_id": cid, "boons": boons}, self.by(state, cid))
        snagged = r.get("snags_due")
        if snagged:  # the GM spends an imploded roll's Snag Points: a strained muscle, the mildest
            return Send({"type": "NovusSpendSnags", "combatant_id": snagged["roller"], "snags": ["Strain a muscle"]})
        at = r["position"]
        if at["phase"] == 0:
            mover = next(c for c in reversed(r["declarers"]) if c not in at["moved"])
            return Send({"type": "NovusDeclare", "combatant_id": mover, "actions": self.attack(state, mover)},
                        self.by(state, mover))
        cid = state["turn"]
        if at["phase"] == 1 and cid not in r["resolved"]:
            return Send({"type": "NovusResolve", "combatant_id": cid}, self.by(state, cid))
        return Send({"type": "EndTurn", "combatant_id": cid}, self.by(state, cid))

    @staticmethod
    def attack(state: Json, cid: str) -> list[Json]:
        me = state["combatants"][cid]
        foe = next((o for o, c in state["combatants"].items() if c["side"] != me["side"] and not down(state, o)), None)
        if foe is None:
            return []
        return [{"kind": "attack", "target": foe, "weapon": me["sheet"]["weapons"][0]["name"]}]

    @staticmethod
    def by(state: Json, cid: str) -> str | None:
        return cid if state["combatants"][cid]["controller"] == "player" else None

    def summary(self, table: Table) -> list[str]:
        lines = []
        for cid, c in table.state["combatants"].items():
            left = c["sheet"]["hit_points"] - _lost(table.state, cid)
            lines.append(f"{c['name']}: {left} Hit Points" + (", helpless." if left <= 0 else "."))
        return lines
