"""The catalogues are complete in every language, and the compiled files match them."""

import shutil
import subprocess

import pytest

from tests.paths import LOCALE

LANGUAGES = ("nb", "sv", "da")
MSGFMT = shutil.which("msgfmt")


@pytest.fixture(scope="module")
def msgfmt():
    if MSGFMT is None:
        pytest.fail("msgfmt (gettext) is needed to check the catalogues")
    return MSGFMT


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(msgfmt, language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"
    result = subprocess.run(
        [msgfmt, "--check", "--statistics", "-o", "/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "translated messages." in result.stderr
    assert "fuzzy" not in result.stderr and "untranslated" not in result.stderr, result.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_up_to_date(msgfmt, language, tmp_path):
    folder = LOCALE / language / "LC_MESSAGES"
    compiled = tmp_path / "django.mo"
    subprocess.run([msgfmt, "-o", str(compiled), str(folder / "django.po")], check=True)
    assert compiled.read_bytes() == (folder / "django.mo").read_bytes(), (
        f"locale/{language}: run `make messages` and commit the .mo file"
    )
