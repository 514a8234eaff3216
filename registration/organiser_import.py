"""The organiser's confirmed CSV import: the confirmation's answer and the import's page.

The upload and the preview are ``registration.organiser``'s; from the
confirmation on, an import is a job (``registration.csv_jobs``). A small file is
imported by the confirmation's request, which then shows the entries as before;
a larger one is imported by the worker while the import's page
(``/<slug>/manage/entries/import/<token>/progress/``) shows how far it got,
polling every two seconds until it is done.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from championship.permissions import organiser_required
from registration import csv_io, csv_jobs
from registration.models import StoredImport

PROGRESS = "registration/organiser_import_progress.html"
State = StoredImport.State

IMPORT_DONE = gettext_lazy("This import was done already: nothing was imported again.")


def _progress_url(championship, stored: StoredImport) -> str:
    return reverse(
        "manage:entries_import_progress",
        kwargs={"championship_slug": championship.slug, "token": stored.token},
    )


def claimed(request, championship, stored: StoredImport):
    """Answer a preview or confirmation of an import already confirmed: done, or its page."""
    if stored.state == State.DONE:
        messages.error(request, IMPORT_DONE)
        return redirect("manage:entries_import", championship_slug=championship.slug)
    return redirect(_progress_url(championship, stored))


def confirm(request, championship, stored: StoredImport, preview: csv_io.ImportPreview):
    """Confirm the preview's rows: import them (or queue them), then answer with the outcome.

    Imported in the request without a refused row, the entries are shown with the
    outcome, as they always were; otherwise the import's page shows it.
    """
    try:
        job = csv_jobs.import_confirm(
            stored=stored,
            rows=preview.to_import,
            left_out=len(preview.invalid) + len(preview.withdrawn),
            language=translation.get_language(),
        )
    except csv_jobs.ImportAlreadyDone:
        stored.refresh_from_db()
        return claimed(request, championship, stored)
    if job.state == State.DONE and not job.refused:
        messages.success(request, outcome(job))
        listing = reverse("manage:entries", kwargs={"championship_slug": championship.slug})
        key = preview.to_import[0].category.key
        return redirect(f"{listing}?{urlencode({'category': key})}")
    return redirect(_progress_url(championship, job))


def outcome(job: StoredImport) -> str:
    """Return what a done import saved, in a sentence (and what it left out)."""
    imported = job.confirmed + job.waitlisted
    message = ngettext(
        "%(count)s entry imported: %(confirmed)s confirmed, %(waitlisted)s on the waiting list.",
        "%(count)s entries imported: %(confirmed)s confirmed, %(waitlisted)s on the waiting list.",
        imported,
    ) % {"count": imported, "confirmed": job.confirmed, "waitlisted": job.waitlisted}
    if job.left_out:
        message += " " + ngettext(
            "%(count)s row was left out.", "%(count)s rows were left out.", job.left_out
        ) % {"count": job.left_out}
    if job.refused:
        message += " " + ngettext(
            "%(count)s row was refused when it was saved.",
            "%(count)s rows were refused when they were saved.",
            len(job.refused),
        ) % {"count": len(job.refused)}
    return message


@never_cache
@require_http_methods(["GET", "POST"])
@organiser_required
def import_progress(request, championship, token):
    """Show how far a confirmed import got, and its outcome once done; try a failed one again."""
    stored = csv_io.stored_import(championship=championship, user=request.user, token=token)
    if stored is None:
        messages.error(
            request, _("This import is no longer available: upload the file again, please.")
        )
        return redirect("manage:entries_import", championship_slug=championship.slug)
    if stored.state == State.STORED:
        return redirect(
            "manage:entries_import_preview", championship_slug=championship.slug, token=token
        )
    if request.method == "POST":
        if request.POST.get("action") == "retry" and csv_jobs.import_retry(stored=stored):
            messages.info(request, _("The import goes on where it stopped."))
        return redirect(_progress_url(championship, stored))
    context = {
        "job": stored,
        "outcome": outcome(stored) if stored.state == State.DONE else "",
        "stale": csv_jobs.is_stale(stored),
        "unfinished": stored.state in csv_jobs.UNFINISHED,
        "entries_url": reverse("manage:entries", kwargs={"championship_slug": championship.slug})
        + (f"?{urlencode({'category': stored.category_key})}" if stored.category_key else ""),
    }
    if request.htmx:
        return render(request, f"{PROGRESS}#import-progress", context)
    return render(request, PROGRESS, context)
