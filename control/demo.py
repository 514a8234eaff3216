"""Build the demo: a Rogaland championship in the middle of its individual round, and a
Pussel-SM whose registration is open, with the users ``organiser`` and ``judge``.

Built afresh, everything is recreated and the users get new passwords. Kept
(``keep=True``), what exists stays as it was, so phones stay logged in; only
what is missing is built, and the open championship is built anew once its
registration has closed. The passwords are kept beside an SQLite database file,
so that a kept demo can still print them.
"""

from __future__ import annotations

import json
import random
import secrets
import uuid
import zoneinfo
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import DEFAULT_DB_ALIAS, transaction
from django.utils import timezone

from championship import presets, services
from championship.models import Championship, ChampionshipRole, Heat, Round, Seat
from control.rounds import heat_start
from judging.capture_kinds import CaptureInput
from judging.models import Capture
from judging.services import capture_record
from registration.models import Entry, EntryMember, Person
from registration.payment import give_reference
from registration.places import OPEN, registration_state
from results.services import standings_recompute

SLUG = "demo"
OPEN_SLUG = "demo-sm"
APPS = ("championship", "registration", "judging", "results")

FIRST_NAMES = [
    "Ingrid",
    "Ola",
    "Kari",
    "Lars",
    "Sigrid",
    "Erik",
    "Astrid",
    "Magnus",
    "Solveig",
    "Henrik",
    "Marit",
    "Knut",
    "Ragnhild",
    "Eirik",
    "Tone",
    "Håkon",
    "Liv",
    "Sindre",
    "Gunhild",
    "Øystein",
    "Hilde",
    "Torbjørn",
    "Ane",
    "Vegard",
    "Synnøve",
    "Bjørn",
    "Guro",
    "Jørgen",
    "Åse",
    "Fredrik",
    "Silje",
    "Trond",
    "Mari",
    "Anders",
    "Randi",
    "Steinar",
    "Nora",
    "Sverre",
    "Ida",
    "Geir",
    "Thea",
    "Kjetil",
    "Emilie",
    "Rune",
    "Helene",
    "Petter",
    "Oda",
    "Arne",
    "Tuva",
    "Leif",
]
LAST_NAMES = [
    "Hansen",
    "Johansen",
    "Olsen",
    "Larsen",
    "Andersen",
    "Pedersen",
    "Nilsen",
    "Kristiansen",
    "Jensen",
    "Karlsen",
    "Berg",
    "Haugen",
    "Hagen",
    "Eriksen",
    "Bakke",
    "Halvorsen",
    "Tjelta",
    "Sele",
    "Skretting",
    "Høyland",
    "Ravndal",
    "Time",
    "Undheim",
    "Bore",
    "Ueland",
    "Vigre",
    "Nærland",
    "Stangeland",
    "Sola",
    "Fjelde",
    "Tveit",
    "Aarre",
    "Egeland",
    "Tungland",
]
ROGALAND_TOWNS = ["Stavanger", "Sandnes", "Haugesund", "Bryne", "Egersund", "Sola", "Klepp"]
OTHER_TOWNS = [("Bergen", "Vestland"), ("Oslo", "Oslo"), ("Kristiansand", "Agder")]
TEAM_NAMES = [
    "Brikkeklubben",
    "Kantbitene",
    "Fjordpuslerne",
    "Himmelbitene",
    "Lyse Hoder",
    "Hjørnesteinene",
]


SWEDISH_NAMES = [
    ("Astrid Lindqvist", "Uppsala"),
    ("Johan Ek", "Västerås"),
    ("Elin Sjöberg", "Stockholm"),
    ("Oskar Holm", "Örebro"),
    ("Maja Nyström", "Gävle"),
]


@dataclass
class DemoResult:
    """What ``build`` made or kept, for the command to print."""

    championship: Championship
    open_championship: Championship
    passwords: dict[str, str]
    kept: bool


