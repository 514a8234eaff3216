"""A prior ranking for the first round's seeding: a CSV file of ``name or e-mail, rank``,
previewed before anything is saved."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from championship.models import Category, Round
from championship.permissions import organiser_required
from control.forms import MAX_RANKING_ROWS, HistoryRankingForm, RankingUploadForm
from control.views.common import RANKING, SESSION_RANKING, round_or_404
from control.views.round import control_url
from core import csvfile
from core.csvfile import CsvFileError
from registration import services as registration_services
from registration.models import AddressState, Entry, Person
from results.puzzlers import history_ranking, history_sources

# Prior ranking ---------------------------------------------------------------------------------

EMAIL_COLUMNS = {"email", "e-mail", "e-post", "epost", "mail"}
NAME_COLUMNS = {"name", "navn", "namn"}
RANK_COLUMNS = {"rank", "ranking", "place", "plass", "placering", "rangering"}


@dataclass
class RankingRow:
    line: int
    value: str
    rank: int | None = None
    entry: Entry | None = None
    problem: str = ""
    # From history: the members whose confirmed address matched the earlier result.
    matched_by: str = ""


@dataclass
class RankingPreview:
    matched: list[RankingRow] = field(default_factory=list)
    unmatched: list[RankingRow] = field(default_factory=list)
    not_in_file: list[Entry] = field(default_factory=list)
    # From history: the entries not ranked of which a member's address awaits confirmation.
    awaiting: int = 0

    def ranks(self) -> dict[int, int]:
        return {row.entry.pk: row.rank for row in self.matched}


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def _column(header: list[str], names: set[str]) -> int | None:
    for index, title in enumerate(header):
        if _key(title) in names:
            return index
    return None


def ranking_preview(text: str, category: Category) -> RankingPreview:
    """Match the rows of a ranking file to the category's confirmed entries; save nothing.

    A row names an entry by a member's e-mail (any case) or by the entry's or a
    member's exact name (any case); the e-mail is tried first.
    """
    _delimiter, lines = csvfile.read_table(text, max_rows=MAX_RANKING_ROWS)
    header = lines[0][1]
    email_column = _column(header, EMAIL_COLUMNS)
    name_column = _column(header, NAME_COLUMNS)
    rank_column = _column(header, RANK_COLUMNS)
    if rank_column is None or (email_column is None and name_column is None):
        raise CsvFileError(_("The first row must name the columns: “email” or “name”, and “rank”."))
    entries = list(
        Entry.objects.filter(category=category, status=Entry.Status.CONFIRMED)
        .prefetch_related("members")
        .order_by("registered_at", "id")
    )
    by_email: dict[str, set[int]] = defaultdict(set)
    by_name: dict[str, set[int]] = defaultdict(set)
    by_pk = {entry.pk: entry for entry in entries}
    for entry in entries:
        by_name[_key(entry.name)].add(entry.pk)
        for member in entry.members.all():
            by_name[_key(member.name)].add(entry.pk)
            if member.email:
                by_email[member.email.strip().casefold()].add(entry.pk)

    def cell(row: list[str], column: int | None) -> str:
        return row[column].strip() if column is not None and column < len(row) else ""

    preview = RankingPreview()
    ranked_at: dict[int, int] = {}
    for line, row in lines[1:]:
        email, name, rank_text = (
            cell(row, email_column),
            cell(row, name_column),
            cell(row, rank_column),
        )
        result = RankingRow(line=line, value=email or name)
        try:
            result.rank = int(rank_text)
        except ValueError:
            result.rank = None
        if not (email or name):
            result.problem = _("No e-mail and no name.")
        elif result.rank is None or result.rank < 1:
            result.problem = _("“%(rank)s” is not a rank (a whole number from 1).") % {
                "rank": rank_text
            }
        else:
            found = by_email.get(email.casefold(), set()) if email else set()
            if not found and name:
                found = by_name.get(_key(name), set())
                result.value = name if not email else f"{email} / {name}"
            if not found:
                result.problem = _("No confirmed entry of this category has this e-mail or name.")
            elif len(found) > 1:
                result.problem = _("Several entries match: give the e-mail instead.")
            else:
                (pk,) = found
                if pk in ranked_at:
                    result.problem = _("Row %(line)s already ranks %(name)s.") % {
                        "line": ranked_at[pk],
                        "name": by_pk[pk].name,
                    }
                else:
                    ranked_at[pk] = line
                    result.entry = by_pk[pk]
        (preview.unmatched if result.problem else preview.matched).append(result)
    preview.not_in_file = [entry for entry in entries if entry.pk not in ranked_at]
    return preview


def history_preview(category: Category, sources: list[Category]) -> RankingPreview:
    """Rank the category's confirmed entries by their results in ``sources``; save nothing.

    Each ranked entry says which members' confirmed addresses matched; each
    entry not ranked says of every member how they are recognised (a confirmed
    address without an earlier result, an address awaiting confirmation, none),
    so the organiser sees what the ranking rests on.
    """
    ranking = history_ranking(category, sources)
    members = Person.objects.select_related("puzzler").order_by("memberships__position")
    entries = list(
        Entry.objects.filter(category=category, status=Entry.Status.CONFIRMED)
        .prefetch_related(Prefetch("members", queryset=members))
        .order_by("registered_at", "id")
    )
    preview = RankingPreview()
    for entry in entries:
        found = ranking.get(entry.pk)
        if found is None:
            entry.addresses = [
                {
                    "name": member.name,
                    "state": member.address_state,
                    "label": AddressState(member.address_state).label,
                }
                for member in entry.members.all()
            ]
            if any(a["state"] == AddressState.AWAITING for a in entry.addresses):
                preview.awaiting += 1
            preview.not_in_file.append(entry)
            continue
        source = found.source
        preview.matched.append(
            RankingRow(
                line=found.rank,
                value=_("%(championship)s, %(category)s: place %(place)s")
                % {
                    "championship": source.championship.name,
                    "category": source.display_name,
                    "place": found.place,
                },
                rank=found.rank,
                entry=entry,
                matched_by=", ".join(found.matched_by),
            )
        )
    preview.matched.sort(key=lambda row: row.rank)
    return preview


def _preview(stored: dict, category: Category, sources: list[Category]) -> RankingPreview:
    """Return the preview of what is stored: a file's rows, or the chosen earlier results."""
    if "history" in stored:
        chosen = set(stored["history"])
        return history_preview(category, [source for source in sources if source.pk in chosen])
    return ranking_preview(stored["text"], category)


