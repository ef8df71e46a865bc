"""Signed guide keys (stored_walks/read.py): exact keys for a fixed clock, expiry, another token, tampering, and
the links that carry them."""

from __future__ import annotations

import hashlib
import hmac

from pydantic import SecretStr

from graphwalk_neo4j.settings import Settings
from graphwalk_neo4j.stored_walks.read import (
    GUIDE_KEY_TTL_S,
    browser_line,
    guide_key,
    guide_key_valid,
    guide_url,
    settings_guide_line,
)

TOKEN = "s3cret-token-for-tests-0123456789"
NOW = 1_790_000_000.0


def test_a_key_is_the_expiry_and_its_hmac() -> None:
    expiry = int(NOW) + GUIDE_KEY_TTL_S
    signature = hmac.new(TOKEN.encode(), f"graphwalk-guide|{expiry}".encode(), hashlib.sha256).hexdigest()
    assert guide_key(TOKEN, now=NOW) == f"{expiry}.{signature}"
    assert GUIDE_KEY_TTL_S == 43_200


def test_valid_only_under_its_token_and_until_it_expires() -> None:
    key = guide_key(TOKEN, now=NOW)
    assert guide_key_valid(TOKEN, key, now=NOW)
    assert guide_key_valid(TOKEN, key, now=NOW + GUIDE_KEY_TTL_S)
    assert not guide_key_valid(TOKEN, key, now=NOW + GUIDE_KEY_TTL_S + 1)
    assert not guide_key_valid("another-token-of-the-same-length-xx", key, now=NOW)
    expiry, signature = key.split(".")
    later = f"{int(expiry) + 3600}.{signature}"  # a pushed-out expiry breaks the signature
    assert not guide_key_valid(TOKEN, later, now=NOW)
    for bad in ("", ".", expiry, f"{expiry}.", f"{expiry}.{signature[:-1]}", f"x{key}", f"{expiry}.{'é' * 64}"):
        assert not guide_key_valid(TOKEN, bad, now=NOW), bad


def test_links_carry_the_key() -> None:
    key = guide_key(TOKEN, now=NOW)
    assert guide_url("http://127.0.0.1:8765", key=key) == f"http://localhost:8765/guide?key={key}"
    assert guide_url("http://127.0.0.1:8765", "w/1", key=key) == f"http://localhost:8765/guide/walk/w%2F1?key={key}"
    assert browser_line("w1", "http://127.0.0.1:8765") == ":guide http://localhost:8765/guide/walk/w1"
    line = settings_guide_line(Settings(service_token=SecretStr(TOKEN)), "w1")
    prefix = ":guide http://localhost:8765/guide/walk/w1?key="
    assert line.startswith(prefix)
    assert guide_key_valid(TOKEN, line.removeprefix(prefix))
    assert settings_guide_line(Settings()) == ":guide http://localhost:8765/guide"
