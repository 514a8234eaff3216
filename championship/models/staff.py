"""Who may do what in a championship (roles), and the staff's personal sign-in links."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from championship.models.championship import Championship
from core.people import person_name


class ChampionshipRole(models.Model):
    """A user's role in one championship."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        HEAD_JUDGE = "head_judge", _("Head judge")
        JUDGE = "judge", _("Judge")

    championship = models.ForeignKey(Championship, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="championship_roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["championship", "role", "user"]
        verbose_name = _("championship role")
        verbose_name_plural = _("championship roles")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "user", "role"], name="role_once_per_user"
            ),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "head_judge", "judge"]), name="role_known"
            ),
        ]

    def __str__(self):
        return f"{self.user} – {self.get_role_display()} ({self.championship})"


class SignInLink(models.Model):
    """A person's personal link that signs a phone in to one championship, without a password.

    The link's secret is derived from ``nonce`` and the site's ``SECRET_KEY``
    (``championship.staff_links``); the database keeps only its SHA-256 hash, so
    a copy of the database alone opens nothing.
    """

    championship = models.ForeignKey(
        Championship, on_delete=models.CASCADE, related_name="sign_in_links"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_in_links"
    )
    role = models.CharField(_("role"), max_length=20, choices=ChampionshipRole.Role.choices)
    nonce = models.CharField(max_length=32, unique=True, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["championship", "-created_at"]
        verbose_name = _("sign-in link")
        verbose_name_plural = _("sign-in links")
        constraints = [
            # A person has one working link at a time: a new one replaces the old.
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(revoked_at__isnull=True),
                name="sign_in_link_one_active_per_user",
            ),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "head_judge", "judge"]),
                name="sign_in_link_role_known",
            ),
        ]

    def __str__(self):
        return f"{self.name} – {self.get_role_display()} ({self.championship})"

    @property
    def name(self) -> str:
        return person_name(self.user)

    @property
    def active(self) -> bool:
        return self.revoked_at is None and self.user.is_active
