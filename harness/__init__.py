"""The harness: how the benchmark and the deployment tests run the application for real.

``bench/run.py`` and ``tests/deployment/`` start PostgreSQL databases (on a server
that runs, or in a throwaway cluster of their own), Redis (one that runs, or a
throwaway ``redis-server``) and gunicorn app servers (``config.wsgi`` with
production settings), run ``manage.py`` commands and talk HTTP to what they
started, all on 127.0.0.1, through this package:

- ``harness.postgres``: databases created and dropped on a server, throwaway clusters;
- ``harness.redis``: a Redis that runs, a throwaway ``redis-server``;
- ``harness.servers``: the production environment, ``manage.py``, the document
  loaded with a judge, gunicorn and its workers;
- ``harness.http``: free ports, waiting, one request on a new connection.

It is not part of the application: it is not installed, and it imports no
application code (the application runs in the subprocesses it starts).
Everything it starts is undone by a ``stop``/``drop``/``destroy`` the caller
runs (an ``ExitStack`` or a fixture).
"""


class HarnessError(Exception):
    """Something the harness started or needs is missing or broke: the message says what."""
