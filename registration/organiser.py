"""The organiser's entry tools: the entry list with its actions, CSV export and import.

Every view is for the organisers of the championship (``organiser_required``).
Writes go through ``registration.services`` (``core.actions.run``); a service's
``ValidationError`` becomes an error message and changes nothing. The forms are
``registration.organiser_forms``.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championship.permissions import organiser_required
from core import actions, csvfile
from registration import (
    csv_columns,
    csv_export,
    csv_io,
    deadlines,
    notifications,
    organiser_import,
    paging,
    selectors,
    services,
)
from registration.models import Entry, StoredImport
from registration.organiser_forms import EntryFilterForm, ImportForm, PaymentForm, WalkoverForm
from registration.questions import answers_shown, questions_for

ENTRIES = "registration/organiser_entries.html"
IMPORT = "registration/organiser_import.html"
IMPORT_PREVIEW = "registration/organiser_import_preview.html"


# The entry list -------------------------------------------------------------------------------


class _Listing:
    """The entry list as the filters ask for it, and the query string that gives it back.

    The query string (``query``) holds the filters and the page: the row actions
    post it back, so that the list comes back as the organiser left it.
    """

    def __init__(self, championship, params: QueryDict):
        self.championship = championship
        self.categories = list(championship.categories.order_by("order", "key"))
        self.adult_age = championship.rules.adult_required_below
        self.form = EntryFilterForm(params, categories=self.categories, adult_age=self.adult_age)
        self.form.is_valid()
        data = self.form.cleaned_data
        by_key = {category.key: category for category in self.categories}
        self.category = by_key.get(data.get("category")) or (
            self.categories[0] if self.categories else None
        )
        if self.category is not None:
            self.category.championship = championship
        self.filters = selectors.EntryFilters(
            status=data.get("status", ""),
            official=data.get("official", ""),
            payment=data.get("payment", ""),
            checked_in=data.get("checked_in", ""),
            under_age=data.get("under_age", ""),
            query=data.get("q", "").strip(),
        )
        values = {"category": self.category.key if self.category else ""}
        values.update(
            {name: data.get(name) for name in EntryFilterForm.base_fields if name != "category"}
        )
        # The filters alone: the pages' links add their page to it.
        self.filters_query = urlencode({name: value for name, value in values.items() if value})
        self.page = paging.page_number(params)
        self.query = paging.with_page(self.filters_query, self.page)

    def context(self) -> dict:
        category = self.category
        listing = (
            None
            if category is None
            else selectors.category_entry_list(category, self.filters, self.page)
        )
        if listing is not None:
            # The page shown (the last one when the list has become shorter) is the one
            # the row actions come back to.
            self.query = paging.with_page(self.filters_query, listing.page.number)
            # The answers to the organiser's own questions, under each entry's members.
            asked = questions_for(category)
            for row in listing.rows:
                row.answers = answers_shown(asked, row.entry.answers)
        return {
            "form": self.form,
            "category": category,
            "categories": self.categories,
            "filters": self.filters,
            "listing": listing,
            "pages": (
                None
                if listing is None
                else paging.page_links(listing.page, self.path(), self.filters_query)
            ),
            "query": self.query,
            "adult_age": self.adult_age,
            "payment_choices": Entry.Payment.choices,
        }

    def path(self) -> str:
        return reverse("manage:entries", kwargs={"championship_slug": self.championship.slug})

    def url(self) -> str:
        return f"{self.path()}?{self.query}" if self.query else self.path()


@never_cache
@require_GET
@organiser_required
def entries(request, championship):
    """List a category's entries with filters, search and counts, a page at a time.

    Each row comes with its actions. ``?page=`` is the page (``selectors.PER_PAGE``
    entries each); an HTMX request gets the list alone (``#entries-region``).
    """
    context = _Listing(championship, request.GET).context()
    template = f"{ENTRIES}#entries-region" if request.htmx else ENTRIES
    return render(request, template, context)


def entry_or_404(championship, pk) -> Entry:
    entry = selectors.entry_of(championship, pk)
    if entry is None:
        raise Http404(_("There is no such entry in this championship."))
    return entry


def _after_action(request, championship):
    """Answer an entry action: the refreshed list for HTMX, else back to the list."""
    listing = _Listing(championship, QueryDict(request.POST.get("query", "")))
    if request.htmx:
        return render(request, f"{ENTRIES}#entries-region", listing.context())
    return redirect(listing.url())


@require_POST
@organiser_required
def promote(request, championship, pk):
    """Confirm a waitlisted entry, even beyond the capacity."""
    entry = entry_or_404(championship, pk)

    def action():
        services.entry_promote(entry=entry)
        return _("%(name)s is confirmed (promoted from the waiting list).") % {"name": entry.name}

    actions.run(request, action)
    return _after_action(request, championship)


@require_POST
@organiser_required
def judge_note(request, championship, pk):
    """Set the note the judges see at the entry's table (never public)."""
    entry = entry_or_404(championship, pk)

    def action():
        services.entry_set_judge_note(entry=entry, note=request.POST.get("judge_note", ""))
        return _("The note for the judges of %(name)s is saved.") % {"name": entry.name}

    actions.run(request, action)
    return _after_action(request, championship)


@require_POST
@organiser_required
def release(request, championship, pk):
    """Withdraw an entry whose payment deadline has passed unpaid; its place goes on."""
    entry = entry_or_404(championship, pk)

    def action():
        deadlines.entry_release_unpaid(entry=entry)
        return _("%(name)s is released: the place goes to the waiting list.") % {"name": entry.name}

    actions.run(request, action)
    return _after_action(request, championship)


@require_POST
@organiser_required
def payment(request, championship, pk):
    """Record an entry's payment status and reference."""
    entry = entry_or_404(championship, pk)
    form = PaymentForm(request.POST)

    def action():
        if not form.is_valid():
            raise actions.form_refusal(form)
        saved = services.entry_set_payment(
            entry=entry,
            status=form.cleaned_data["status"],
            reference=form.cleaned_data["reference"],
        )
        return _("Payment of %(name)s saved: %(status)s.") % {
            "name": saved.name,
            "status": saved.get_payment_status_display(),
        }

    actions.run(request, action)
    return _after_action(request, championship)


@require_POST
@organiser_required
def withdraw(request, championship, pk):
    """Withdraw an entry; a freed place goes to the first on the waiting list."""
    entry = entry_or_404(championship, pk)

    def action():
        if request.POST.get("confirm") != "yes":
            raise ValidationError(_("Tick the box to confirm the withdrawal."))
        if entry.status == Entry.Status.WITHDRAWN:
            raise ValidationError(_("%(name)s was already withdrawn.") % {"name": entry.name})
        promoted = services.entry_withdraw(entry=entry)
        message = _("%(name)s is withdrawn.") % {"name": entry.name}
        if promoted:
            message += " " + _("Confirmed from the waiting list: %(names)s.") % {
                "names": ", ".join(p.name for p in promoted)
            }
        return message

    actions.run(request, action)
    return _after_action(request, championship)


@require_POST
@organiser_required
def walkover(request, championship, pk):
    """Mark a confirmed entry as a walk-over with a reason, or take the walk-over back."""
    entry = entry_or_404(championship, pk)
    form = WalkoverForm(request.POST)
    undo = request.POST.get("undo") == "1"

    def action():
        if not form.is_valid():
            raise actions.form_refusal(form)
        services.entry_mark_walkover(
            entry=entry, reason=form.cleaned_data["reason"], undo=undo, by=request.user
        )
        if undo:
            return _("The walk-over of %(name)s is taken back.") % {"name": entry.name}
        return _("%(name)s is marked as a walk-over.") % {"name": entry.name}

    actions.run(request, action)
    return _after_action(request, championship)


@require_POST
@organiser_required
def new_link(request, championship, pk):
    """Give an entry a new private manage link (e.g. a forwarded e-mail); the old one stops."""
    entry = entry_or_404(championship, pk)

    def action():
        rotated = services.entry_rotate_manage_link(entry=entry)
        found = {"name": rotated.name, "url": notifications.manage_url(rotated)}
        if notifications.recipients(rotated) and not notifications.latest_failed(
            rotated, notifications.Kind.NEW_LINK
        ):
            return (
                _(
                    "%(name)s has a new private link, on its way by e-mail: %(url)s "
                    "The old one no longer works."
                )
                % found
            )
        # The entrant has no working link until they get this one: the organiser passes it on.
        return (
            _(
                "%(name)s has a new private link: %(url)s It could not be sent by e-mail: "
                "pass it on yourself. The old one no longer works."
            )
            % found
        )

    actions.run(request, action)
    return _after_action(request, championship)


# CSV export -----------------------------------------------------------------------------------

EXPORT_DIALECTS = {"comma": csvfile.COMMA, "semicolon": csvfile.SEMICOLON}


@never_cache
@require_GET
@organiser_required
def export(request, championship):
    """Download the entries as CSV: one category (``?category=``) or all of them.

    The file is in the championship's dialect (``core.csvfile``): semicolons,
    a byte-order mark and a decimal comma for nb, sv and da, commas for en;
    ``?delimiter=comma`` or ``semicolon`` asks for the other one. Its column names
    and words are in the championship's language, whatever the page's.
    """
    categories = list(championship.categories.order_by("order", "key"))
    key = request.GET.get("category", "")
    if key:
        categories = [category for category in categories if category.key == key]
        if not categories:
            raise Http404(_("There is no such category in this championship."))
    rows = selectors.entry_rows(selectors.entries_with_members(categories), championship)
    with translation.override(championship.language):
        table = csv_export.export_rows(championship, rows)
    return csvfile.response(
        f"{championship.slug}-{key or 'entries'}.csv",
        table,
        language=championship.language,
        dialect=EXPORT_DIALECTS.get(request.GET.get("delimiter", "")),
    )


# CSV import -----------------------------------------------------------------------------------


def _categories(championship):
    categories = list(championship.categories.order_by("order", "key"))
    for category in categories:
        category.championship = championship
    return categories


@require_http_methods(["GET", "POST"])
@organiser_required
def import_upload(request, championship):
    """Take a CSV file of entries and show what it would import."""
    categories = _categories(championship)
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES, categories=categories)
        if form.is_valid():
            category = next((c for c in categories if c.key == form.cleaned_data["category"]), None)
            try:
                text = csvfile.decode(form.cleaned_data["file"].read())
                preview = csv_io.parse_entries(
                    text, championship=championship, default_category=category
                )
            except csvfile.CsvFileError as error:
                form.add_error("file", error.message)
            else:
                for problem in preview.problems:
                    form.add_error(None, problem)
            if form.is_valid():
                stored = csv_io.import_store(
                    championship=championship,
                    user=request.user,
                    text=text,
                    category_key=category.key if category else "",
                    filename=form.cleaned_data["file"].name,
                )
                return redirect(
                    "manage:entries_import_preview",
                    championship_slug=championship.slug,
                    token=stored.token,
                )
    else:
        form = ImportForm(categories=categories)
    return render(
        request,
        IMPORT,
        {
            "form": form,
            "export_columns": csv_export.export_header(),
            "member_fields": csv_columns.MEMBER_FIELDS,
            "entry_columns": csv_columns.EXPORT_COLUMNS,
        },
    )


