"""Event ids are random version-4 UUIDs."""

import uuid

from server.store import new_uuid


def test_new_uuid_is_a_random_version_4_uuid() -> None:
    ids = {new_uuid() for _ in range(2000)}
    assert len(ids) == 2000
    for text in list(ids)[:200]:
        u = uuid.UUID(text)
        assert str(u) == text and u.version == 4 and u.variant == uuid.RFC_4122
