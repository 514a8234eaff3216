from django import template
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_countries import countries

from core.l10n import format_duration
from results import row_cells

register = template.Library()


@register.filter
def duration(seconds) -> str:
    """Show whole seconds as ``core.l10n.format_duration`` does ("0:12:34"); nothing for none."""
    if seconds is None or seconds == "":
        return ""
    return format_duration(int(seconds) * 1000)


@register.filter
def country_name(represents) -> str:
    """Name the country an entry represents in the active language ("neutral": the neutral flag)."""
    if not represents:
        return ""
    if represents == "neutral":
        return _("Neutral flag")
    return str(countries.name(represents)) or represents


@register.simple_tag(takes_context=True)
def table_rows(context, rows: list[dict], decided, show_official) -> str:
    """Render a results table's rows (``results.row_cells.table_rows``).

    The live table and its printed copy show the same rows: in the page's
    language (the printed copy's is the championship's) they are written once.
    """
    # Kept on the context of the render: each partial gets a render context of its own.
    written = context.__dict__.setdefault("_table_rows_written", {})
    key = (id(rows), bool(decided), bool(show_official), get_language())
    if key not in written:
        written[key] = row_cells.table_rows(rows, decided=decided, show_official=show_official)
    return written[key]


@register.simple_tag
def board_rows(rows: list[dict], decided, show_official, recent) -> str:
    """Render the projector's rows (``results.row_cells.board_rows``)."""
    return row_cells.board_rows(rows, decided=decided, show_official=show_official, recent=recent)
