"""Places of Power armour (places-of-power-combat.txt: "Armour" and "Helmet Sacrifice").

A coat (Outer 2), a leather jerkin (Base 3), a gambeson (Skin 1) and a helmet (2).
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.core.errors import CODES, RuleViolation
from domain.places_of_power.armour import ArmourPiece, ArmourResult, helmet_sacrifice, take_on_armour


def piece(name: str, layer: str, value: int, durability: int = 5) -> ArmourPiece:
    return ArmourPiece(name=name, layer=layer, value=value, durability=durability)  # type: ignore[arg-type]


def kit(*, coat: int = 5, jerkin: int = 5, gambeson: int = 5, helmet: int = 5) -> list[ArmourPiece]:
    """Given innermost first, to show the order comes from the layers, not the list."""
    return [
        piece("gambeson", "Skin", 1, gambeson),
        piece("helmet", "Helmet", 2, helmet),
        piece("jerkin", "Base", 3, jerkin),
        piece("coat", "Outer", 2, coat),
    ]


def durability(result: ArmourResult) -> dict[str, int]:
    return {p.name: p.durability for p in result.pieces}


# --- blows ---------------------------------------------------------------------------


def test_a_blow_goes_through_the_layers_outermost_first() -> None:
    """"the outer most Layer is affected first. This reduces the incoming damage by a set
    amount ... If there is any damage left over it is transferred to the next Layer, which
    in turn reduces the damage by a set amount. If you have no additional Layers, or the
    damage is not negated by all three Layers, then the remaining Damage it taken by the
    character themselves."

    8 damage: coat takes 2 (6 left), jerkin 3 (3 left), gambeson 1: 2 gets through.
    """
    result = take_on_armour(kit(), 8)
    assert result.damage_through == 2
    assert result.used == ["gambeson", "jerkin", "coat"]  # in the order given
    assert [p.name for p in result.pieces] == ["gambeson", "helmet", "jerkin", "coat"]


def test_a_blow_the_layers_stop_gets_nothing_through() -> None:
    """"If there is any damage left over it is transferred to the next Layer": 4 damage,
    coat 2, jerkin stops the other 2 (it could take 3); the gambeson is not reached."""
    result = take_on_armour(kit(), 4)
    assert result.damage_through == 0
    assert sorted(result.used) == ["coat", "jerkin"]
    assert durability(result) == {"gambeson": 5, "helmet": 5, "jerkin": 4, "coat": 4}


def test_only_layers_used_lose_durability() -> None:
    """"Every Layer of Armour that is utilised in the defence also reduces its Durability
    by one." The Helmet is not touched by a blow to the body; the pieces given are not
    changed (the result is the new state)."""
    pieces = kit()
    result = take_on_armour(pieces, 8)
    assert durability(result) == {"gambeson": 4, "helmet": 5, "jerkin": 4, "coat": 4}
    assert [p.durability for p in pieces] == [5, 5, 5, 5]


def test_a_blow_stopped_by_the_outer_layer_leaves_base_and_skin_untouched() -> None:
    """"the outer most Layer is affected first": 2 damage, all taken by the coat."""
    result = take_on_armour(kit(), 2)
    assert (result.damage_through, result.used, result.destroyed) == (0, ["coat"], [])
    assert durability(result) == {"gambeson": 5, "helmet": 5, "jerkin": 5, "coat": 4}


def test_a_layer_reaching_zero_is_destroyed_and_skipped_afterwards() -> None:
    """"If the Durability reaches zero, then that piece of Armour is destroyed and cannot
    be repaired later." The coat at 1 is used up by the first blow; the second blow starts
    at the jerkin."""
    first = take_on_armour(kit(coat=1), 2)
    assert first.destroyed == ["coat"] and first.used == ["coat"]
    assert durability(first)["coat"] == 0
    second = take_on_armour(first.pieces, 2)
    assert second.used == ["jerkin"] and second.destroyed == []
    assert durability(second) == {"gambeson": 5, "helmet": 5, "jerkin": 4, "coat": 0}


def test_no_layers_left_means_the_character_takes_it_all() -> None:
    """"If you have no additional Layers ... then the remaining Damage it taken by the
    character themselves"."""
    result = take_on_armour(kit(coat=0, jerkin=0, gambeson=0), 3)
    assert (result.damage_through, result.used) == (3, [])
    assert take_on_armour([], 3).damage_through == 3


def test_no_damage_uses_nothing() -> None:
    """Only a Hit with damage reaches the armour: "Every Layer of Armour that is utilised
    in the defence" - none is, for 0 damage."""
    for damage in (0, -2):
        for gunshot in (False, True):
            result = take_on_armour(kit(), damage, gunshot=gunshot)
            assert (result.damage_through, result.used) == (0, [])
            assert result.pieces == kit()


