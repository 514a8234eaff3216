"""The championships the benchmark loads: generated documents of WJPC size and of a day."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

SLUG = "wjpc-bench"
ROUND = "individual-prelim"
HEATS = "abcdefghi"
PER_HEAT = 180
PENDING_PER_HEAT = 140  # still puzzling: the captures finish them
LAYOUTS = {
    "heats": "one round of nine heats of 180 (the whole round ranked together)",
    "rounds": "nine rounds (groups) of one heat of 180 each",
    "stages": (
        "the WJPC's stages: six groups of 185 one after another (A-E done, F running), "
        "two semifinals and a final planned; country places"
    ),
}
# The stages (``--layout stages``): groups A-F of 185 at 185 tables, two hours apart; F
# started 45 minutes ago with its fastest few finished. Each group gives 60 places, the
# best of the first 30 countries first (WJPC 2024), to semifinal 1 (A-C) or 2 (D-F).
GROUPS = "abcdef"
PER_GROUP = 185
RUNNING_MINUTES = 45
RUNNING_DONE = 10
GROUP_ADVANCE = {"overall": 60, "country_places": 30, "country_place_requires_completion": True}
SEMIFINAL_ADVANCE = {
    "overall": 90,
    "country_places": "all",
    "country_place_requires_completion": True,
    "into": "individual-final",
}
STAGE_COUNTRIES = [
    *("ES", "NO", "SE", "DK", "FI", "DE", "IT", "FR", "CZ", "PL", "PT", "NL", "GB", "US"),
    *("AR", "MX", "BR", "CL", "CO", "CA", "JP", "KR", "IN", "AU", "NZ", "ZA", "EG", "MA"),
    *("TR", "GR", "HU", "RO", "SK", "SI", "HR", "RS", "UA", "LT", "LV", "EE", "IE", "BE"),
    *("AT", "CH", "IL"),
]


@dataclass
class Field:
    """A generated championship and what the benchmark does with it.

    ``pending``: the entries still puzzling, as (round key, entry id), interleaved
    over the running heats; ``polled``: those of the polled fragment's heat;
    ``fragment``: the URL the spectators poll, ``rows`` its rows, ``heat`` its
    heat's key; ``round_size``: the entries ranked together in its round.
    """

    document: dict
    pending: list[tuple[str, str]]
    polled: list[tuple[str, str]]
    fragment: str
    rows: int
    heat: str
    entries: int
    round_size: int
    description: str


FIRST = [
    *("Ana", "Lucía", "Kari", "Ingrid", "Emma", "Olga", "Marta", "Sofie", "Aino", "Eva"),
    *("Maja", "Nora", "Léa", "Zoë", "Jana", "Petra", "Ilse", "Hugo", "Lars", "Ole", "Mateo"),
    *("Pablo", "Jonas", "Erik", "Timo", "Jan", "Noah", "Tomás", "Pieter", "Luca", "Milan"),
]
LAST = [
    *("García", "Hansen", "Johansson", "Nielsen", "Virtanen", "Müller", "Rossi", "Dubois"),
    *("Novák", "Kowalska", "Silva", "Jensen", "Berg", "Lindqvist", "Haugen", "Tjelta", "Bore"),
    *("Sele", "Martín", "López", "Fernández", "Smit", "Horvat"),
]
COUNTRIES = ["ES", "NO", "SE", "DK", "FI", "DE", "IT", "FR", "CZ", "PL", "PT", "NL", "GB", "US"]

# The day (bench/day.py): a preliminary round of four heats of 150 at 600 tables, started a
# few minutes apart (minutes running when the document is made), 90-minute limit.
DAY_SLUG = "day-bench"
DAY_ROUND = "individual-prelim"
DAY_HEATS = {"a": 75, "b": 70, "c": 65, "d": 60}
DAY_PER_HEAT = 150
DAY_FIRST_FINISH_MINUTES = 35


def puzzler(rnd: random.Random, number: int) -> tuple[dict, dict]:
    """Return a person and their entry of one (``p0001``, ``e0001``), consenting to publication."""
    person, entry = f"p{number:04d}", f"e{number:04d}"
    name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
    return (
        {
            "id": person,
            "name": name,
            "birth_date": f"{rnd.randint(1950, 2006)}-{rnd.randint(1, 12):02d}-15",
            "country": rnd.choice(COUNTRIES),
            "citizenship": [rnd.choice(COUNTRIES)],
            "email": f"puzzler{number}@example.org",
            "publish_consent": True,
        },
        {
            "id": entry,
            "name": name,
            "members": [person],
            "status": "confirmed",
            "publish_consent": True,
        },
    )


def finished(rnd: random.Random, entry: str, earliest_s: int, latest_s: int) -> dict:
    """Return a result already in: a time between the two (seconds), a few with a piece missing."""
    seconds = rnd.randint(earliest_s, latest_s - 1)
    missing = 1 if rnd.random() < 0.05 else 0
    return {
        "entry": entry,
        "status": "finished",
        "time": f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}",
        "missing_found": missing,
    }


def championship(slug: str, name: str, now: datetime) -> dict:
    """Return the championship part of a document: rogaland rules (one judge, no second count)."""
    return {
        "slug": slug,
        "name": name,
        "ruleset": "rogaland",
        "timezone": "Europe/Madrid",
        "starts_at": (now - timedelta(hours=2)).isoformat(),
        "currency": "EUR",
        "language": "en",
        "venue": "Valladolid",
    }


def competition(entries: list[dict], rounds: list[dict]) -> dict:
    """Return the one individual competition: 500 pieces, 90 minutes."""
    return {
        "key": "individual",
        "category": "individual",
        "pieces": 500,
        "time_limit_minutes": 90,
        "capacity": None,
        "fee": "0.00",
        "entries": entries,
        "rounds": rounds,
    }


def wjpc_field(now: datetime, layout: str = "heats") -> Field:
    """Return the benchmark's championship of WJPC size in ``layout`` (``LAYOUTS``)."""
    if layout == "stages":
        return stages_field(now)
    document, pending, fragment = wjpc_document(now, layout)
    polled = [entry for entry in pending if int(entry[1][1:]) <= PER_HEAT]
    return Field(
        document=document,
        pending=pending,
        polled=polled,
        fragment=fragment,
        rows=PER_HEAT,
        heat=HEATS[0],
        entries=len(HEATS) * PER_HEAT,
        round_size=len(HEATS) * PER_HEAT if layout == "heats" else PER_HEAT,
        description=(
            f"{LAYOUTS[layout]}: {len(HEATS) * PER_HEAT} entries; "
            f"{PER_HEAT - PENDING_PER_HEAT} results and {PENDING_PER_HEAT} still puzzling "
            f"per heat; polled: {fragment}"
        ),
    )


