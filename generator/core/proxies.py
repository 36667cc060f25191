"""Proxy settings from the environment: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY."""

from __future__ import annotations

import urllib.request
from collections.abc import Mapping
from typing import TypeVar

Via = TypeVar("Via")


def environment_proxies() -> dict[str, str]:
    """Return the proxy URL per scheme from HTTP_PROXY, HTTPS_PROXY and ALL_PROXY."""
    found = urllib.request.getproxies_environment()
    by_scheme = {scheme: found.get(scheme) or found.get("all") for scheme in ("http", "https")}
    return {scheme: url for scheme, url in by_scheme.items() if url}


def proxy_for(proxies: Mapping[str, Via], scheme: str, host: str) -> Via | None:
    """Return the scheme's proxy (URL or client) for host, or None when NO_PROXY exempts it."""
    proxy = proxies.get(scheme)
    if proxy is None or urllib.request.proxy_bypass_environment(host):
        return None
    return proxy
