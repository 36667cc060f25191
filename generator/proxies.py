"""Proxy settings from the environment: HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY."""

from __future__ import annotations

import urllib.request


def environment_proxies() -> dict[str, str]:
    """Return the proxy URL per scheme from HTTP_PROXY, HTTPS_PROXY and ALL_PROXY."""
    found = urllib.request.getproxies_environment()
    by_scheme = {scheme: found.get(scheme) or found.get("all") for scheme in ("http", "https")}
    return {scheme: url for scheme, url in by_scheme.items() if url}


def proxy_for(proxies: dict[str, str], scheme: str, host: str) -> str | None:
    """Return the proxy URL a request to host goes through, or None when NO_PROXY exempts it."""
    proxy = proxies.get(scheme)
    if proxy is None or urllib.request.proxy_bypass_environment(host):
        return None
    return proxy
