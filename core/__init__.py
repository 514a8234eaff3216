"""The site's own machinery, below every championship app: nothing here knows a championship.

Reading what a client may send (``jsonbounds``, ``form_fields``, ``csvfile``), who
sent it (``client_ip``) and how often (``throttle``); the site's address for links
that leave the screen (``site_url``, ``lan``); the shape of a URL's tokens
(``tokens``); the process's caches and the one generic reader of written-out SQL
(``process_cache``, ``queries``); the workers' loop (``worker``); numbers, amounts and
durations as a reader's language says them (``l10n``, ``formats``,
``country_names``); the time zones the server knows, read once (``zones``); the
admin site, the deployment's system checks, the middleware that reads Norwegian
browsers as bokmål, and ``actions``, the one way a view runs a service and shows
its refusal. The import-linter contract
keeps it at the bottom: it imports no app of the project.
"""
