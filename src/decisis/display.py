"""Text shown to people with its invisible controls made visible: one table for every door.

A label or rationale comes from whoever wrote it. Terminal controls in it could move the
cursor, clear the screen or retitle the window; bidirectional controls (embeddings,
overrides, isolates, marks) reorder what follows on the line, so a label could show one
text and hold another (CVE-2021-42574). The CLI shows both kinds as escapes; the web pages,
where HTML escaping already disarms markup, show the bidirectional ones.
"""

from __future__ import annotations

__all__ = ["BIDI_CONTROLS", "show_bidi", "show_controls"]

BIDI_CONTROLS = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))

# C0 controls, DEL and C1 controls (``\x9b`` is CSI to many terminals), shown as escapes.
# Tab is left to the renderer, which turns it into spaces.
_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0)) if code != 9}
_CONTROLS.update({0x0A: "\\n", 0x0D: "\\r"})
_BIDI = {code: f"\\u{code:04x}" for code in BIDI_CONTROLS}
_ALL = {**_CONTROLS, **_BIDI}
_ALL_BUT_LINES = {code: text for code, text in _ALL.items() if code != 0x0A}


def show_controls(text: str, *, lines: bool = False) -> str:
    """``text`` with each control character shown as its escape (``\\x1b``, ``\\r``,
    ``\\u202e``); a line break too (``\\n``), unless ``lines`` keeps it."""
    return text.translate(_ALL_BUT_LINES if lines else _ALL)


def show_bidi(text: str) -> str:
    """``text`` with each bidirectional control shown as its escape (``\\u202e``)."""
    return text.translate(_BIDI)
