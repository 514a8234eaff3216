from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from registration.signals import (
    entry_walkover,
    entry_withdrawn,
    members_changed,
)


class ResultsConfig(AppConfig):
    name = "results"
    verbose_name = _("Results")

    def ready(self):
        # Receivers read the models, which are loaded only once the registry is ready.
        from results import receivers

        members_changed.connect(
            receivers.rerank_entries_rounds, dispatch_uid="results.rerank_entries_rounds"
        )
        entry_withdrawn.connect(
            receivers.rerank_entries_rounds, dispatch_uid="results.rerank_withdrawn_entry_rounds"
        )
        entry_walkover.connect(receivers.walkover_rerank, dispatch_uid="results.walkover_rerank")
