"""How a sentence names a combatant (domain/core/names.py), shared by the log, demos and rulesets."""

from domain.core.names import called


def test_the_gms_combatants_take_the_article_players_do_not() -> None:
    assert called("Raider", npc=True) == "the Raider"
    assert called("Kess", npc=False) == "Kess"


def test_a_name_that_has_its_article_keeps_it() -> None:
    assert called("A Bandit", npc=True) == "A Bandit"
    assert called("the Ogre", npc=True) == "the Ogre"
    assert called("Theodric", npc=True) == "the Theodric"
