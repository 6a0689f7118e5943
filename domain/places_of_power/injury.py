"""An Injury on the character sheet, as data (the rules that treat it live in ``injuries``).

"Injuries are ongoing effects that last beyond the combat encounter, and which can take
considerable time to heal." "When an Injury is treated, replace the Injury mark on your
character sheet with the Total Recovery Time value."

The sheet keeps both the count (``Sheet.injuries``: the Injuries not yet recovered, which
the harm rules raise) and one record per Injury (``Sheet.injury_records``). ``reconcile``
keeps them in step every time a sheet is built, so a rule that only raises the count (an
attack, a squeeze) gets its records without knowing of them, and replay is deterministic:

- a sheet brought into the encounter with no records (``None``): one untreated record per
  Injury it carries, numbered 1, 2, ... and marked as carried in (``new`` false);
- fewer records than the count: the count rose in this encounter, so the missing records
  are new, untreated Injuries numbered after the highest number on the sheet;
- more records than the count: refused. A rule that lowers the count removes the records
  with it (``injuries`` does, when an Injury recovers).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.places_of_power.checks import Difficulty

RecoveryDie = Literal["D4", "D6", "D8", "D10", "D12", "D20"]
Days = Annotated[int, msgspec.Meta(ge=0, le=3650)]
Text = Annotated[str, msgspec.Meta(max_length=500)]
# What a Permanent Condition is called when the GM has not described it.
UNDESCRIBED_CONDITION = "Permanent Condition"


class InjuryTreatment(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The GM's terms for treating one Injury: "Injuries have a Base Recovery Time and a
    Recovery Dice Value ... The GM will set the difficulty of the check, depending on the type
    of Injury sustained." ``permanent_condition``: what the Injury leaves if a Permanent
    Condition is applied (empty: the GM describes it later)."""

    difficulty: Difficulty
    base_recovery_time: Days
    recovery_die: RecoveryDie
    permanent_condition: Text = ""


class Injury(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One Injury. ``number``: its number on this sheet. ``new``: acquired in this encounter
    (false: carried in). ``treated``: it has its Total Recovery Time; ``total_recovery_time``:
    the days left until it is recovered (None while untreated). ``permanent_condition``: the
    Permanent Condition it left (None: none). ``needs_surgery``: a Critically Failed Medical
    Check left it needing a Surgery Check (which will apply a Permanent Condition whatever
    its result). ``treatment``: the GM's terms for treating it, once set."""

    number: Annotated[int, msgspec.Meta(ge=1)]
    new: bool = False
    treated: bool = False
    total_recovery_time: Days | None = None
    permanent_condition: Text | None = None
    needs_surgery: bool = False
    treatment: InjuryTreatment | None = None


def reconcile(records: list[Injury] | None, count: int) -> list[Injury]:
    """The records of a sheet counting ``count`` Injuries (see the module docstring)."""
    if records is None:
        return [Injury(number=n) for n in range(1, count + 1)]
    numbers = [r.number for r in records]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"two injury_records have the same number: {numbers}")
    if len(records) == count:
        return records
    if len(records) > count:
        raise ValueError(
            f"injuries counts the Injuries not yet recovered: {count}, fewer than the {len(records)} injury_records"
        )
    last = max(numbers, default=0)
    return [*records, *(Injury(number=last + n, new=True) for n in range(1, count - len(records) + 1))]
