"""Country names the site's own catalogues translate (``COUNTRIES_OVERRIDE``).

django-countries leaves these names in English in Swedish, Danish or Norwegian
(a native review of the country selects found them), or gives a name no longer
used ("Swaziland", "Makedonien") or its ISO form ("Palestina, State of"). Named
here, they are msgids of the project's catalogues, which say them in each language. The ISO
names with a comment in brackets ("Netherlands (Kingdom of the)") get the short
name people use, in English too.
"""

from django.utils.translation import gettext_lazy as _

OVERRIDE = {
    "AL": _("Albania"),
    "AS": _("American Samoa"),
    "AU": _("Australia"),
    "BO": _("Bolivia"),
    "BR": _("Brazil"),
    "BS": _("Bahamas"),
    "BV": _("Bouvet Island"),
    "CA": _("Canada"),
    "CC": _("Cocos (Keeling) Islands"),
    "CM": _("Cameroon"),
    "CU": _("Cuba"),
    "CV": _("Cabo Verde"),
    "CX": _("Christmas Island"),
    "EG": _("Egypt"),
    "FK": _("Falkland Islands"),
    "GE": _("Georgia"),
    "HM": _("Heard Island and McDonald Islands"),
    "HK": _("Hong Kong"),
    "ID": _("Indonesia"),
    "IN": _("India"),
    "IR": _("Iran"),
    "JO": _("Jordan"),
    "KH": _("Cambodia"),
    "LB": _("Lebanon"),
    "MK": _("North Macedonia"),
    "NF": _("Norfolk Island"),
    "NL": _("Netherlands"),
    "PH": _("Philippines"),
    "PN": _("Pitcairn"),
    "PS": _("Palestine"),
    "SB": _("Solomon Islands"),
    "SS": _("South Sudan"),
    "SZ": _("Eswatini"),
    "TD": _("Chad"),
    "TZ": _("Tanzania"),
    "VN": _("Viet Nam"),
}
