"""RULES.md's registration deadline: the earlier of the organiser's and the preset's."""

import zoneinfo
from datetime import UTC, datetime

import pytest

from championship.presets import get_preset
from championship.rules.deadline import days_before, registration_deadline

OSLO = zoneinfo.ZoneInfo("Europe/Oslo")
STOCKHOLM = zoneinfo.ZoneInfo("Europe/Stockholm")
COPENHAGEN = zoneinfo.ZoneInfo("Europe/Copenhagen")

# 10:00 in Oslo on Monday 30 March 2026, the day after the spring change (08:00 UTC).
AFTER_SPRING_CHANGE = datetime(2026, 3, 30, 10, 0, tzinfo=OSLO)
# 10:00 in Oslo on Monday 26 October 2026, the day after the autumn change (09:00 UTC).
AFTER_AUTUMN_CHANGE = datetime(2026, 10, 26, 10, 0, tzinfo=OSLO)
# 09:00 UTC on 14 March 2026, no change in the five days before.
PLAIN = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("start", "expected_utc"),
    [
        # Five calendar days before, 10:00 wall-clock time: 09:00 UTC (CET), not 08:00.
        (AFTER_SPRING_CHANGE, datetime(2026, 3, 25, 9, 0, tzinfo=UTC)),
        # After the autumn change: 10:00 CEST on 21 October is 08:00 UTC, not 09:00.
        (AFTER_AUTUMN_CHANGE, datetime(2026, 10, 21, 8, 0, tzinfo=UTC)),
        (PLAIN, datetime(2026, 3, 9, 9, 0, tzinfo=UTC)),
    ],
)
def test_five_days_before_keeps_the_local_wall_clock_time(start, expected_utc):
    closes = days_before(start, 5, OSLO)
    assert closes == expected_utc
    assert closes.astimezone(OSLO).time() == start.astimezone(OSLO).time()


def test_a_wall_clock_time_that_happens_twice_is_read_as_the_first():
    # 02:30 on 25 October 2026 happens twice in Oslo: first at 00:30 UTC (CEST).
    start = datetime(2026, 10, 30, 2, 30, tzinfo=OSLO)
    assert days_before(start, 5, OSLO) == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)


def test_a_wall_clock_time_that_does_not_happen_is_read_as_the_earlier_instant():
    # 02:30 on 29 March 2026 does not exist in Oslo; its readings are 00:30 and 01:30 UTC.
    start = datetime(2026, 4, 3, 2, 30, tzinfo=OSLO)
    assert days_before(start, 5, OSLO) == datetime(2026, 3, 29, 0, 30, tzinfo=UTC)


# (preset, its time zone, the organiser's deadline, when registration closes), all for the
# start on 30 March 2026 at 10:00 in Oslo (08:00 UTC).
EARLY = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
LATE = datetime(2026, 3, 28, 12, 0, tzinfo=UTC)
PRESET_CASES = [
    # rogaland: five days before the start, 10:00 Oslo time on 25 March (09:00 UTC) ...
    ("rogaland", OSLO, None, datetime(2026, 3, 25, 9, 0, tzinfo=UTC)),
    # ... an organiser's later deadline is capped by the preset's ...
    ("rogaland", OSLO, LATE, datetime(2026, 3, 25, 9, 0, tzinfo=UTC)),
    # ... an earlier one wins.
    ("rogaland", OSLO, EARLY, EARLY),
    # sm and dm: the organiser's deadline, whatever it is; without one, the start.
    ("sm", STOCKHOLM, LATE, LATE),
    ("sm", STOCKHOLM, None, AFTER_SPRING_CHANGE),
    ("dm", COPENHAGEN, EARLY, EARLY),
    ("dm", COPENHAGEN, None, AFTER_SPRING_CHANGE),
]


@pytest.mark.parametrize(("preset", "tz", "organiser", "expected"), PRESET_CASES)
def test_registration_closes_at_the_earlier_of_the_organisers_and_the_presets_deadline(
    preset, tz, organiser, expected
):
    closes = registration_deadline(
        starts_at=AFTER_SPRING_CHANGE,
        tz=tz,
        closes_days_before=get_preset(preset).rules.registration_closes_days_before,
        organiser_deadline=organiser,
    )
    assert closes == expected


def test_deadlines_are_compared_as_instants_not_wall_clock_times():
    # On the night of the autumn change, the organiser's 02:10 CET (01:10 UTC) comes after
    # the preset's 02:30 CEST (00:30 UTC), though its wall clock shows an earlier time.
    organiser = datetime(2026, 10, 25, 2, 10, fold=1, tzinfo=OSLO)
    start = datetime(2026, 10, 30, 2, 30, tzinfo=OSLO)
    closes = registration_deadline(
        starts_at=start, tz=OSLO, closes_days_before=5, organiser_deadline=organiser
    )
    assert closes == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