def wjpc_document(now: datetime, layout: str = "heats", seed: int = 2024):
    """Return a document of WJPC size, the entries still puzzling, and the fragment to poll.

    Nine heats of 180 entries at 180 single tables, all started 75 minutes ago
    (90-minute limit); in each heat 40 entries have a result (finished between
    30 and 75 minutes, a few with a missing piece) and 140 are still puzzling.
    ``layout`` "heats" puts the nine heats in one round, "rounds" makes each heat
    a round of its own (like the WJPC's preliminary groups). The entries still
    puzzling come as (round, entry), interleaved over the heats; the fragment is
    the 180 rows of the first heat.
    """
    rnd = random.Random(seed)
    started = now - timedelta(minutes=75)
    persons, entries, heats, waiting = [], [], [], []
    number = 0
    for heat_index, heat_key in enumerate(HEATS):
        round_key = ROUND if layout == "heats" else f"individual-{heat_key}"
        seats, results = [], []
        for table in range(1, PER_HEAT + 1):
            number += 1
            person, entry = puzzler(rnd, number)
            persons.append(person)
            entries.append(entry)
            seats.append({"table": table, "entry": entry["id"]})
            if table <= PER_HEAT - PENDING_PER_HEAT:
                results.append(finished(rnd, entry["id"], 30 * 60, 75 * 60))
            else:
                results.append({"entry": entry["id"], "status": "pending"})
                waiting.append((table, heat_index, round_key, entry["id"]))
        heats.append(
            {"key": heat_key, "started_at": started.isoformat(), "seats": seats, "results": results}
        )
    pending = [(round_key, entry) for _t, _h, round_key, entry in sorted(waiting)]
    if layout == "heats":
        rounds = [
            {
                "key": ROUND,
                "name": "Preliminary round",
                "stage": "prelim",
                "advance": {"per_heat": 10, "best_remaining": 10},
                "heats": heats,
            }
        ]
        polled = f"/{SLUG}/results/{ROUND}/?heat={HEATS[0]}"
    else:
        rounds = [
            {
                "key": f"individual-{heat['key']}",
                "name": f"Group {heat['key'].upper()}",
                "stage": "prelim",
                "advance": {"overall": 20},
                "heats": [heat],
            }
            for heat in heats
        ]
        polled = f"/{SLUG}/results/individual-{HEATS[0]}/"
    document = {
        "format": "speedpuzzling-championship",
        "version": 1,
        "championship": championship(SLUG, "World Jigsaw Puzzle Championship (benchmark)", now),
        "tables": [{"number": n, "seats": 1} for n in range(1, PER_HEAT + 1)],
        "persons": persons,
        "competitions": [competition(entries, rounds)],
    }
    return document, pending, polled


