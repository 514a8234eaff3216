"""Danish: "man. 30. nov. 19:52", with the ordinal dot and lower-case months."""

DATE_FORMAT = "j. F Y"
DATETIME_FORMAT = r"j. F Y \k\l. H:i"
SHORT_DATE_FORMAT = "D. j. N"
SHORT_DATETIME_FORMAT = "D. j. N H:i"
MONTH_DAY_FORMAT = "j. F"
