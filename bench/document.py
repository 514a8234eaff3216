"""The championship the benchmark loads: a generated document of WJPC size."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

SLUG = "wjpc-bench"
ROUND = "individual-prelim"
HEATS = "abcdefghi"
PER_HEAT = 180
PENDING_PER_HEAT = 140  # still puzzling: the captures finish them
LAYOUTS = {
    "heats": "one round of nine heats of 180 (the whole round ranked together)",
    "rounds": "nine rounds (groups) of one heat of 180 each",
}

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
            person, entry = f"p{number:04d}", f"e{number:04d}"
            name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
            persons.append(
                {
                    "id": person,
                    "name": name,
                    "birth_date": f"{rnd.randint(1950, 2006)}-{rnd.randint(1, 12):02d}-15",
                    "country": rnd.choice(COUNTRIES),
                    "citizenship": [rnd.choice(COUNTRIES)],
                    "email": f"puzzler{number}@example.org",
                    "publish_consent": True,
                }
            )
            entries.append(
                {
                    "id": entry,
                    "name": name,
                    "members": [person],
                    "status": "confirmed",
                    "publish_consent": True,
                }
            )
            seats.append({"table": table, "entry": entry})
            if table <= PER_HEAT - PENDING_PER_HEAT:
                seconds = rnd.randint(30 * 60, 75 * 60 - 1)
                missing = 1 if rnd.random() < 0.05 else 0
                results.append(
                    {
                        "entry": entry,
                        "status": "finished",
                        "time": f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}",
                        "missing_found": missing,
                    }
                )
            else:
                results.append({"entry": entry, "status": "pending"})
                waiting.append((table, heat_index, round_key, entry))
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
        "championship": {
            "slug": SLUG,
            "name": "World Jigsaw Puzzle Championship (benchmark)",
            "ruleset": "rogaland",
            "timezone": "Europe/Madrid",
            "starts_at": (now - timedelta(hours=2)).isoformat(),
            "currency": "EUR",
            "language": "en",
            "venue": "Valladolid",
        },
        "tables": [{"number": n, "seats": 1} for n in range(1, PER_HEAT + 1)],
        "persons": persons,
        "competitions": [
            {
                "key": "individual",
                "category": "individual",
                "pieces": 500,
                "time_limit_minutes": 90,
                "capacity": None,
                "fee": "0.00",
                "entries": entries,
                "rounds": rounds,
            }
        ],
    }
    return document, pending, polled