def stages_field(now: datetime, seed: int = 2024) -> Field:
    """Return the WJPC's individual stages as a version-3 document (``--layout stages``).

    Six groups of 185 entries, each a round of one heat at tables 1-185, run one
    after another two hours apart: A-E are over (every entry finished, a few
    with a missing piece), F started 45 minutes ago with its 10 fastest finished
    and 175 still puzzling. Each entry represents its member's country (one of
    45); each group gives 60 places, the best of the first 30 countries first
    (a country place needs a completed puzzle), into semifinal 1 (A-C) or 2 (D-F),
    which are planned, as is the final. The spectators poll group F.
    """
    rnd = random.Random(seed)
    persons, entries, rounds, pending = [], [], [], []
    number = 0
    for index, group in enumerate(GROUPS):
        running = group == GROUPS[-1]
        started = now - timedelta(minutes=RUNNING_MINUTES + (len(GROUPS) - 1 - index) * 120)
        seats, results = [], []
        key = f"individual-group-{group}"
        for table in range(1, PER_GROUP + 1):
            number += 1
            person, entry = puzzler(rnd, number)
            country = rnd.choice(STAGE_COUNTRIES)
            person.update(country=country, citizenship=[country])
            entry["represents"] = country
            persons.append(person)
            entries.append(entry)
            seats.append({"table": table, "entry": entry["id"]})
            if not running:
                results.append(finished(rnd, entry["id"], 35 * 60, 90 * 60))
            elif table <= RUNNING_DONE:
                results.append(finished(rnd, entry["id"], 30 * 60, RUNNING_MINUTES * 60))
            else:
                results.append({"entry": entry["id"], "status": "pending"})
                pending.append((key, entry["id"]))
        heat = {"key": "a", "started_at": started.isoformat(), "seats": seats, "results": results}
        if not running:
            heat["ended_at"] = (started + timedelta(minutes=90)).isoformat()
        semifinal = 1 if index < len(GROUPS) // 2 else 2
        rounds.append(
            {
                "key": key,
                "name": f"Group {group.upper()}",
                "stage": "prelim",
                "advance": {**GROUP_ADVANCE, "into": f"individual-semifinal-{semifinal}"},
                "heats": [heat],
            }
        )
    for semifinal in (1, 2):
        rounds.append(
            {
                "key": f"individual-semifinal-{semifinal}",
                "name": f"Semifinal {semifinal}",
                "stage": "semifinal",
                "advance": SEMIFINAL_ADVANCE,
            }
        )
    rounds.append({"key": "individual-final", "name": "Final", "stage": "final"})
    header = championship(SLUG, "World Jigsaw Puzzle Championship (benchmark, stages)", now)
    # The world championship's rules: entries represent countries, no check-in, one judge.
    header.update(ruleset="wjpc", starts_at=(now - timedelta(hours=11)).isoformat())
    document = {
        "format": "speedpuzzling-championship",
        "version": 3,
        "championship": header,
        "tables": [{"number": n, "seats": 1} for n in range(1, PER_GROUP + 1)],
        "persons": persons,
        "competitions": [competition(entries, rounds)],
    }
    fragment = f"/{SLUG}/results/individual-group-{GROUPS[-1]}/"
    return Field(
        document=document,
        pending=pending,
        polled=pending,
        fragment=fragment,
        rows=PER_GROUP,
        heat="a",
        entries=len(entries),
        round_size=PER_GROUP,
        description=(
            f"{LAYOUTS['stages']}: {len(entries)} entries; group F {RUNNING_DONE} results and "
            f"{PER_GROUP - RUNNING_DONE} still puzzling; polled: {fragment}"
        ),
    )


