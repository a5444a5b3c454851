"""The per-player limits in the database, on both backends: the new-game bucket and the hint lease,
shared by two stores on one database as by two server processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from twenty48.store import PlayerNotFoundError, open_store


@pytest.fixture
def stores(location: Path | str):
    """Two stores on one database: what two server processes hold."""
    with open_store(location) as first, open_store(location) as second:
        yield first, second


def test_the_new_game_bucket_is_shared_and_refills(stores) -> None:
    first, second = stores
    player = first.local_player().id
    assert [s.take_new_game(player, 2, now=100.0) for s in (first, second)] == [0.0, 0.0]
    assert first.take_new_game(player, 2, now=100.0) == pytest.approx(30.0)
    assert second.take_new_game(player, 2, now=129.0) == pytest.approx(1.0)
    assert first.take_new_game(player, 2, now=131.0) == 0.0
    # A clock set back drains nothing, and another player has a bucket of its own.
    assert second.take_new_game(player, 2, now=50.0) == pytest.approx(29.0)
    assert first.take_new_game(first.local_player("other").id, 2, now=131.0) == 0.0
    with pytest.raises(ValueError):
        first.take_new_game(player, 0)


def test_one_hint_lease_per_player_across_stores(stores) -> None:
    first, second = stores
    player = first.local_player().id
    other = first.local_player("other").id
    lease = first.claim_hint(player, 30.0, now=1000.0)
    assert lease is not None
    assert second.claim_hint(player, 30.0, now=1010.0) is None
    assert second.claim_hint(other, 30.0, now=1010.0) is not None
    second.release_hint(player, "not-the-lease")  # only the holder's lease ends it
    assert second.claim_hint(player, 30.0, now=1020.0) is None
    first.release_hint(player, lease)
    again = second.claim_hint(player, 30.0, now=1020.0)
    assert again is not None and again != lease


def test_an_expired_lease_is_claimed_anew_and_the_old_holder_cannot_end_it(stores) -> None:
    first, second = stores
    player = first.local_player().id
    dead = first.claim_hint(player, 30.0, now=0.0)  # its process was killed mid-hint
    assert dead is not None
    assert second.claim_hint(player, 30.0, now=29.0) is None
    fresh = second.claim_hint(player, 30.0, now=31.0)
    assert fresh is not None
    first.release_hint(player, dead)
    assert first.claim_hint(player, 30.0, now=40.0) is None
    second.release_hint(player, fresh)
    assert first.claim_hint(player, 30.0, now=40.0) is not None


def test_limits_of_an_unknown_player_are_refused(stores) -> None:
    first, _ = stores
    for call in (
        lambda: first.take_new_game(999, 2),
        lambda: first.claim_hint(999, 1.0),
        lambda: first.take_new_game(0, 2),
    ):
        with pytest.raises(PlayerNotFoundError):
            call()
