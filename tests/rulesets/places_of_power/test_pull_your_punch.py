"""Pull your Punch (domain/places_of_power/pull_your_punch.py and the ``pull`` stage of the
attack exchange, attacks.LethalBlow), through the decider with reported dice.

"Pull your Punch (1 AP): If you inflict enough damage on a target that the would be killed
outright, and they fail to defend against it, you can choose to spend an extra Action Point
to reduce that damage down to the point that they would be rendered Helpless instead.
However, you do need to re-roll your attack, and succeed, in order to pull this off
successfully. If you fail then the target takes the full damage."

Fighters: Mira (player: Strength D10, Agility D8, Dexterity D8; Knife D8, Pistol D8,
Athletics D6; a Knife (Melee: Normal, 2 Hits) and a Pistol) and the Bandit (NPC: Strength D8,
Agility D6; Knife D8, Axe D8, Athletics D6; a Knife and an Axe (Melee: Normal, 5 Hits); a
Jerkin). Mira goes first unless a test says otherwise; both start with 3 Action Points.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.core.encounter import AddCombatant, Command, EndTurn, Event
from domain.core.errors import RuleViolation
from domain.places_of_power.attacks import (
    Attack,
    ArmourTook,
    AttackRolled,
    Defend,
    DefenceRolled,
    Exchange,
    ExchangeEnded,
    HitsTaken,
    KnockedProne,
    LethalBlow,
    SpendSuccesses,
)
from domain.places_of_power.pull_your_punch import PullYourPunch, PunchPulled
from tests.rulesets.places_of_power.fight import Fight, shown

KNIFE = {"name": "Knife", "skill": "Knife", "kind": "melee",
         "ranges": {"Melee": {"difficulty": "Normal", "damage": 2}}}
AXE = {"name": "Axe", "skill": "Axe", "kind": "melee", "ranges": {"Melee": {"difficulty": "Normal", "damage": 5}}}
PISTOL = {"name": "Pistol", "skill": "Pistol", "kind": "ranged", "gun": True,
          "ranges": {"Near": {"difficulty": "Normal", "damage": 3}, "Far": {"difficulty": "Difficult", "damage": 2}}}
JERKIN = {"name": "Jerkin", "layer": "Base", "value": 1, "durability": 3}
MIRA: dict[str, Any] = {
    "attributes": {"strength": "D10", "agility": "D8", "dexterity": "D8"},
    "skills": {"Knife": "D8", "Pistol": "D8", "Athletics": "D6"},
    "weapons": [KNIFE, PISTOL],
}
BANDIT: dict[str, Any] = {
    "attributes": {"strength": "D8", "agility": "D6"},
    "skills": {"Knife": "D8", "Axe": "D8", "Athletics": "D6"},
    "weapons": [KNIFE, AXE],
    "armour": [JERKIN],
}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**base, **changes}


def fight(mira: dict[str, Any] | None = None, bandit: dict[str, Any] | None = None, *,
          bandit_first: bool = False) -> Fight:
    f = Fight(dice_policy="reported")
    f.send(AddCombatant(combatant_id="mira", name="Mira", side="party", controller="player", sheet=mira or MIRA))
    f.send(AddCombatant(combatant_id="bandit", name="Bandit", side="enemies", controller="gm",
                        sheet=bandit or BANDIT))
    f.roll([1, 12] if bandit_first else [12, 1])
    f.start()
    return f


def ex(f: Fight) -> Exchange:
    found = shown(f.state).rules.exchange
    assert isinstance(found, Exchange)
    return found


def choices(f: Fight) -> dict[str, int]:
    return {c.name: c.action_points for c in ex(f).choices}


def refused(f: Fight, command: Command) -> RuleViolation:
    before = f.state
    with pytest.raises(RuleViolation) as caught:
        f.send(command)
    assert f.state == before
    return caught.value


def sheet(f: Fight, who: str) -> Any:
    return f.state.combatants[who].sheet


def knife(f: Fight, faces: list[int], **extra: Any) -> list[Event]:
    """Mira's Light Melee attack with the Knife at Melee (Strength D10 + Knife D8, Normal)."""
    return f.send(Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife", band="Melee",
                         dice=faces, **extra))


