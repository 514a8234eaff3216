"""The house as a newcomer reads it: packages described, URLs found in one step, layers kept."""

import ast
import re
import tomllib

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver

from tests.paths import DOCS, ROOT

LAYERS = next(
    contract["layers"]
    for contract in tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"][
        "importlinter"
    ]["contracts"]
    if contract["id"] == "layers"
)


def test_every_package_opens_with_a_paragraph_saying_what_it_is():
    short = []
    for package in LAYERS:
        source = (ROOT / package / "__init__.py").read_text("utf-8")
        docstring = ast.get_docstring(ast.parse(source)) or ""
        if len(docstring.split()) < 25:
            short.append(package)
    assert not short, f"packages without a description in __init__.py: {short}"


def test_the_readme_and_the_architecture_list_the_layers_in_their_order():
    readme = (ROOT / "README.md").read_text("utf-8").split("## Layout", 1)[1]
    in_readme = [p for p in re.findall(r"^\| `([a-z_]+)/`", readme, re.M) if p in LAYERS]
    assert in_readme == LAYERS
    page = (DOCS / "architecture.md").read_text("utf-8")
    diagram = page.split("```", 2)[1]
    in_diagram = [p for p in re.findall(r"^([a-z_]+)/", diagram, re.M) if p in LAYERS]
    assert in_diagram == LAYERS
    owns = page.split("## What each package owns", 1)[1].split("\n## ", 1)[0]
    in_table = set(re.findall(r"^\| `([a-z_]+)/`", owns, re.M))
    assert in_table == set(LAYERS)


def _upward_relations(label: str) -> set[str]:
    below = LAYERS[LAYERS.index(label) :]
    found = set()
    for model in apps.get_app_config(label).get_models():
        for field in model._meta.get_fields():
            target = field.related_model
            if not field.is_relation or field.auto_created or target is None:
                continue
            app = target._meta.app_label
            if app in LAYERS and app not in below:
                found.add(f"{model.__name__}.{field.name}")
    return found


def test_the_one_relation_that_points_up_is_declared():
    """A seat names its entry: the one relation from the base to an app above it."""
    assert _upward_relations("championship") == {"Seat.entry"}
    page = (DOCS / "architecture.md").read_text("utf-8")
    assert "`Seat.entry`" in page


def _resolvers(patterns, found):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            module = pattern.urlconf_name
            name = module if isinstance(module, str) else getattr(module, "__name__", None)
            if name is not None:
                found.append(name)
            _resolvers(pattern.url_patterns, found)
    return found


def test_each_urlconf_is_included_once():
    included = [
        name
        for name in _resolvers(get_resolver().url_patterns, [])
        if not name.startswith("django")
    ]
    assert len(included) == len(set(included)), included
    project = {name.split(".")[0] for name in included} & set(LAYERS)
    assert project == {"api", "config", "control", "judging", "registration", "results"}


def _kwargs(patterns, prefix=""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _kwargs(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, set(re.findall(r"<(?:\w+:)?(\w+)>", route))


def test_a_championship_and_a_round_have_one_name_in_every_url():
    wrong = [
        route
        for route, names in _kwargs(get_resolver().url_patterns)
        if names & {"slug", "round", "heat", "category"}
    ]
    assert not wrong, wrong
