from django import template

from results import row_cells

register = template.Library()


@register.filter
def duration(seconds) -> str:
    """Show whole seconds as H:MM:SS (or M:SS under an hour)."""
    if seconds is None or seconds == "":
        return ""
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.simple_tag
def table_rows(rows: list[dict], decided, show_official) -> str:
    """Render a results table's rows (``results.row_cells.table_rows``)."""
    return row_cells.table_rows(rows, decided=decided, show_official=show_official)


@register.simple_tag
def board_rows(rows: list[dict], decided, show_official, recent) -> str:
    """Render the projector's rows (``results.row_cells.board_rows``)."""
    return row_cells.board_rows(rows, decided=decided, show_official=show_official, recent=recent)