def take_it(f: Fight, who: str = "bandit") -> list[Event]:
    return f.send(Defend(combatant_id=who, attack=ex(f).id, defence="TakeIt"))


def lethal(f: Fight) -> LethalBlow:
    """Mira's knife (2 Hits, 10 at Normal: no extra Success) on the Bandit at 3 Hits: 5 Hits
    kill an NPC ("If this happens to an NPC ... that NPC has been killed outright")."""
    knife(f, [4, 6])
    (blow,) = take_it(f)
    assert isinstance(blow, LethalBlow)
    return blow


def hurt_bandit(hits: int = 3, **changes: Any) -> dict[str, Any]:
    return with_(BANDIT, hits=hits, **changes)


# --------------------------------------------------------------------- the pull stage


def test_a_killing_blow_waits_for_the_attacker() -> None:
    """"If you inflict enough damage on a target that the would be killed outright, and they
    fail to defend against it, you can choose to spend an extra Action Point": the exchange
    stops at ``pull``, awaiting the attacker, before any Hit lands."""
    f = fight(bandit=hurt_bandit())
    blow = lethal(f)
    assert (blow.combatant_id, blow.damage) == ("bandit", 2)
    e = ex(f)
    assert (e.stage, e.awaiting, e.damage) == ("pull", "mira", 2)
    assert choices(f) == {"PullYourPunch": 1, "LetItLand": 0}
    assert sheet(f, "bandit").hits == 3 and not sheet(f, "bandit").dead  # nothing has landed yet
    assert f.ap("mira") == 2


def test_a_pulled_punch_leaves_the_target_helpless() -> None:
    """"reduce that damage down to the point that they would be rendered Helpless instead.
    However, you do need to re-roll your attack, and succeed": the re-roll (Strength D10 +
    Knife D8 again: 5 + 5 = 10, Normal) succeeds; the Bandit takes 1 Hit, to exactly 4."""
    f = fight(bandit=hurt_bandit())
    lethal(f)
    pulled, hit, ended = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[5, 4]))
    assert isinstance(pulled, PunchPulled)
    assert [d.sides for d in pulled.dice] == [10, 8]
    assert (pulled.total, pulled.difficulty, pulled.success, pulled.action_points) == (9, "Normal", True, 1)
    assert isinstance(hit, HitsTaken) and (hit.damage, hit.hits, hit.dead, hit.helpless) == (1, 4, False, True)
    assert isinstance(ended, ExchangeEnded) and ended.result == "pulled"
    s = sheet(f, "bandit")
    assert (s.hits, s.dead) == (4, False)
    assert f.ap("mira") == 1  # "spend an extra Action Point"
    assert f.state.rules.exchange is None


def test_a_failed_pull_lands_the_full_damage() -> None:
    """"If you fail then the target takes the full damage." The Action Point is spent all
    the same."""
    f = fight(bandit=hurt_bandit())
    lethal(f)
    pulled, hit, ended = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[5, 3]))  # 8 < 9
    assert isinstance(pulled, PunchPulled) and not pulled.success
    assert isinstance(hit, HitsTaken) and (hit.damage, hit.dead) == (2, True)
    assert isinstance(ended, ExchangeEnded) and ended.result == "hit"
    assert sheet(f, "bandit").dead
    assert f.ap("mira") == 1


def test_a_critical_failure_on_the_re_roll_is_a_failure_and_no_mishap() -> None:
    """A pair below the target fails the re-roll; the blow lands, the exchange ends."""
    f = fight(bandit=hurt_bandit())
    lethal(f)
    pulled, hit, _ = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[4, 4]))
    assert not pulled.success and hit.dead
    assert f.state.rules.exchange is None