def _ranking_url(round_: Round) -> str:
    return reverse(
        "manage:round_ranking",
        kwargs={"championship_slug": round_.championship.slug, "round_key": round_.key},
    )


def _stored_ranking(request, round_: Round) -> dict | None:
    return request.session.get(SESSION_RANKING, {}).get(str(round_.pk))


def _store_ranking(request, round_: Round, data: dict | None) -> None:
    stored = request.session.get(SESSION_RANKING, {})
    if data is None:
        stored.pop(str(round_.pk), None)
    else:
        stored = {str(round_.pk): data}  # one file at a time is enough
    request.session[SESSION_RANKING] = stored


@require_http_methods(["GET", "POST"])
@organiser_required
def round_ranking(request, championship, round_key):
    """Import the prior ranking of a first round's entries from CSV: upload, preview, confirm."""
    round_ = round_or_404(championship, round_key)
    if round_.previous_round() is not None:
        raise Http404(_("Prior rankings seed only a category's first round."))
    form = RankingUploadForm()
    sources = history_sources(round_.category)
    history_form = HistoryRankingForm(sources=sources)
    stored = _stored_ranking(request, round_)
    if request.method == "POST":
        action = request.POST.get("action", "upload")
        if action == "cancel":
            _store_ranking(request, round_, None)
            return redirect(_ranking_url(round_))
        if action == "confirm":
            if stored is None:
                messages.error(request, _("Upload the file again: its preview has expired."))
                return redirect(_ranking_url(round_))
            try:
                preview = _preview(stored, round_.category, sources)
            except CsvFileError as error:
                messages.error(request, error.message)
                return redirect(_ranking_url(round_))
            count = registration_services.ranking_apply(
                category=round_.category,
                ranks=preview.ranks(),
                clear_others=request.POST.get("clear_others") == "yes",
            )
            _store_ranking(request, round_, None)
            message = ngettext(
                "The prior ranking of %(count)s entry is saved.",
                "The prior ranking of %(count)s entries is saved.",
                count,
            ) % {"count": count}
            if round_.heats.exists():
                message += " " + _("Seat the round again (by seeding) for it to take effect.")
            messages.success(request, message)
            return redirect(control_url(round_))
        if action == "history":
            history_form = HistoryRankingForm(request.POST, sources=sources)
            if history_form.is_valid():
                chosen = history_form.chosen()
                _store_ranking(
                    request,
                    round_,
                    {
                        "history": [source.pk for source in chosen],
                        "filename": ", ".join(
                            f"{source.championship.name} – {source.display_name}"
                            for source in chosen
                        ),
                    },
                )
                return redirect(_ranking_url(round_))
        elif action == "upload":
            form = RankingUploadForm(request.POST, request.FILES)
        if form.is_bound and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                text = csvfile.decode(upload.read())
                ranking_preview(text, round_.category)
            except CsvFileError as error:
                form.add_error("file", error.message)
            else:
                _store_ranking(request, round_, {"text": text, "filename": upload.name})
                return redirect(_ranking_url(round_))
    preview = None
    if stored is not None and not form.is_bound and not history_form.is_bound:
        try:
            preview = _preview(stored, round_.category, sources)
        except CsvFileError as error:
            messages.error(request, error.message)
            _store_ranking(request, round_, None)
            stored = None
    return render(
        request,
        RANKING,
        {
            "round": round_,
            "form": form,
            "history_form": history_form if sources else None,
            "preview": preview,
            "stored": stored,
        },
    )
