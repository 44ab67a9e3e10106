"""Text on the boards and the play page is readable: a contrast of at least 4.5:1 (WCAG AA).

Checked where a colour pair is written down: every seat's chip (``board.js``'s
``PALETTE`` and ``TEXT_ON``) and every rule of the boards' style sheets that
sets both a text colour and a plain background colour. Issue #32 found two
pairs at 3.3-4.3:1 (seat 2's white on green among them).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[3] / "static"
SHEETS = sorted((STATIC / "boards").glob("*.css"))
MINIMUM = 4.5


def luminance(colour: str) -> float:
    hex_digits = colour.lstrip("#")
    if len(hex_digits) == 3:
        hex_digits = "".join(c * 2 for c in hex_digits)
    channels = [int(hex_digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted([luminance(a), luminance(b)], reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_formula_gives_the_known_values() -> None:
    assert contrast("#000", "#fff") == pytest.approx(21)
    assert contrast("#fff", "#fff") == pytest.approx(1)
    assert contrast("#fff", "#009E73") == pytest.approx(3.42, abs=0.01)  # the pair #32 found


def js_list(source: str, name: str) -> list[str]:
    found = re.search(rf"var {name} = \[([^\]]*)\]", source)
    assert found, f"{name} not found in board.js"
    return re.findall(r'"(#[0-9A-Fa-f]{3,6})"', found.group(1))


def test_every_seat_chip_has_readable_text() -> None:
    source = (STATIC / "boards" / "board.js").read_text()
    palette, text_on = js_list(source, "PALETTE"), js_list(source, "TEXT_ON")
    assert len(palette) == len(text_on) == 5
    low = {bg: round(contrast(bg, fg), 2) for bg, fg in zip(palette, text_on, strict=True)}
    assert all(ratio >= MINIMUM for ratio in low.values()), low
    none = re.search(r'return "(#[0-9a-fA-F]{3,6})"; }\s*return PALETTE', source)
    assert none and contrast(none.group(1), "#fff") >= MINIMUM  # chance's and nobody's chip


def colour_pairs(css: str) -> list[tuple[str, str, str]]:
    """``(selector, text colour, background)`` of each rule that sets both as plain colours."""
    variables = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", css))
    pairs = []
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        body = re.sub(r"var\(--([\w-]+)\)", lambda m: variables.get(m.group(1), m.group(0)), body)
        text = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})\b", body)
        back = re.search(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6})\b", body)
        if text and back:
            pairs.append((selector.strip(), text.group(1), back.group(1)))
    return pairs


def test_the_pair_reader_finds_pairs() -> None:
    assert colour_pairs(".a { color: #fff; background: #000; } .b { color: #123; }") == [
        (".a", "#fff", "#000")
    ]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_every_colour_pair_of_the_boards_style_sheets_is_readable(sheet: Path) -> None:
    low = [
        (selector, text, back, round(contrast(text, back), 2))
        for selector, text, back in colour_pairs(sheet.read_text())
        if contrast(text, back) < MINIMUM
    ]
    assert low == []
