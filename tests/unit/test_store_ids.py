"""Event ids are random version-4 UUIDs."""

import uuid

from server.store.events import new_uuid


def test_new_uuid_is_a_random_version_4_uuid() -> None:
    ids = {new_uuid() for _ in range(2000)}
    assert len(ids) == 2000
    for text in list(ids)[:200]:
        u = uuid.UUID(text)
        assert str(u) == text and u.version == 4 and u.variant == uuid.RFC_4122


def test_ids_are_drawn_4_kib_at_a_time_and_never_repeat_across_refills() -> None:
    ids = [new_uuid() for _ in range(1000)]  # 128 ids per draw: several refills
    assert len(set(ids)) == len(ids)


def test_a_forked_child_draws_its_own_ids() -> None:
    import os

    new_uuid()  # the parent has random bytes in hand
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next id goes to the parent
        os.write(write, new_uuid().encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 64).decode()
    os.waitpid(pid, 0)
    assert child != new_uuid()  # the same bytes would give the parent's next id
