"""REST API, version 1: one module per part of the API.

Views are thin: they read through selectors, call services, and leave the shape
to ``api.serializers``. The URL keyword is ``championship_slug`` rather than
``slug`` on purpose: ``ChampionshipMiddleware`` resolves every view with a
``slug`` keyword with a query of its own, and the polled results endpoint has to
answer a conditional request with a single query.
"""
