"""What a country menu costs to render: Django's select, or the site's (``core.widgets.Select``).

    .venv/bin/python bench/country_menu.py

Django's select includes a template for each option; the site's writes them in its
own template. Paired, in one process: each round renders a country menu (the
registration form's, 250 countries, one chosen) with one widget and then the other,
the first alternating, in Norwegian. Checks that both give the same HTML (but for
whitespace between the options), then prints one line of JSON: each variant's median
and spread (interquartile range) in milliseconds, and the ratio.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from pathlib import Path

ROUNDS = 1000


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    from bench import paired

    django.setup()
    from django import forms
    from django.utils import translation

    from core.widgets import Select
    from registration.forms import country_choices

    translation.activate("nb")
    variants = {"django": forms.Select(), "site": Select()}
    for widget in variants.values():
        widget.choices = country_choices()
    html = {name: widget.render("country", "NO") for name, widget in variants.items()}
    same = {name: re.sub(r">\s+<", "><", text) for name, text in html.items()}
    if same["django"] != same["site"]:
        raise SystemExit("The two selects give different HTML.")
    times = {name: [] for name in variants}
    for number in range(ROUNDS):
        order = list(variants) if number % 2 == 0 else list(reversed(variants))
        for name in order:
            start = time.perf_counter()
            variants[name].render("country", "NO")
            times[name].append((time.perf_counter() - start) * 1000)
    report = paired.summary(times, slower="django", faster="site", digits=2)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
