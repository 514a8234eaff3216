"""The staff and their sign-in links: the organiser's page, the badges, the link itself."""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from championship import cards, staff_links
from championship.middleware import activate
from championship.models import ChampionshipRole, SignInLink
from championship.permissions import organiser_required
from championship.staff_forms import StaffAddForm
from core import actions

Role = ChampionshipRole.Role

STAFF = "championship/staff.html"
BADGES = "championship/staff_badges.html"
SIGN_IN = "championship/staff_sign_in.html"
BADGE_SIZES = ("a6", "a7")
# Signing in with a link checks no password: the model backend only loads the user.
BACKEND = "django.contrib.auth.backends.ModelBackend"
# What django-axes writes in its access log for the path of a login by link: not the token.
LOGGED_PATH = "/s/…/"


def _staff_url(championship) -> str:
    return reverse("manage:staff", kwargs={"championship_slug": championship.slug})


def _link(championship, pk: int) -> SignInLink:
    return get_object_or_404(
        SignInLink.objects.select_related("user", "championship"),
        championship=championship,
        pk=pk,
    )


@never_cache
@require_http_methods(["GET", "POST"])
@organiser_required
def staff(request, championship):
    """List the championship's staff with their links; add a person."""
    form = StaffAddForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            link = None

            def action():
                nonlocal link
                link = staff_links.link_create(
                    championship=championship,
                    name=data["name"],
                    email=data["email"],
                    role=data["role"],
                    by=request.user,
                    send=data["send"],
                )
                if data["send"] and data["email"]:
                    text = _("%(name)s is added; the sign-in link is on its way to %(email)s.")
                else:
                    text = _("%(name)s is added: print the badge, or send the link.")
                return text % {"name": link.name, "email": data["email"]}

            if actions.run(request, action, form=form):
                return redirect(f"{_staff_url(championship)}#person-{link.pk}")
        messages.error(request, _("Nobody added: see the form."))
    links = staff_links.latest_links(championship)
    with_links = {link.user_id for link in links}
    others = (
        championship.roles.exclude(user_id__in=with_links)
        .select_related("user")
        .order_by("role", "user__username")
    )
    for link in links:
        link.url = staff_links.sign_in_url(link) if link.active else None
    active = sum(1 for link in links if link.active)
    return render(
        request, STAFF, {"form": form, "links": links, "active": active, "others": others}
    )


@never_cache
@require_GET
@organiser_required
def badges(request, championship, link=None):
    """Show printable badges with each person's sign-in QR code: everyone's, or one person's."""
    size = request.GET.get("size", "a6")
    if size not in BADGE_SIZES:
        size = "a6"
    if link is None:
        chosen = [person for person in staff_links.latest_links(championship) if person.active]
    else:
        chosen = [_link(championship, link)]
    badge_list, lost = [], []
    # The badges are read at the venue: in the championship's language, not the organiser's.
    with translation.override(championship.language):
        for person in chosen:
            url = staff_links.sign_in_url(person) if person.active else None
            if url is None:
                lost.append(person)
                continue
            badge_list.append(
                {
                    "link": person,
                    "role": Role(person.role).label,
                    "qr": cards.qr_svg(
                        url, label=_("Sign-in code of %(name)s") % {"name": person.name}
                    ),
                }
            )
    return render(
        request,
        BADGES,
        {
            "badges": badge_list,
            "lost": lost,
            "one": link is not None,
            "size": size,
            "sizes": BADGE_SIZES,
        },
    )


@require_POST
@organiser_required
def revoke(request, championship, link):
    """Revoke a person's link: it stops at once, and their phones are signed out."""
    found = _link(championship, link)
    staff_links.link_revoke(link=found, by=request.user)
    messages.success(
        request,
        _("The link of %(name)s is revoked: it no longer works, and their phones are signed out.")
        % {"name": found.name},
    )
    return redirect(f"{_staff_url(championship)}#person-{found.pk}")


@require_POST
@organiser_required
def renew(request, championship, link):
    """Give a person a new link (a lost badge): the old one stops."""
    found = _link(championship, link)
    send = bool(found.user.email) and request.POST.get("send") == "1"
    new = staff_links.link_renew(link=found, by=request.user, send=send)
    if send:
        text = _("%(name)s has a new link, on its way to %(email)s; the old one no longer works.")
    else:
        text = _("%(name)s has a new link: print the badge again. The old one no longer works.")
    messages.success(request, text % {"name": new.name, "email": new.user.email})
    return redirect(f"{_staff_url(championship)}#person-{new.pk}")


@require_POST
@organiser_required
def send(request, championship, link):
    """Send a person their link by e-mail again."""
    found = _link(championship, link)

    def action():
        staff_links.link_send(link=found)
        return _("The link is on its way to %(email)s.") % {"email": found.user.email}

    actions.run(request, action)
    return redirect(f"{_staff_url(championship)}#person-{found.pk}")


def _sign_in_page(request, context: dict, status: int = 200):
    response = render(request, SIGN_IN, context, status=status)
    # The address holds the link's secret: no other site learns it from a Referer. Not
    # "no-referrer", which makes the browser send "Origin: null" with the page's forms (the
    # button, the language switcher), and Django's CSRF check refuses them.
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def _refuse(request, link: SignInLink | None, status: int):
    return _sign_in_page(request, {"refused": True, "link": link}, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def sign_in(request, token):
    """Show who a sign-in link signs in as, with a button; the button signs this browser in.

    Opening the link (GET) signs nobody in: a link in an image, a prefetching
    mail scanner or a stranger's page cannot sign a browser into an account
    without the visitor tapping the button, which posts the form (with its CSRF
    token). Once signed in, the person lands on their first screen; a browser
    signed in as them already goes straight there.
    """
    link = staff_links.link_for_token(token)
    if link is None:
        return _refuse(request, None, 404)
    activate(request, link.championship)
    if not link.active:
        return _refuse(request, link, 410)
    if request.method == "GET":
        if request.user.is_authenticated and request.user.pk == link.user_id:
            return redirect(staff_links.landing_url(link))
        return _sign_in_page(request, {"link": link, "role": Role(link.role).label})
    staff_links.link_use(link=link)
    AxesProxyHandler.update_request(request)
    request.axes_path_info = LOGGED_PATH
    login(request, link.user, backend=BACKEND)
    messages.success(
        request,
        _("Signed in as %(name)s (%(role)s, %(championship)s).")
        % {
            "name": link.name,
            "role": Role(link.role).label,
            "championship": link.championship.name,
        },
    )
    return redirect(staff_links.landing_url(link))
