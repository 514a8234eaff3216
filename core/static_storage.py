"""The static files of production: hashed names, compressed copies, and the judge's modules.

Django rewrites ``import … from "./queue.js"`` to the hashed name only with
``support_js_module_import_aggregation``, which for every file would break
``collectstatic`` (django-htmx's ``ext/hx-sse-2.js`` has ``import("../htmx")`` in
a comment). The judge's page is the one set of ES modules the site has: its
imports are rewritten, so a phone never combines a new ``main.js`` with an older
cached module.
"""

from django.contrib.staticfiles.storage import HashedFilesMixin
from whitenoise.storage import CompressedManifestStaticFilesStorage

JUDGE_MODULES = "judging/judge/*.js"


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        (JUDGE_MODULES, HashedFilesMixin._js_module_import_aggregation_patterns[1]),
    )
