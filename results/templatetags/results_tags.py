from django import template

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