# --- the Helmet ----------------------------------------------------------------------


def test_the_helmet_alone_protects_the_head() -> None:
    """A Helmet "only provides protection for your Head, and does not count as part of the
    Layer system": a blow to the head meets the helmet only (2 off 5: 3 through), and the
    body layers are not used."""
    result = take_on_armour(kit(), 5, head=True)
    assert (result.damage_through, result.used) == (3, ["helmet"])
    assert durability(result) == {"gambeson": 5, "helmet": 4, "jerkin": 5, "coat": 5}


def test_a_head_blow_without_a_helmet_gets_through() -> None:
    """"only provides protection for your Head": with the helmet gone, nothing covers it."""
    result = take_on_armour(kit(helmet=0), 5, head=True)
    assert (result.damage_through, result.used) == (5, [])


# --- gun shots -----------------------------------------------------------------------


def test_a_gunshot_just_covered_by_a_full_set_wears_every_layer() -> None:
    """"you add up how much total damage reduction your Armour provides (not including any
    Helmet you may be wearing), and then you subtract one from that total ... In most cases,
    even a fully Layered Armour set is only just going to defend against a gun shot, and as
    such more often than not all of your Armour will reduce its Durability by one."

    2 + 3 + 1 = 6, minus one: 5 protection against 5 damage.
    """
    result = take_on_armour(kit(), 5, gunshot=True)
    assert result.damage_through == 0
    assert sorted(result.used) == ["coat", "gambeson", "jerkin"]
    assert durability(result) == {"gambeson": 4, "helmet": 5, "jerkin": 4, "coat": 4}


def test_a_gunshot_beyond_the_armour_gets_through_and_wears_every_layer() -> None:
    """"This tells you how much protection your Armour will provide against a gun shot":
    5 protection against 8 damage lets 3 through; all of the Armour was used."""
    result = take_on_armour(kit(), 8, gunshot=True)
    assert result.damage_through == 3
    assert sorted(result.used) == ["coat", "gambeson", "jerkin"]


def test_most_armour_will_not_defend_against_a_bullet_on_its_own() -> None:
    """"Most Armour in the game will not defend against a bullet shot on its own": the
    jerkin alone gives 3 - 1 = 2 against 4."""
    result = take_on_armour([piece("jerkin", "Base", 3)], 4, gunshot=True)
    assert (result.damage_through, result.used) == (2, ["jerkin"])


def test_a_gunshot_the_armour_exceeds_drops_the_innermost_pieces() -> None:
    """"on the off chance that your Total Armour Value exceeds the gun shot damage,
    subtract pieces of Armour, starting with your lowest level, until the values match.
    Only the remaining pieces of Armour suffer a Durability Hit."

    2 damage against 5: drop the gambeson (coat + jerkin: 5 - 1 = 4, still covers), then
    the jerkin would leave 2 - 1 = 1: it is required, so coat and jerkin are worn.
    A 4 damage shot: dropping the gambeson leaves 4, exactly a match.
    """
    result = take_on_armour(kit(), 2, gunshot=True)
    assert result.damage_through == 0
    assert sorted(result.used) == ["coat", "jerkin"]
    assert durability(result) == {"gambeson": 5, "helmet": 5, "jerkin": 4, "coat": 4}
    matched = take_on_armour(kit(), 4, gunshot=True)
    assert (matched.damage_through, sorted(matched.used)) == (0, ["coat", "jerkin"])


def test_a_gunshot_drops_pieces_until_the_values_match() -> None:
    """"subtract pieces of Armour, starting with your lowest level, until the values
    match": Outer 4, Base 1, Skin 1 (6 - 1 = 5) against 3: Skin goes (4), Base goes (3,
    a match); only the Outer layer is worn."""
    pieces = [piece("coat", "Outer", 4), piece("mail", "Base", 1), piece("shirt", "Skin", 1)]
    result = take_on_armour(pieces, 3, gunshot=True)
    assert (result.damage_through, result.used) == (0, ["coat"])


def test_a_piece_that_cannot_be_removed_is_required() -> None:
    """"If you can't remove a piece of Armour without the Total Armour Value dropping below
    the gun shot damage, then that Armour is required to negate the Hit, and so its
    Durability is reduced."

    Outer 1, Base 2, Skin 4 (7 - 1 = 6) against 4: the Skin layer cannot go (3 - 1 = 2 is
    below 4), so nothing is dropped and every layer is worn.
    """
    pieces = [piece("coat", "Outer", 1), piece("jerkin", "Base", 2), piece("plate", "Skin", 4)]
    result = take_on_armour(pieces, 4, gunshot=True)
    assert result.damage_through == 0
    assert result.used == ["coat", "jerkin", "plate"]


