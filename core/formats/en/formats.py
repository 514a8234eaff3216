"""English in the Nordic order: day before month and a 24-hour clock ("Mon 30 Nov 19:52")."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "D j M"
SHORT_DATETIME_FORMAT = "D j M H:i"
MONTH_DAY_FORMAT = "j F"
