"""Template helpers every page shares: money, time zones and presets as readers say them."""

from django import template
from django.utils.translation import get_language_info, gettext

from championship import presets, rulesets
from core import l10n

register = template.Library()


@register.filter
def money(amount, currency: str) -> str:
    """Return an amount with its currency: "200 kr" in its own language, else "200 NOK"."""
    if amount is None or amount == "":
        return ""
    return l10n.money(amount, currency)


@register.filter
def zone_name(zone: str) -> str:
    """Return a time zone as people say it ("Norwegian time"), else its IANA name."""
    return l10n.zone_name(zone)


@register.filter
def preset_title(key: str) -> str:
    """Return a ruleset preset's title ("Pussel-SM"), without the code organisers know it by."""
    try:
        # The national titles are names and stay as they are; the neutral one is translated.
        return gettext(presets.get_preset(key).title)
    except rulesets.RulesetError:
        return key


# The site has one Norwegian, bokmål: "Norsk" says it, and keeps the switcher narrow.
LANGUAGE_NAMES = {"nb": "Norsk", "sv": "Svenska", "da": "Dansk", "en": "English"}


@register.filter
def language_name(code: str) -> str:
    """Return a language's name in that language, as the language switcher offers it."""
    return LANGUAGE_NAMES.get(code) or get_language_info(code)["name_local"].capitalize()
