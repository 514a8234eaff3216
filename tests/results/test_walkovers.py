"""A walk-over is a disqualification: listed, never ranked, in every round of the category.

sm: "Deltagare som ej anmält sig inom utsatt tid anses automatiskt ha lämnat
walk-over och diskvalificeras därmed". RULES.md, "Ranking": did not start,
disqualified and walk-overs are listed, not ranked, in every round of the
category, even where a result was recorded; marking a walk-over on an entry
that already has a result is a disqualification that only a head judge makes,
with a reason, and the round is ranked anew (official places, prizes,
qualification).
"""

from __future__ import annotations

import io
import json
import uuid
from datetime import timedelta

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from championship.models import ChampionshipRole, Round
from interchange.write import import_document
from judging.models import Capture
from registration import services as registration_services
from registration.models import Entry
from results.models import Result
from results.services import standings_ensure
from tests import factories

pytestmark = pytest.mark.django_db

SLUG = "sm-2026"
# Times of the preliminary round (e1 fastest) and of the final.
PRELIM = {"e1": "0:40:00", "e2": "0:41:00", "e3": "0:42:00", "e4": "0:43:00"}
FINAL = {"e1": "0:38:00", "e2": "0:39:00"}


def document(*, walkover: str | None = None, official_at: str | None = None) -> dict:
    """Return an sm championship: a preliminary round (the best 2 advance) and its final.

    ``walkover``: the entry imported as a walk-over; ``official_at``: the final's sign-off.
    """
    persons = [
        {"id": f"p{n}", "name": name, "citizenship": ["SE"], "email": f"p{n}@example.org"}
        for n, name in enumerate(["Anna Ek", "Bo Lind", "Cia Berg", "Dan Ask"], start=1)
    ]
    entries = [
        {
            "id": f"e{n}",
            "members": [f"p{n}"],
            "registered_at": f"2026-02-0{n}T12:00:00+01:00",
            "checked_in_at": "2026-03-14T09:30:00+01:00",
        }
        for n in range(1, 5)
    ]
    if walkover:
        (chosen,) = [entry for entry in entries if entry["id"] == walkover]
        chosen["walkover_at"] = "2026-03-14T13:00:00+01:00"
        chosen["walkover_reason"] = "Left before the final"

    def heat(key, times, started, ended):
        return {
            "key": key,
            "started_at": started,
            "ended_at": ended,
            "seats": [{"table": number, "entry": ref} for number, ref in enumerate(times, start=1)],
            "results": [
                {"entry": ref, "status": "finished", "time": time} for ref, time in times.items()
            ],
        }

    return {
        "format": "speedpuzzling-championship",
        "version": 2,
        "championship": {
            "slug": SLUG,
            "name": "Pussel-SM 2026",
            "ruleset": "sm",
            "starts_at": "2026-03-14T10:00:00+01:00",
        },
        "tables": [{"number": number} for number in range(1, 5)],
        "persons": persons,
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "entries": entries,
                "rounds": [
                    {
                        "key": "individual-prelim",
                        "stage": "prelim",
                        "advance": {"overall": 2},
                        "heats": [
                            heat(
                                "a",
                                PRELIM,
                                "2026-03-14T10:00:00+01:00",
                                "2026-03-14T12:00:00+01:00",
                            )
                        ],
                    },
                    {
                        "key": "individual-final",
                        "stage": "final",
                        "official_at": official_at,
                        "heats": [
                            heat(
                                "a",
                                FINAL,
                                "2026-03-14T14:00:00+01:00",
                                "2026-03-14T16:00:00+01:00",
                            )
                        ],
                    },
                ],
            }
        ],
    }


def rows(exported: dict, round_index: int) -> dict[str, dict]:
    """Return a round's exported results by entry id."""
    heat = exported["competitions"][0]["rounds"][round_index]["heats"][0]
    return {row["entry"]: row for row in heat["results"]}


def standing(round_key: str) -> dict[str, tuple]:
    """Return each entry's (place, official place, qualified, prize, outcome) in a round."""
    round_ = Round.objects.get(key=round_key)
    standings_ensure(round_)
    return {
        result.entry.ref: (
            result.place,
            result.official_place,
            result.qualified,
            result.prize,
            result.outcome,
        )
        for result in Result.objects.filter(round=round_).select_related("entry")
    }


