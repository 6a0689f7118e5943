"""The Places of Power character sheet, as far as the engine reads it so far."""

from __future__ import annotations

from typing import Annotated

import msgspec


class Sheet(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``initiative_modifier`` is added to the D12 initiative roll."""

    initiative_modifier: Annotated[int, msgspec.Meta(ge=-100, le=100)] = 0
