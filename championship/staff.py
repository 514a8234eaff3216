"""Read what a championship's staff see first: their championships and the screens they open.

Terms:

staff
    A user with a role in a championship (organiser, head judge, judge), or a
    superuser, who is staff of every championship. A role implies the ones
    below it: an organiser does all a head judge does, a head judge all a judge
    does.
current rounds
    The rounds a head judge most likely wants to see judged now: the running
    ones; when none runs, the seated ones; when none is seated, the one that
    started last; else the first round.
table pages
    The judges' page of each table (``/t/<token>/``, what its QR code opens).
    The token is a secret of the championship's staff.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max, Prefetch
from django.utils.translation import gettext_lazy

from championship.models import Championship, ChampionshipRole, Round, Table

Role = ChampionshipRole.Role

# The highest role first: the one a championship's card is shown for.
RANKS = (Role.ORGANISER, Role.HEAD_JUDGE, Role.JUDGE)
ADMINISTRATOR = gettext_lazy("Administrator")


@dataclass(frozen=True)
class StaffChampionship:
    """A championship as one of its staff sees it on the home page."""

    championship: Championship
    role: str
    label: str
    rounds: list[Round]
    current: list[Round]
    tables: list[Table]

    @property
    def organiser(self) -> bool:
        return self.role == Role.ORGANISER

    @property
    def head_judge(self) -> bool:
        return self.role in (Role.ORGANISER, Role.HEAD_JUDGE)


def current_rounds(rounds: list[Round]) -> list[Round]:
    """Return the rounds to judge now, from a championship's rounds in schedule order.

    Each round needs ``last_start`` (when its latest heat started, or ``None``).
    """
    running = [r for r in rounds if r.state == Round.State.RUNNING]
    if running:
        return running
    seated = [r for r in rounds if r.state == Round.State.SEATED]
    if seated:
        return seated
    started = [r for r in rounds if r.last_start is not None]
    if started:
        return [max(started, key=lambda r: r.last_start)]
    return rounds[:1]


def staff_championships(user) -> list[StaffChampionship]:
    """Return the championships in which ``user`` is staff, the latest first."""
    if not user.is_authenticated or not user.is_active:
        return []
    held: dict[int, set[str]] = {}
    for championship_id, role in ChampionshipRole.objects.filter(user=user).values_list(
        "championship_id", "role"
    ):
        held.setdefault(championship_id, set()).add(role)
    championships = Championship.objects.all()
    if not user.is_superuser:
        championships = championships.filter(pk__in=held)
    championships = championships.order_by("-starts_at", "name").prefetch_related(
        Prefetch(
            "rounds",
            queryset=Round.objects.select_related("category")
            .annotate(last_start=Max("heats__started_at"))
            .order_by("category__order", "order"),
        ),
        Prefetch("tables", queryset=Table.objects.order_by("number")),
    )
    cards = []
    for championship in championships:
        roles = held.get(championship.pk, set())
        role = next((rank for rank in RANKS if rank in roles), None)
        if role is None:
            role, label = Role.ORGANISER, ADMINISTRATOR  # a superuser without a role
        else:
            label = Role(role).label
        rounds = list(championship.rounds.all())
        cards.append(
            StaffChampionship(
                championship=championship,
                role=role,
                label=label,
                rounds=rounds,
                current=current_rounds(rounds),
                tables=list(championship.tables.all()),
            )
        )
    return cards
