"""Players' names, hiding and transfer codes in the store, on both backends (``location``)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twenty48.names import MAX_LENGTH, MAX_MARKS, NameRefusedError, check
from twenty48.store import NameTakenError, PlayerNotFoundError, TransferCodeError, open_store
from twenty48.store.players.operations import TRANSFER_SECONDS


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "name_empty"),
        ("x" * (MAX_LENGTH + 1), "name_too_long"),
        (" Ada", "name_spaces"),
        ("Ada ", "name_spaces"),
        ("Ada  Lovelace", "name_spaces"),
        ("<b>Ada</b>", "name_character"),
        ("<script>", "name_character"),
        ("Ada\u202e", "name_character"),  # right-to-left override
        ("A\u202dda", "name_character"),  # left-to-right override
        ("A\u200bda", "name_character"),  # zero-width space
        ("A\u200dda", "name_character"),  # zero-width joiner
        ("A\u2060da", "name_character"),  # word joiner
        ("\ufeffAda", "name_character"),  # byte order mark
        ("Ada\u3164", "name_character"),  # Hangul filler: a letter that draws nothing
        ("Ada\ufe0f", "name_character"),  # variation selector
        ("Ada\tB", "name_character"),
        ("Ada\nB", "name_character"),
        ("Ada\u00a0B", "name_character"),  # a no-break space: NFKC would make it a plain one
        ("Ada\u3000B", "name_character"),  # an ideographic space, likewise
        ("Ada\u2003B", "name_character"),  # an em space
        ("\u0301Ada", "name_character"),  # a mark with no letter before it
        ("x" + "\u0301\u0302\u0303\u0304", "name_character"),  # a tower of marks
        ("a" + "\u0301" * 4, "name_character"),  # NFKC composes the first: still four accents
        ("\u00e1" + "\u0301" * 3, "name_character"),  # the same, typed composed
        ("\u1ec7" + "\u0301" * 2, "name_character"),  # "ệ" holds two marks already
        ("Ada\u0640\u0640\u0640\u0640", "name_character"),  # tatweel: a stretched bar
        ("\u0644\u0640\u0627", "name_character"),  # even one, between letters
        (".", "name_no_letter"),
        ("...", "name_no_letter"),
        ("_-_ .", "name_no_letter"),
        ("Ada!", "name_character"),
        ("Ada&amp;", "name_character"),
    ],
)
def test_names_that_are_refused(name: str, reason: str) -> None:
    with pytest.raises(NameRefusedError) as refused:
        check(name)
    assert refused.value.reason == reason


def test_names_that_are_taken_as_they_read() -> None:
    assert check("Ada Lovelace").text == "Ada Lovelace"
    assert check("ＡＤＡ").text == "ADA"  # noqa: RUF001 - full-width letters are the letters
    assert check("Zoë_2.0-b").key == "zoë_2.0-b"
    assert check("e\u0301mile").text == "\u00e9mile"  # composed
    assert check("\u1ec7" + "\u0301").text == "\u1ec7\u0301"  # three marks on one letter
    assert check("佐々木").text == "佐々木"  # an iteration mark is a letter that draws
    assert check("ラーメン").text == "ラーメン"  # so is the long-vowel mark
    assert check("4.2").text == "4.2"
    assert check("李小龙").text == "李小龙"
    assert check("x" * MAX_LENGTH).text == "x" * MAX_LENGTH
    assert check("STRASSE").key == check("straße").key  # casefold


@given(st.text(max_size=MAX_LENGTH + 2))
def test_an_accepted_name_reads_as_it_is_stored(typed: str) -> None:
    try:
        name = check(typed)
    except NameRefusedError:
        return
    assert any(unicodedata.category(c)[0] == "L" or unicodedata.category(c) == "Nd" for c in name.text)
    assert all(c == " " or unicodedata.category(c)[0] not in "ZC" for c in typed)
    # No letter shows more than MAX_MARKS marks, counted as they are drawn (decomposed).
    marks = 0
    for char in unicodedata.normalize("NFD", name.text):
        marks = marks + 1 if unicodedata.category(char)[0] == "M" else 0
        assert marks <= MAX_MARKS


def test_a_name_is_unique_whatever_its_case(location: Path | str) -> None:
    with open_store(location) as store:
        ada = store.web_player("ada").id
        other = store.web_player("other").id
        assert store.set_name(ada, "Ada").name == "Ada"
        for twin in ("ADA", "ada", "ＡＤＡ"):  # noqa: RUF001
            with pytest.raises(NameTakenError):
                store.set_name(other, twin)
        assert store.name_taken("aDa") and not store.name_taken("aDa", ada)
        assert store.set_name(ada, "ADA").name == "ADA"  # one's own name in another case
        assert store.set_name(ada, None).name is None
        assert store.set_name(other, "ada").name == "ada"
        assert store.profile(other).on_boards and not store.profile(ada).on_boards


def test_hiding_by_the_player_and_by_the_host_are_apart(location: Path | str) -> None:
    with open_store(location) as store:
        ada = store.web_player("ada").id
        store.set_name(ada, "Ada")
        assert store.set_hidden(ada, True).hidden
        assert not store.profile(ada).on_boards
        store.set_hidden(ada, True, by_host=True)
        profile = store.set_hidden(ada, False)
        assert not profile.hidden and profile.host_hidden and not profile.on_boards
        assert store.set_hidden(ada, False, by_host=True).on_boards


def test_find_player_by_id_or_name(location: Path | str) -> None:
    with open_store(location) as store:
        ada = store.web_player("ada").id
        store.set_name(ada, "Ada")
        assert store.find_player("aDA").player_id == ada
        assert store.find_player(str(ada)).player_id == ada
        for unknown in ("Bob", "999", "<b>", "0"):
            with pytest.raises(PlayerNotFoundError):
                store.find_player(unknown)


def test_a_transfer_code_works_once_and_expires(location: Path | str) -> None:
    with open_store(location) as store:
        ada = store.web_player("ada").id
        code = store.new_transfer(ada, now=1000.0)
        assert code.expires_at == 1000.0 + TRANSFER_SECONDS
        assert len(code.code.replace("-", "")) == 28  # 136 bits in base 32
        # Typed on a phone: any case, spaces for the dashes.
        typed = code.code.lower().replace("-", " ")
        assert store.claim_transfer(typed, "phone", now=1000.0 + TRANSFER_SECONDS - 1).id == ada
        assert store.find_web_player("phone").id == ada
        assert store.find_web_player("ada").id == ada  # the first device stays the player
        with pytest.raises(TransferCodeError) as used:
            store.claim_transfer(code.code, "tablet", now=1001.0)
        assert used.value.reason == "used"
        late = store.new_transfer(ada, now=2000.0)
        with pytest.raises(TransferCodeError) as expired:
            store.claim_transfer(late.code, "tablet", now=2000.0 + TRANSFER_SECONDS)
        assert expired.value.reason == "expired"
        for unknown in ("AAAA-AAAA-AAAA-AAAA-AAAA-AAAA-AAAA", "not a code", ""):
            with pytest.raises(TransferCodeError) as refused:
                store.claim_transfer(unknown, "tablet", now=2000.0)
            assert refused.value.reason == "unknown"
        assert store.find_web_player("tablet") is None


def test_a_new_code_ends_the_earlier_one_and_only_hashes_are_kept(location: Path | str, raw_sql) -> None:
    with open_store(location) as store:
        ada = store.web_player("ada").id
        first = store.new_transfer(ada, now=1000.0)
        second = store.new_transfer(ada, now=1010.0)
        with pytest.raises(TransferCodeError) as ended:
            store.claim_transfer(first.code, "phone", now=1020.0)
        assert ended.value.reason == "expired"
        assert store.claim_transfer(second.code, "phone", now=1020.0).id == ada
    stored = raw_sql("SELECT code_hash FROM transfer_codes")
    assert stored and all(second.code.replace("-", "") not in str(row) for row in stored)