def _person(championship, rng, used_names, *, age=None, unofficial=False, moved_away=False):
    while True:
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        if name not in used_names:
            used_names.add(name)
            break
    today = championship.local_date
    age = age if age is not None else rng.randint(17, 72)
    # ``age`` whole years and up to 11 months old on the championship's day.
    birth_date = today - timedelta(days=round(age * 365.2425) + rng.randint(1, 330))
    if unofficial:
        city, region = rng.choice(OTHER_TOWNS)
        years = rng.choice([None, 1, 3])
    elif moved_away:
        # Lives elsewhere now, but lived in Rogaland continuously for more than 5 years.
        city, region = rng.choice(OTHER_TOWNS)
        years = rng.randint(6, 20)
    else:
        city, region, years = rng.choice(ROGALAND_TOWNS), "Rogaland", None
    email_name = name.lower().replace(" ", ".").translate(str.maketrans("æøå", "aoa"))
    return Person.objects.create(
        championship=championship,
        name=name,
        email=f"{email_name}@example.org",
        birth_date=birth_date,
        city=city,
        country="NO",
        citizenship=["NO"],
        region=region,
        years_in_region=years,
        publish_consent=rng.random() > 0.08,
    )


def _entry(category, members, *, name, registered_at, adult_name="", payment="paid"):
    entry = Entry.objects.create(
        category=category,
        name=name,
        status=Entry.Status.CONFIRMED,
        registered_at=registered_at,
        confirmed_at=registered_at,
        fee=category.fee,
        payment_status=payment,
        publish_consent=all(m.publish_consent for m in members),
        adult_name=adult_name,
        contact_email=members[0].email,
        language="nb",
    )
    # Its KID, as a new entry gets (the paid ones paid with it).
    if give_reference(entry, category.championship):
        entry.save(update_fields=["payment_reference"])
    EntryMember.objects.bulk_create(
        EntryMember(entry=entry, person=person, position=position)
        for position, person in enumerate(members, start=1)
    )
    return entry


def passwords_file() -> Path | None:
    """Return the file that keeps the demo users' passwords: beside an SQLite database file.

    Another database (or one in memory) keeps none, and a kept demo then gets new passwords.
    """
    database = settings.DATABASES[DEFAULT_DB_ALIAS]
    name = str(database.get("NAME") or "")
    if (
        database["ENGINE"] != "django.db.backends.sqlite3"
        or not name
        or name == ":memory:"
        or "mode=memory" in name
    ):
        return None
    path = Path(name)
    return path.with_name(f"{path.name}-demo-passwords.json")


def _stored_passwords(path: Path | None) -> dict[str, str]:
    if path is None or not path.exists():
        return {}
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stored if isinstance(stored, dict) else {}


def _store_passwords(path: Path | None, passwords: dict[str, str]) -> None:
    if path is None:
        return
    path.touch(mode=0o600, exist_ok=True)
    path.write_text(json.dumps(passwords, indent=2) + "\n", encoding="utf-8")


def _user(username: str, *, staff: bool, keep_password: str = "") -> tuple[object, str]:
    """Return the user and its password: ``keep_password`` if it still logs in, else a new one."""
    user, _created = get_user_model().objects.get_or_create(username=username)
    if keep_password and user.check_password(keep_password):
        password = keep_password
    else:
        # A new password logs out the phones logged in as this user.
        password = secrets.token_urlsafe(9)
        user.set_password(password)
    user.is_staff = staff
    user.is_active = True
    user.save()
    return user, password


def _registration_open(championship: Championship, now: datetime) -> bool:
    return all(
        registration_state(category, now=now) == OPEN for category in championship.categories.all()
    )


@transaction.atomic
def build(*, seed: int = 2026, keep: bool = False) -> DemoResult:
    """Build the demo and its users; return it with the users' passwords.

    ``keep``: keep the championships and passwords that exist, build only what is missing.
    """
    now = timezone.now().replace(microsecond=0)
    running = Championship.objects.filter(slug=SLUG).first() if keep else None
    kept = running is not None
    if running is None:
        Championship.objects.filter(slug=SLUG).delete()
        running = _build_running(random.Random(seed), now)
    open_championship = Championship.objects.filter(slug=OPEN_SLUG).first() if keep else None
    if open_championship is None or not _registration_open(open_championship, now):
        Championship.objects.filter(slug=OPEN_SLUG).delete()
        open_championship = _build_open(now)

    path = passwords_file()
    stored = _stored_passwords(path) if keep else {}
    organiser, organiser_password = _user(
        "organiser", staff=True, keep_password=stored.get("organiser", "")
    )
    organiser.user_permissions.set(
        Permission.objects.filter(content_type__app_label__in=APPS).exclude(
            codename__in=["change_capture", "delete_capture", "add_championship"]
        )
    )
    # Creating championships comes with the group, as for every organiser's account.
    organiser.groups.add(services.organisers_group())
    judge, judge_password = _user("judge", staff=False, keep_password=stored.get("judge", ""))
    for championship in (running, open_championship):
        services.role_grant(
            championship=championship, user=organiser, role=ChampionshipRole.Role.ORGANISER
        )
    services.role_grant(championship=running, user=judge, role=ChampionshipRole.Role.JUDGE)
    passwords = {"organiser": organiser_password, "judge": judge_password}
    _store_passwords(path, passwords)
    return DemoResult(
        championship=running,
        open_championship=open_championship,
        passwords=passwords,
        kept=kept,
    )