def day_document(now: datetime, seed: int = 2025):
    """Return the day's document and its entries still puzzling, as (table, round, entry).

    One round of four heats of 150 entries running at once at 600 tables (heat a
    at tables 1-150, b at 151-300, ...), started 75, 70, 65 and 60 minutes ago
    with a 90-minute limit: the fastest finish after about 35 minutes, so the
    earlier heats have more results in (30, 26, 22 and 19, at random tables, a
    few with a missing piece) and most entries are still puzzling, for the
    day's judges to finish. A championship of its own (``DAY_SLUG``), loaded next
    to the WJPC one; the rows come in table order.
    """
    rnd = random.Random(seed)
    persons, entries, heats, waiting = [], [], [], []
    for heat_index, (heat_key, minutes) in enumerate(DAY_HEATS.items()):
        started = now - timedelta(minutes=minutes)
        first_table = heat_index * DAY_PER_HEAT + 1
        tables = range(first_table, first_table + DAY_PER_HEAT)
        share = (minutes - DAY_FIRST_FINISH_MINUTES) / 200
        done = set(rnd.sample(tables, k=round(DAY_PER_HEAT * share)))
        seats, results = [], []
        for table in tables:
            person, entry = puzzler(rnd, table)
            persons.append(person)
            entries.append(entry)
            seats.append({"table": table, "entry": entry["id"]})
            if table in done:
                results.append(
                    finished(rnd, entry["id"], DAY_FIRST_FINISH_MINUTES * 60, minutes * 60)
                )
            else:
                results.append({"entry": entry["id"], "status": "pending"})
                waiting.append((table, DAY_ROUND, entry["id"]))
        heats.append(
            {"key": heat_key, "started_at": started.isoformat(), "seats": seats, "results": results}
        )
    rounds = [
        {
            "key": DAY_ROUND,
            "name": "Preliminary round",
            "stage": "prelim",
            "advance": {"per_heat": 10, "best_remaining": 10},
            "heats": heats,
        }
    ]
    document = {
        "format": "speedpuzzling-championship",
        "version": 1,
        "championship": championship(DAY_SLUG, "Championship day (benchmark)", now),
        "tables": [{"number": n, "seats": 1} for n in range(1, len(DAY_HEATS) * DAY_PER_HEAT + 1)],
        "persons": persons,
        "competitions": [competition(entries, rounds)],
    }
    return document, waiting
