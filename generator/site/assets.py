"""Assets: the site's icon, the [site] logo of the root's static/ or the packaged default."""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from importlib import resources

from generator.core.config import SiteSettings
from generator.core.errors import PublishError

MAX_LOGO_BYTES = 1024 * 1024
TYPES = {
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Icon:
    """The site's icon as a file of the site: its name there, its type and its bytes."""

    name: str
    type: str
    data: bytes

    @property
    def sizes(self) -> str:
        """Return the web manifest's sizes of the icon ("any" for a drawing, "WxH" for a PNG)."""
        if self.type == "image/png" and self.data[:8] == PNG_SIGNATURE and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return f"{width}x{height}"
        return "any"

    @property
    def key(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def icon_name(site: SiteSettings) -> tuple[str, str]:
    """Return the icon's file name on the site and its type, from the settings alone."""
    suffix = "." + site.logo.rpartition(".")[2].lower() if site.logo else ".svg"
    return f"favicon{suffix}", TYPES[suffix]


def read_icon(site: SiteSettings, static: dict[str, bytes]) -> Icon:
    """Return the [site] logo among the site's static files, or the packaged favicon."""
    name, kind = icon_name(site)
    if site.logo is None:
        data = resources.files("generator").joinpath("templates/favicon.svg").read_bytes()
        return Icon(name, kind, data)
    data = static[site.logo]  # the theme has refused a logo that static/ does not hold
    if len(data) > MAX_LOGO_BYTES:
        raise PublishError(
            f"is larger than {MAX_LOGO_BYTES // 1024} KB; give a smaller icon",
            path=f"static/{site.logo}",
            field="site.logo",
            rule="site.logo",
        )
    if kind == "image/png" and data[:8] != PNG_SIGNATURE:
        raise PublishError(
            "is not a PNG image", path=f"static/{site.logo}", field="site.logo", rule="site.logo"
        )
    return Icon(name, kind, data)