@never_cache
@require_http_methods(["GET", "POST"])
@organiser_required
def import_preview(request, championship, token):
    """Show every row of an uploaded file with its problems; on confirmation, save the rows.

    The file is imported once: a second confirmation, even one sent at the same
    instant as the first, is told the import was done and imports nothing.
    """
    stored = csv_io.stored_import(championship=championship, user=request.user, token=token)
    upload_url = reverse("manage:entries_import", kwargs={"championship_slug": championship.slug})
    if stored is None:
        messages.error(
            request, _("This import is no longer available: upload the file again, please.")
        )
        return redirect(upload_url)
    if stored.state != StoredImport.State.STORED:
        return organiser_import.claimed(request, championship, stored)
    categories = _categories(championship)
    category = next((c for c in categories if c.key == stored.category_key), None)
    try:
        preview = csv_io.parse_entries(
            stored.text, championship=championship, default_category=category
        )
    except csvfile.CsvFileError as error:
        csv_io.import_forget(stored=stored)
        messages.error(request, error.message)
        return redirect(upload_url)
    if request.method == "POST":
        if request.POST.get("action") == "cancel":
            csv_io.import_forget(stored=stored)
            messages.info(request, _("The import is cancelled; nothing was saved."))
            return redirect(upload_url)
        skip = request.POST.get("skip_invalid") == "yes"
        if preview.problems:
            messages.error(request, _("Nothing was saved: the file cannot be imported."))
        elif preview.invalid and not skip:
            messages.error(
                request,
                ngettext(
                    "Nothing was saved: %(count)s row has problems. Correct the file and "
                    "upload it again, or tick “Skip the rows with problems”.",
                    "Nothing was saved: %(count)s rows have problems. Correct the file and "
                    "upload it again, or tick “Skip the rows with problems”.",
                    len(preview.invalid),
                )
                % {"count": len(preview.invalid)},
            )
        elif not preview.to_import:
            messages.error(request, _("Nothing was saved: the file has no row to import."))
        else:
            return organiser_import.confirm(request, championship, stored, preview)
        return redirect(
            "manage:entries_import_preview", championship_slug=championship.slug, token=token
        )
    return render(
        request,
        IMPORT_PREVIEW,
        {
            "preview": preview,
            "token": token,
            "filename": stored.filename,
            "default_category": category,
            "expected": preview.expected_counts,
        },
    )