def _build_open(now: datetime) -> Championship:
    """Build a Pussel-SM some weeks ahead, its registration open, with a few entries."""
    # Dates follow the moment the demo is built, so its registration is open whenever that is.
    tz = zoneinfo.ZoneInfo(presets.get_preset("sm").timezone)
    day = timezone.localtime(now, tz).date() + timedelta(days=60)
    starts_at = datetime.combine(day, time(10), tzinfo=tz)
    championship = services.championship_create(
        slug=OPEN_SLUG,
        name="Pussel-SM (demo)",
        ruleset="sm",
        starts_at=starts_at,
        venue="Stadsbiblioteket, Uppsala",
    )
    championship.registration_deadline = starts_at - timedelta(days=14)
    championship.address = "Svartbäcksgatan 17, 753 20 Uppsala"
    championship.save(update_fields=["registration_deadline", "address"])
    individual = championship.categories.get(kind="individual")
    registered = now - timedelta(days=3)
    for number, (name, city) in enumerate(SWEDISH_NAMES):
        person = Person.objects.create(
            championship=championship,
            name=name,
            email=name.lower().replace(" ", ".").translate(str.maketrans("åäö", "aao"))
            + "@example.org",
            birth_date=day - timedelta(days=round((24 + 7 * number) * 365.2425) + 40),
            city=city,
            country="SE",
            citizenship=["SE"],
            publish_consent=True,
        )
        entry = Entry.objects.create(
            category=individual,
            name=name,
            status=Entry.Status.CONFIRMED,
            registered_at=registered + timedelta(hours=5 * number),
            confirmed_at=registered + timedelta(hours=5 * number),
            fee=individual.fee,
            publish_consent=True,
            contact_email=person.email,
            language="sv",
        )
        EntryMember.objects.create(entry=entry, person=person, position=1)
    return championship


