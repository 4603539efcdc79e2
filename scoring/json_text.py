"""JSON text as `json.dumps(value, ensure_ascii=False)` writes it, kept on the values that are made once and
written in answer after answer (a fan with its evidence, a set of a reading, a situation): `mcr score --jsonl`
writes each answer from these pieces instead of encoding the whole answer again."""

from __future__ import annotations

import json
from functools import cached_property
from json.encoder import encode_basestring
from typing import Any

# What `json.dumps(value, ensure_ascii=False)` makes for each call, made once.
dumps = json.JSONEncoder(ensure_ascii=False).encode
"""The one JSON text form of the scorer's answers: ``json.dumps`` with non-ASCII text kept as it is."""
string = encode_basestring
"""``dumps`` of a string, without asking what the value is."""
BOOLEANS = ("false", "true")


class KeptJson:
    """For a frozen value with ``to_json()``: ``json_text``, its text, is worked out once per value."""

    def to_json(self) -> Any:
        raise NotImplementedError

    @cached_property
    def json_text(self) -> str:
        return dumps(self.to_json())