def test_gunshots_ignore_the_helmet() -> None:
    """"not including any Helmet you may be wearing": a big helmet adds nothing to the
    total and is never worn by a gun shot, to the body or to the head."""
    pieces = [piece("helmet", "Helmet", 10), piece("jerkin", "Base", 3)]
    body = take_on_armour(pieces, 4, gunshot=True)
    assert (body.damage_through, body.used) == (2, ["jerkin"])
    head = take_on_armour(pieces, 4, gunshot=True, head=True)
    assert (head.damage_through, head.used) == (4, [])
    assert head.pieces == pieces


def test_destroyed_layers_add_nothing_against_a_gunshot() -> None:
    """"If the Durability reaches zero, then that piece of Armour is destroyed": the
    ruined coat counts for nothing: jerkin + gambeson 4 - 1 = 3 against 5."""
    result = take_on_armour(kit(coat=0), 5, gunshot=True)
    assert (result.damage_through, sorted(result.used)) == (2, ["gambeson", "jerkin"])


# --- Helmet Sacrifice ----------------------------------------------------------------


def test_helmet_sacrifice_renders_the_helmet_unusable(monkeypatch: pytest.MonkeyPatch) -> None:
    """"you may sacrifice your helmet entirely, and render yourself Prone, in order to
    escape all incoming damage. The helmet is rendered unusable when this happens"."""
    monkeypatch.setitem(CODES, "no_helmet", "There is no intact Helmet to sacrifice.")
    pieces = kit()
    after = helmet_sacrifice(pieces)
    assert [(p.name, p.durability) for p in after] == [("gambeson", 5), ("helmet", 0), ("jerkin", 5), ("coat", 5)]
    assert pieces[1].durability == 5
    # unusable: it no longer protects the head
    assert take_on_armour(after, 3, head=True).used == []
    with pytest.raises(RuleViolation) as refused:
        helmet_sacrifice(after)
    assert refused.value.code == "no_helmet"
    with pytest.raises(RuleViolation):
        helmet_sacrifice([piece("coat", "Outer", 2)])


# --- the piece itself ----------------------------------------------------------------


def test_a_piece_decodes_within_its_bounds() -> None:
    """A piece as a client sends it: value 0..10, Durability 0..20, a layer of the four."""
    raw = b'{"name": "coat", "layer": "Outer", "value": 2, "durability": 5}'
    assert msgspec.json.decode(raw, type=ArmourPiece) == piece("coat", "Outer", 2)
    for bad in (
        b'{"name": "coat", "layer": "Cloak", "value": 2, "durability": 5}',
        b'{"name": "coat", "layer": "Outer", "value": 11, "durability": 5}',
        b'{"name": "coat", "layer": "Outer", "value": 2, "durability": 21}',
        b'{"name": "", "layer": "Outer", "value": 2, "durability": 5}',
        b'{"name": "coat", "layer": "Outer", "value": 2, "durability": 5, "colour": "red"}',
    ):
        with pytest.raises(msgspec.ValidationError):
            msgspec.json.decode(bad, type=ArmourPiece)


# --- property --------------------------------------------------------------------------

PIECES = st.lists(
    st.tuples(
        st.sampled_from(["Outer", "Base", "Skin", "Helmet"]),
        st.integers(min_value=0, max_value=10),
        st.integers(min_value=0, max_value=20),
    ),
    max_size=6,
).map(lambda rows: [piece(f"p{i}", layer, value, dur) for i, (layer, value, dur) in enumerate(rows)])


@given(pieces=PIECES, damage=st.integers(min_value=0, max_value=40), gunshot=st.booleans(), head=st.booleans())
def test_armour_never_breaks_its_invariants(
    pieces: list[ArmourPiece], damage: int, gunshot: bool, head: bool
) -> None:
    """Whatever the pieces and the Hit: damage through is between 0 and the damage, no
    Durability goes below 0 or drops by more than one, destroyed pieces are never used,
    only the used pieces change, and a piece is destroyed only by reaching 0 now."""
    result = take_on_armour(pieces, damage, gunshot=gunshot, head=head)
    assert 0 <= result.damage_through <= damage
    assert [p.name for p in result.pieces] == [p.name for p in pieces]
    dead_before = {p.name for p in pieces if p.durability == 0}
    assert not dead_before & set(result.used)
    for before, after in zip(pieces, result.pieces, strict=True):
        assert after.durability >= 0
        assert after.durability == before.durability - (before.name in result.used)
        assert (after.layer, after.value) == (before.layer, before.value)
    assert result.destroyed == [n for n in result.used if durability(result)[n] == 0]
    if gunshot:
        assert not any(p.layer == "Helmet" for p in pieces if p.name in result.used)
    if damage == 0:
        assert result.used == []