def _build_running(rng: random.Random, now: datetime) -> Championship:
    """Build the Rogaland championship, its individual round running for 52 minutes."""
    heat_started = now - timedelta(minutes=52)
    championship = services.championship_create(
        slug=SLUG,
        name="Rogalandsmesterskapet i hurtigpusling (demo)",
        ruleset="rogaland",
        starts_at=heat_started,
        venue="Sølvberget, Stavanger",
    )
    championship.address = "Sølvberggata 2, 4006 Stavanger"
    championship.save(update_fields=["address"])
    categories = {c.kind: c for c in championship.categories.all()}
    motifs = {
        "individual": ("Ravensburger", "Preikestolen ved soloppgang"),
        "pair": ("Jumbo", "Gamle Stavanger om vinteren"),
        "team": ("Ravensburger", "Lysefjorden i panorama"),
    }
    for kind, (brand, motif) in motifs.items():
        categories[kind].puzzle_brand, categories[kind].puzzle_motif = brand, motif
        categories[kind].save(update_fields=["puzzle_brand", "puzzle_motif"])

    # 17 shared tables for the individual round (more than 30 entrants), then single tables,
    # in four rows of the hall (the round report compares them).
    tables = []
    for count, seats, row in ((9, 2, "Rad A"), (8, 2, "Rad B"), (12, 1, "Rad C"), (11, 1, "Rad D")):
        tables += services.tables_create(
            championship=championship, count=count, seats=seats, group=row
        )
    for table in tables[-3:]:
        table.reserved_for_guests = True
        table.label = "Gjestebord"
        table.save(update_fields=["reserved_for_guests", "label"])

    used: set[str] = set()
    registered = championship.starts_at - timedelta(days=40)

    def next_time():
        nonlocal registered
        registered += timedelta(minutes=rng.randint(3, 600))
        return registered

    # Individual: 34 entrants; three from outside Rogaland (unofficial), two who moved away
    # after more than 5 years (official), three under 16 with an accompanying adult.
    individual = []
    for number in range(34):
        young = number in (5, 17, 29)
        person = _person(
            championship,
            rng,
            used,
            age=rng.randint(11, 15) if young else None,
            unofficial=number in (8, 21, 30),
            moved_away=number in (12, 25),
        )
        adult = f"{rng.choice(FIRST_NAMES)} {person.name.split()[-1]}" if young else ""
        individual.append(
            _entry(
                categories["individual"],
                [person],
                name=person.name,
                registered_at=next_time(),
                adult_name=adult,
                payment="unpaid" if number in (14, 33) else "paid",
            )
        )

    pairs = []
    for number in range(12):
        members = [
            _person(championship, rng, used, unofficial=number == 4 and i == 1, age=None)
            for i in range(2)
        ]
        pairs.append(
            _entry(
                categories["pair"],
                members,
                name=f"{members[0].name.split()[0]} & {members[1].name.split()[0]}",
                registered_at=next_time(),
            )
        )

    teams = []
    for number, team_name in enumerate(TEAM_NAMES):
        size = 4 if number % 2 == 0 else 3
        # The fourth team has two members from outside Rogaland: fewer than 3 eligible.
        members = [
            _person(
                championship,
                rng,
                used,
                unofficial=number == 3 and i < 2,
                age=13 if (number == 1 and i == 2) else None,
            )
            for i in range(size)
        ]
        adult = "Marit Tjelta" if number == 1 else ""
        teams.append(
            _entry(
                categories["team"],
                members,
                name=team_name,
                registered_at=next_time(),
                adult_name=adult,
            )
        )

    # The individual final is running; pairs and teams are seated for the afternoon.
    rounds = {r.category.kind: r for r in Round.objects.filter(championship=championship)}
    individual_round = rounds["individual"]
    # Seated the day before; the heat started through the same service as the control room's
    # button, which gives every seated entry its pending result.
    heat = Heat.objects.create(
        round=individual_round, key="a", order=1, scheduled_start=heat_started
    )
    individual_round.seating_published_at = heat_started - timedelta(days=1)
    individual_round.save(update_fields=["seating_published_at"])
    Seat.objects.bulk_create(
        Seat(
            round=individual_round,
            heat=heat,
            table=tables[index // 2],
            entry=entry,
            position=index % 2 + 1,
        )
        for index, entry in enumerate(individual)
    )
    heat = heat_start(heat=heat, at=heat_started)
    for kind, entries, first_table, hours in (("pair", pairs, 17, 3), ("team", teams, 29, 5)):
        round_ = rounds[kind]
        later = Heat.objects.create(
            round=round_, key="a", order=1, scheduled_start=heat_started + timedelta(hours=hours)
        )
        round_.state = Round.State.SEATED
        round_.seating_published_at = heat_started - timedelta(days=1)
        round_.save(update_fields=["state", "seating_published_at"])
        Seat.objects.bulk_create(
            Seat(round=round_, heat=later, table=tables[first_table + i], entry=entry)
            for i, entry in enumerate(entries)
        )

    # The judge who captured the times; the password is set with the other user's.
    judge, _created = get_user_model().objects.get_or_create(username="judge")
    services.role_grant(championship=championship, user=judge, role=ChampionshipRole.Role.JUDGE)

    # Eight entrants have finished and confirmed their time; one missed a piece found in the
    # bag. The judge's taps go through the service the phones use, which derives the results.
    finishers = rng.sample(individual, 8)
    for rank, entry in enumerate(sorted(finishers, key=lambda e: e.pk)):
        elapsed_ms = (38 * 60 + rank * 97 + rng.randint(0, 90)) * 1000 + rng.randint(0, 999)
        tapped = heat_started + timedelta(milliseconds=elapsed_ms)
        for data in (
            CaptureInput(
                client_id=uuid.UUID(int=rng.getrandbits(128), version=4),
                kind=Capture.Kind.FINISH,
                at=tapped,
                missing_found=1 if rank == 3 else 0,
            ),
            CaptureInput(
                client_id=uuid.UUID(int=rng.getrandbits(128), version=4),
                kind=Capture.Kind.CONFIRM,
                at=tapped + timedelta(seconds=9),
            ),
        ):
            capture_record(
                round_=individual_round,
                entry=entry,
                judge=judge,
                data=data,
                now=tapped + timedelta(seconds=9),
            )
    standings_recompute(round_=individual_round)
    return championship
