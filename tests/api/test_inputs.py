"""A capture's input is validated with fields copied once per thread (``FieldsOncePerThread``)."""

import threading
import uuid

import pytest
from django.utils import translation
from rest_framework import serializers

from api.inputs import CaptureInputSerializer, FieldsOncePerThread

GOOD = {
    "id": str(uuid.uuid4()),
    "round": "individual-final",
    "entry": "e1",
    "kind": "finish",
    "at": "2026-05-01T10:00:00Z",
    "missing_lost": 2,
    "adjacent_missing": True,
}
BAD = {"id": "not-a-uuid", "round": "no spaces", "kind": "nap", "missing_found": -1, "time": "1:2"}


class Fresh(CaptureInputSerializer):
    """The same fields, copied for every instance as DRF does."""

    def get_fields(self):
        return serializers.Serializer.get_fields(self)


def outcome(serializer_class, data, language="en"):
    with translation.override(language):
        serializer = serializer_class(data=data)
        valid = serializer.is_valid()
        return valid, dict(serializer.validated_data if valid else serializer.errors)


@pytest.mark.parametrize("language", ["en", "nb", "sv", "da"])
def test_validation_in_turn_is_as_with_fresh_fields(language):
    for data in (GOOD, BAD, GOOD, {}, BAD, {**GOOD, "time": "1:00:00", "kind": "correction"}):
        assert outcome(CaptureInputSerializer, data, language) == outcome(Fresh, data, language)
    assert outcome(CaptureInputSerializer, BAD, language)[0] is False


def test_each_instance_binds_the_threads_copies_to_itself():
    first, second = CaptureInputSerializer(data=GOOD), CaptureInputSerializer(data=BAD)
    assert first.fields["id"] is not CaptureInputSerializer._declared_fields["id"]
    assert first.fields["id"].parent is first
    assert second.fields["id"] is first.fields["id"] and first.fields["id"].parent is second
    assert second.fields["id"].source == "id"


def test_another_thread_has_copies_of_its_own():
    mine = CaptureInputSerializer(data=GOOD).fields["id"]
    theirs = []
    thread = threading.Thread(
        target=lambda: theirs.append(CaptureInputSerializer(data=GOOD).fields["id"])
    )
    thread.start()
    thread.join()
    assert theirs[0] is not mine


def test_a_field_with_a_source_is_refused():
    class WithSource(FieldsOncePerThread, serializers.Serializer):
        name = serializers.CharField(source="title")

    with pytest.raises(TypeError, match="source"):
        WithSource(data={}).fields  # noqa: B018


def test_messages_follow_each_requests_language():
    for language in ("en", "nb", "en", "da", "nb"):
        assert outcome(CaptureInputSerializer, BAD, language) == outcome(Fresh, BAD, language)
    with translation.override("nb"):
        errors = CaptureInputSerializer(data=BAD)
        errors.is_valid()
        nb = str(errors.errors["missing_found"][0])
    with translation.override("en"):
        errors = CaptureInputSerializer(data=BAD)
        errors.is_valid()
        assert str(errors.errors["missing_found"][0]) != nb
