"""The venue's tables: add, edit, rotate a QR token, download a QR code."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championship import cards, services
from championship import services as championship_services
from championship.models import Championship, Table
from championship.permissions import organiser_required
from control.forms import TableForm, TablesAddForm
from control.views.common import ROTATE, TABLES, error_message, form_refusal

# Tables ----------------------------------------------------------------------------------------


def _tables_url(championship: Championship) -> str:
    return reverse("control:tables", kwargs={"slug": championship.slug})


def _table(championship: Championship, number: int) -> Table:
    table = get_object_or_404(Table, championship=championship, number=number)
    table.championship = championship
    return table


@require_http_methods(["GET", "POST"])
@organiser_required
def tables(request, championship):
    """List the venue's tables; add some."""
    form = TablesAddForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                added = services.tables_create(
                    championship=championship,
                    count=form.cleaned_data["count"],
                    seats=form.cleaned_data["seats"],
                )
            except ValidationError as error:
                messages.error(request, error_message(error))
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)s table added (%(first)s).",
                        "%(count)s tables added (%(first)s–%(last)s).",
                        len(added),
                    )
                    % {"count": len(added), "first": added[0].number, "last": added[-1].number},
                )
                return redirect(_tables_url(championship))
        else:
            messages.error(request, _("No table added: see the form."))
    listed = list(championship.tables.order_by("number"))
    for table in listed:
        table.form = TableForm(
            initial={
                "label": table.label,
                "seats": table.seats,
                "reserved_for_guests": table.reserved_for_guests,
            },
            prefix=f"table-{table.number}",
        )
    return render(request, TABLES, {"tables": listed, "form": form})


@require_POST
@organiser_required
def table_edit(request, championship, number):
    """Change a table's label, seats or guest reservation."""
    table = _table(championship, number)
    form = TableForm(request.POST, prefix=f"table-{number}")
    try:
        if not form.is_valid():
            raise form_refusal(form)
        services.table_update(
            table=table,
            label=form.cleaned_data["label"].strip(),
            seats=form.cleaned_data["seats"],
            reserved_for_guests=form.cleaned_data["reserved_for_guests"],
        )
    except ValidationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, _("Table %(number)s is saved.") % {"number": number})
    return redirect(_tables_url(championship))


@require_http_methods(["GET", "POST"])
@organiser_required
def table_rotate(request, championship, number):
    """Ask, then give a table a new QR token: its printed card stops working."""
    table = _table(championship, number)
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, _("Tick the box to confirm the new QR code."))
            return redirect("control:table_rotate", slug=championship.slug, number=table.number)
        rotated = championship_services.table_rotate_token(table=table)
        messages.success(
            request,
            _(
                "Table %(number)s has a new QR code (…%(token)s): print its card again; "
                "the old one no longer opens the table."
            )
            % {"number": number, "token": rotated.token[-6:]},
        )
        return redirect(_tables_url(championship))
    return render(request, ROTATE, {"table": table})


@require_GET
@organiser_required
def table_qr(request, championship, number):
    """Download a table's QR code as a PNG."""
    table = _table(championship, number)
    response = HttpResponse(cards.qr_png(cards.table_url(table)), content_type="image/png")
    response["Content-Disposition"] = f'attachment; filename="table-{table.number}.png"'
    response["Cache-Control"] = "private, no-store"
    return response
