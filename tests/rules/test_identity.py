"""RULES.md's one entry per person per category: who is the same person."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from championship.rules.identity import (
    SAME_EMAIL,
    SAME_NAME_AND_BIRTH_DATE,
    Clash,
    Identity,
    clashes_with_others,
    clashes_within,
    has_identity,
    same_person,
)

BORN = date(1990, 5, 1)
OTHER_DAY = date(1990, 5, 2)


@pytest.mark.parametrize(
    ("person", "identified"),
    [
        (Identity(name="Mette", email="mette@example.dk"), True),
        (Identity(name="Mette", birth_date=BORN), True),
        (Identity(email="mette@example.dk"), True),
        (Identity(name="Mette"), False),
        (Identity(name="Mette", email="   "), False),
        (Identity(name="  ", birth_date=BORN), False),
        (Identity(), False),
    ],
)
def test_a_person_is_identified_by_an_email_or_a_name_and_a_birth_date(person, identified):
    assert has_identity(person) is identified


@pytest.mark.parametrize(
    ("a", "b", "how"),
    [
        # The same e-mail address, in any case, with spaces around it.
        (
            Identity("Mette", "mette@example.dk"),
            Identity("M. H.", " METTE@Example.DK "),
            SAME_EMAIL,
        ),
        # The same name and birth date, whatever the e-mail addresses.
        (
            Identity("Mette Hansen", "mette@example.dk", BORN),
            Identity("Mette Hansen", "mh@example.dk", BORN),
            SAME_NAME_AND_BIRTH_DATE,
        ),
        (
            Identity("Mette Hansen", "", BORN),
            Identity("Mette Hansen", "", BORN),
            SAME_NAME_AND_BIRTH_DATE,
        ),
        # Case, spacing and the Unicode form of the name do not matter.
        (
            Identity("  mette   HANSEN ", "", BORN),
            Identity("Mette Hansen", "", BORN),
            SAME_NAME_AND_BIRTH_DATE,
        ),
        (
            Identity("S\u00f8ren \u00c5berg", "", BORN),  # composed ø and Å
            Identity("s\u00f8ren a\u030aberg", "", BORN),  # å as a + combining ring
            SAME_NAME_AND_BIRTH_DATE,
        ),
        (Identity("STRASSE", "", BORN), Identity("straße", "", BORN), SAME_NAME_AND_BIRTH_DATE),
        # Not the same person: another birth date, a birth date missing, another name.
        (Identity("Mette Hansen", "", BORN), Identity("Mette Hansen", "", OTHER_DAY), None),
        (Identity("Mette Hansen", "", None), Identity("Mette Hansen", "", None), None),
        (Identity("Mette Hansen", "", BORN), Identity("Mette Hansen", "", None), None),
        (Identity("Mette Hansen", "", BORN), Identity("Mette Jensen", "", BORN), None),
        (Identity("Mette", "mette@example.dk"), Identity("Mette", "mette@example.com"), None),
        # Two members without e-mail are not the same person for lack of one.
        (Identity("A", "", BORN), Identity("B", "", BORN), None),
        (Identity("", "", BORN), Identity("", "", BORN), None),
    ],
)
def test_two_members_are_the_same_person_by_email_or_by_name_and_birth_date(a, b, how):
    assert same_person(a, b) == how
    assert same_person(b, a) == how


def test_a_member_clashes_with_the_first_matching_member_of_other_entries():
    taken = [
        Identity("Jens", "jens@example.dk"),
        Identity("Mette Hansen", "", BORN),
        Identity("Mette Hansen", "mette@example.dk", BORN),
    ]
    members = [
        Identity("Søren", "soren@example.dk"),
        Identity("mette hansen", "new@example.dk", BORN),
    ]
    assert clashes_with_others(members, taken) == [Clash(1, 1, SAME_NAME_AND_BIRTH_DATE)]
    assert clashes_with_others(members, []) == []


def test_a_member_clashes_with_an_earlier_member_of_the_same_entry():
    members = [
        Identity("Mette Hansen", "mette@example.dk", BORN),
        Identity("Jens", "jens@example.dk"),
        Identity("Mette  Hansen", "", BORN),
        Identity("J", "JENS@example.dk"),
    ]
    assert clashes_within(members) == [
        Clash(2, 0, SAME_NAME_AND_BIRTH_DATE),
        Clash(3, 1, SAME_EMAIL),
    ]


names = st.sampled_from(["Mette Hansen", "mette  hansen", "Jens", "JENS", "", "Søren"])
emails = st.sampled_from(["", "a@example.dk", "A@Example.dk ", "b@example.dk"])
birth_dates = st.sampled_from([None, BORN, OTHER_DAY])
identities = st.builds(Identity, name=names, email=emails, birth_date=birth_dates)


@given(st.lists(identities, max_size=6), st.lists(identities, max_size=6))
def test_the_fast_lookup_finds_exactly_the_members_a_pairwise_comparison_finds(members, others):
    found = {clash.member: clash for clash in clashes_with_others(members, others)}
    for index, member in enumerate(members):
        matches = [other for other in others if same_person(member, other)]
        assert (index in found) == bool(matches)
        if index in found:
            clash = found[index]
            assert same_person(member, others[clash.other]) == clash.how
