"""The base of the domain: a championship and its structure, its staff, and its rulebook.

Championships, categories, rounds, heats, tables and seats (``models/``), roles and
staff sign-in links, the championship's mail outbox, and the rulebook of the three
national presets as plain functions (``rules/``, ``presets.py``, ``rulesets.py``,
free of Django). Every app of the project builds on it; it knows none of them,
except that a seat names its entry (see docs/architecture.md, "Layers").
"""