def test_letting_it_land_costs_nothing() -> None:
    """"you can choose to spend an extra Action Point": choosing not to, the blow lands."""
    f = fight(bandit=hurt_bandit())
    lethal(f)
    hit, ended = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, pull=False))
    assert isinstance(hit, HitsTaken) and (hit.damage, hit.dead) == (2, True)
    assert isinstance(ended, ExchangeEnded) and ended.result == "hit"
    assert f.ap("mira") == 2


def test_the_re_roll_is_the_attacks_own_dice_and_difficulty() -> None:
    """"you do need to re-roll your attack": the Pistol at Far is Difficult (13) with
    Dexterity D8 + Pistol D8; 10 would hit at Normal but fails here."""
    f = fight(bandit=hurt_bandit(armour=[]))
    f.send(Attack(combatant_id="mira", target="bandit", attack="Ranged", weapon="Pistol", band="Far", dice=[7, 6]))
    (blow,) = take_it(f)
    assert isinstance(blow, LethalBlow)
    pulled, hit, _ = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[4, 6]))
    assert [d.sides for d in pulled.dice] == [8, 8]
    assert (pulled.difficulty, pulled.total, pulled.success) == ("Difficult", 10, False)
    assert hit.dead


def test_the_re_roll_keeps_the_attacks_advantage() -> None:
    """Steady: "You gain Advantage with the weapon you are using for this attack" - the re-roll
    is the same attack: D10 + D10 (the Knife's D8 stepped up)."""
    f = fight(bandit=hurt_bandit())
    (_declared, rolled) = knife(f, [4, 6], modifiers=["Steady"])
    assert isinstance(rolled, AttackRolled) and [d.sides for d in rolled.dice] == [10, 10]
    take_it(f)
    assert f.ap("mira") == 1
    pulled, hit, _ = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[3, 10]))
    assert [d.sides for d in pulled.dice] == [10, 10] and pulled.success
    assert (hit.hits, hit.dead) == (4, False)
    assert f.ap("mira") == 0


def test_reported_re_roll_faces_are_range_checked() -> None:
    f = fight(bandit=hurt_bandit())
    lethal(f)
    e = refused(f, PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[5, 9]))  # a 9 on the Knife's D8
    assert e.code == "die_face_out_of_range"
    assert ex(f).stage == "pull"


def test_extra_successes_on_damage_count_toward_the_kill() -> None:
    """The Bandit at 1 Hit: the Knife's 2 would leave him Afflicted, but 16 (two extra
    Successes on Damage) makes 4 Hits: 5, dead: a pulled punch lands 3, to 4."""
    f = fight(bandit=hurt_bandit(1))
    knife(f, [10, 6])
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=["Damage", "Damage"]))
    (blow,) = take_it(f)
    assert isinstance(blow, LethalBlow) and blow.damage == 4
    _, hit, _ = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[5, 4]))
    assert (hit.damage, hit.hits, hit.dead) == (3, 4, False)


def test_through_the_armour_first() -> None:
    """"they can still choose to take the hit to their armour": the Hits the armour lets
    through decide whether the blow kills; the armour is worn once."""
    f = fight(bandit=hurt_bandit(2))
    knife(f, [10, 6])  # 16: two extra Successes
    f.send(SpendSuccesses(combatant_id="mira", attack=ex(f).id, split=["Damage", "Damage"]))
    took, blow = f.send(Defend(combatant_id="bandit", attack=ex(f).id, defence="Armour"))
    assert isinstance(took, ArmourTook) and (took.damage, took.damage_through) == (4, 3)
    assert isinstance(blow, LethalBlow) and blow.damage == 3
    assert [p.durability for p in sheet(f, "bandit").armour] == [2]
    assert choices(f) == {"PullYourPunch": 1, "LetItLand": 0}
    hit, _ = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, pull=False))
    assert (hit.damage, hit.dead) == (3, True)
    assert [p.durability for p in sheet(f, "bandit").armour] == [2]