def test_an_imported_walkover_keeps_its_results_but_no_place_in_any_round(tmp_path):
    path = tmp_path / "sm.json"
    path.write_text(json.dumps(document(walkover="e1")), encoding="utf-8")
    call_command("import_championship", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("export_championship", SLUG, stdout=out)
    exported = json.loads(out.getvalue())

    prelim, final = rows(exported, 0), rows(exported, 1)
    # Listed with what was recorded, not ranked: a walk-over is a disqualification.
    assert (prelim["e1"]["time"], prelim["e1"]["status"]) == ("0:40:00", "finished")
    for listed in (prelim["e1"], final["e1"]):
        assert (listed["outcome"], listed["place"], listed["official_place"]) == ("dsq", None, None)
        assert (listed["qualified"], listed["prize"], listed["final_seconds"]) == (
            False,
            None,
            None,
        )
    assert [(prelim[ref]["place"], prelim[ref]["qualified"]) for ref in ("e2", "e3", "e4")] == [
        (1, True),
        (2, True),
        (3, False),
    ]
    # The title goes to the best official entry that is no walk-over.
    assert (final["e2"]["place"], final["e2"]["prize"]) == (1, 1)

    path.write_text(json.dumps(exported), encoding="utf-8")
    call_command("import_championship", str(path), "--replace", stdout=io.StringIO())
    again = io.StringIO()
    call_command("export_championship", SLUG, stdout=again)
    assert json.loads(again.getvalue()) == exported


def test_marking_a_walkover_on_an_entry_with_results_ranks_every_round_anew(client):
    championship = import_document(document())
    organiser = factories.role(championship, ChampionshipRole.Role.ORGANISER, username="orga")
    assert standing("individual-prelim")["e1"][:3] == (1, 1, True)
    assert standing("individual-final")["e1"][:4] == (1, 1, False, 1)

    client.force_login(organiser)
    e1 = Entry.objects.get(ref="e1")
    response = client.post(
        reverse("manage:entry_walkover", kwargs={"championship_slug": SLUG, "pk": e1.pk}),
        {"reason": "Did not come back for the final"},
        follow=True,
    )
    assert response.status_code == 200
    prelim, final = standing("individual-prelim"), standing("individual-final")
    assert prelim["e1"] == (None, None, False, None, "dsq")
    assert final["e1"] == (None, None, False, None, "dsq")
    assert [prelim[ref][:3] for ref in ("e2", "e3", "e4")] == [
        (1, 1, True),
        (2, 2, True),
        (3, 3, False),
    ]
    assert final["e2"][:4] == (1, 1, False, 1)

    client.post(
        reverse("manage:entry_walkover", kwargs={"championship_slug": SLUG, "pk": e1.pk}),
        {"undo": "1"},
    )
    assert standing("individual-prelim")["e1"][:3] == (1, 1, True)
    assert standing("individual-final")["e2"][:4] == (2, 2, False, None)


def test_a_walkover_on_an_entry_with_a_result_needs_a_head_judge():
    championship = import_document(document())
    e1 = Entry.objects.get(ref="e1")
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    with pytest.raises(Exception, match="only a head judge can disqualify it") as refused:
        registration_services.entry_mark_walkover(entry=e1, reason="No show", by=judge)
    assert refused.type.__name__ == "ValidationError"
    e1.refresh_from_db()
    assert e1.walkover_at is None
    assert standing("individual-prelim")["e1"][:3] == (1, 1, True)

    head = factories.role(championship, ChampionshipRole.Role.HEAD_JUDGE, username="head")
    registration_services.entry_mark_walkover(entry=e1, reason="No show", by=head)
    assert standing("individual-prelim")["e1"][:3] == (None, None, False)


def test_a_walkover_in_an_official_round_is_listed_with_its_reason():
    import_document(document(official_at="2026-03-14T16:30:00+01:00"))
    final = Round.objects.get(key="individual-final")
    assert final.state == Round.State.PUBLISHED
    version = final.version
    registration_services.entry_mark_walkover(
        entry=Entry.objects.get(ref="e1"), reason="Help from outside"
    )
    final.refresh_from_db()
    assert final.version > version
    assert [item["reason"] for item in final.corrections] == [
        "Walk-over (disqualified): Help from outside"
    ]


def test_a_judge_cannot_record_a_time_for_a_walkover():
    """The final runs now; the walked-over entry's table is no longer the judges' to time."""
    now = timezone.now().replace(microsecond=0)
    doc = document(walkover="e1")
    doc["championship"]["starts_at"] = (now - timedelta(hours=3)).isoformat()
    prelim, final = doc["competitions"][0]["rounds"]
    prelim["heats"][0].update(
        started_at=(now - timedelta(hours=3)).isoformat(),
        ended_at=(now - timedelta(hours=1)).isoformat(),
    )
    final["heats"][0].update(
        started_at=(now - timedelta(minutes=30)).isoformat(), ended_at=None, results=[]
    )
    for entry in doc["competitions"][0]["entries"]:
        entry["registered_at"] = (now - timedelta(days=30)).isoformat()
        entry["checked_in_at"] = (now - timedelta(hours=4)).isoformat()
        if entry.get("walkover_at"):
            entry["walkover_at"] = (now - timedelta(minutes=45)).isoformat()
    championship = import_document(doc)
    judge = factories.role(championship, ChampionshipRole.Role.JUDGE, username="judy")
    api = APIClient()
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    api.force_authenticate(judge)
    response = api.post(
        f"/api/v1/championships/{SLUG}/captures/",
        {
            "id": str(uuid.uuid4()),
            "round": "individual-final",
            "entry": "e1",
            "kind": "finish",
            "at": (now - timedelta(minutes=1)).isoformat(),
        },
        format="json",
    )
    assert response.status_code == 409, response.json()
    assert "walk-over" in response.json()["detail"]
    assert not Capture.objects.filter(round__championship=championship).exists()
