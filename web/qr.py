"""A link as a QR code, inline SVG (segno: no image file, no network)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=256)  # a seat's link is drawn on every host page: once is enough
def qr_svg(url: str, title: str) -> str:
    import segno  # deferred: only the host's pages draw one

    svg: str = segno.make(url, error="m").svg_inline(scale=4, title=title)
    return svg