def test_after_a_failed_defence() -> None:
    """"and they fail to defend against it": an Evade that fails, then taking it."""
    f = fight(bandit=hurt_bandit())
    knife(f, [4, 6])
    # Afflicted (3 Hits): 2 Penalty Points on the Evade.
    (evaded,) = f.send(Defend(combatant_id="bandit", attack=ex(f).id, defence="Evade", dice=[1, 2],
                              penalties=["IncreaseDifficulty", "IncreaseDifficulty"]))
    assert isinstance(evaded, DefenceRolled) and not evaded.success
    (blow,) = take_it(f)
    assert isinstance(blow, LethalBlow)


def test_a_player_is_left_helpless_not_dead() -> None:
    """A player dies when the Hits "exceed the number needed to render the target Helpless by
    more than two": Mira at 2 Hits takes the Axe's 5 (7): killing; the Bandit pulls his punch
    and she is left at 4, with an Injury ("If you suffer two or more Hits in a single attack,
    or you are rendered Helpless, then you suffer an Injury")."""
    f = fight(mira=with_(MIRA, hits=2), bandit_first=True)
    f.send(Attack(combatant_id="bandit", target="mira", attack="LightMelee", weapon="Axe", band="Melee",
                  dice=[5, 4]))
    (blow,) = take_it(f, "mira")
    assert isinstance(blow, LethalBlow) and blow.damage == 5
    assert ex(f).awaiting == "bandit"
    _, hit, _ = f.send(PullYourPunch(combatant_id="bandit", attack=ex(f).id, dice=[5, 4]))
    assert (hit.damage, hit.hits, hit.dead, hit.helpless, hit.injuries) == (2, 4, False, True, 1)


def test_a_knockdown_still_knocks_down_a_pulled_punch() -> None:
    """"Knockdown (1 AP): If your attack is successful in landing a Hit ... your target is
    knocked down": the pulled punch still lands its Hit."""
    f = fight(bandit=hurt_bandit())
    knife(f, [4, 6], modifiers=["Knockdown"])
    take_it(f)
    _, hit, prone, _ = f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[5, 4]))
    assert isinstance(prone, KnockedProne) and hit.hits == 4
    assert sheet(f, "bandit").prone


# ----------------------------------------------------------------------- not offered


def test_not_offered_when_the_blow_does_not_kill() -> None:
    """Only a blow that "would be killed outright": the Bandit at 2 Hits taking 2 is Helpless,
    not dead; a player up to two past Helpless is "simply Helpless"."""
    f = fight(bandit=hurt_bandit(2))
    knife(f, [4, 6])
    hit, _ = take_it(f)
    assert isinstance(hit, HitsTaken) and (hit.hits, hit.dead) == (4, False)
    f = fight(bandit_first=True)
    f.send(Attack(combatant_id="bandit", target="mira", attack="LightMelee", weapon="Axe", band="Melee",
                  dice=[5, 4]))
    hit, _ = take_it(f, "mira")  # 5 Hits on a player at 0: Helpless, alive
    assert isinstance(hit, HitsTaken) and not hit.dead


def test_not_offered_when_the_target_is_already_helpless() -> None:
    """"reduce that damage down to the point that they would be rendered Helpless": a target
    already Helpless has no such point; "if a target is already Helpless and they take
    another Hit, then they die\""""
    f = fight(bandit=hurt_bandit(4))
    knife(f, [4, 6])
    hit, ended = take_it(f)
    assert isinstance(hit, HitsTaken) and hit.dead
    assert isinstance(ended, ExchangeEnded)


