"""Dates and times as read in each of the site's languages (``FORMAT_MODULE_PATH``).

Templates use the named formats (``|date:"SHORT_DATETIME_FORMAT"``), never a
pattern of their own, so each language reads its dates its own way: month names
in lower case, the ordinal dot in Norwegian and Danish, a 24-hour clock
everywhere. What a module leaves out comes from Django's own formats.

DATE_FORMAT
    A day: "30. november 2026".
DATETIME_FORMAT
    A day and a time, e.g. a registration deadline: "30. november 2026 kl. 19:52".
SHORT_DATE_FORMAT
    A day of the championship's week: "man. 30. nov.".
SHORT_DATETIME_FORMAT
    A start on the day: "man. 30. nov. 19:52".
MONTH_DAY_FORMAT
    A day without its year: "30. november".
"""