def test_not_offered_without_an_action_point() -> None:
    """"you can choose to spend an extra Action Point": Heavy (2) + Steady (1) leaves Mira
    none; the blow lands."""
    f = fight(bandit=hurt_bandit())
    f.send(Attack(combatant_id="mira", target="bandit", attack="HeavyMelee", weapon="Knife", band="Melee",
                  modifiers=["Steady"], dice=[4, 6]))
    assert f.ap("mira") == 0
    hit, _ = take_it(f)
    assert isinstance(hit, HitsTaken) and hit.dead


# ------------------------------------------------------------------------- who decides


def test_only_the_attacker_decides_and_the_turn_waits() -> None:
    """The exchange awaits the attacker: the target cannot answer for them, nor send another
    step; the turn cannot end while the blow waits."""
    f = fight(bandit=hurt_bandit())
    lethal(f)
    attack = ex(f).id
    assert refused(f, PullYourPunch(combatant_id="bandit", attack=attack, dice=[5, 4])).code == "not_your_decision"
    assert refused(f, Defend(combatant_id="bandit", attack=attack, defence="TakeIt")).code == "not_this_step"
    assert refused(f, PullYourPunch(combatant_id="mira", attack=attack + 99, dice=[5, 4])).code == "no_such_attack"
    assert refused(f, EndTurn(combatant_id="mira")).code == "exchange_pending"
    assert refused(f, Attack(combatant_id="mira", target="bandit", attack="LightMelee", weapon="Knife",
                             band="Melee", dice=[4, 6])).code == "exchange_pending"
    f.send(PullYourPunch(combatant_id="mira", attack=attack, pull=False))
    f.end_turn()
    assert refused(f, PullYourPunch(combatant_id="mira", attack=attack, pull=False)).code == "no_such_attack"


def test_replaying_the_events_gives_the_same_state() -> None:
    f = fight(bandit=hurt_bandit())
    lethal(f)
    f.send(PullYourPunch(combatant_id="mira", attack=ex(f).id, dice=[5, 4]))
    assert f.ruleset.replay(f.events) == f.state


def test_an_enemy_without_the_set_action_lets_the_blow_land() -> None:
    """"they cannot have the Enemy do something that is not listed": an Enemy whose Set
    Actions leave out Pull your Punch cannot pull it; letting the blow land is doing nothing,
    and the fight goes on."""
    axe = {**AXE, "skill": "Melee"}
    enemy = {"attributes": {"strength": "D8"}, "skills": {"Melee": "D8"}, "weapons": [axe],
             "stat_block": {"set_actions": ["Light Melee Attack"]}}
    f = fight(mira=with_(MIRA, hits=2), bandit=enemy, bandit_first=True)
    f.send(Attack(combatant_id="bandit", target="mira", attack="LightMelee", weapon="Axe", band="Melee",
                  dice=[5, 4]))
    take_it(f, "mira")
    pending = f.state.rules.exchange
    if pending is not None and pending.stage == "pull":
        e = refused(f, PullYourPunch(combatant_id="bandit", attack=pending.id, dice=[5, 4]))
        assert e.code == "not_a_set_action"
        f.send(PullYourPunch(combatant_id="bandit", attack=pending.id, pull=False))
    assert f.state.rules.exchange is None
    assert sheet(f, "mira").dead
    f.end_turn()


def test_an_enemy_with_the_set_action_pulls_its_punch() -> None:
    axe = {**AXE, "skill": "Melee"}
    enemy = {"attributes": {"strength": "D8"}, "skills": {"Melee": "D8"}, "weapons": [axe],
             "stat_block": {"set_actions": ["Light Melee Attack", "Pull your Punch"]}}
    f = fight(mira=with_(MIRA, hits=2), bandit=enemy, bandit_first=True)
    f.send(Attack(combatant_id="bandit", target="mira", attack="LightMelee", weapon="Axe", band="Melee",
                  dice=[5, 4]))
    take_it(f, "mira")
    pulled, hit, _ = f.send(PullYourPunch(combatant_id="bandit", attack=ex(f).id, dice=[5, 4]))
    assert pulled.success and (hit.hits, hit.dead) == (4, False)
