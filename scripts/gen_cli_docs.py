"""Write docs/cli.md from the Typer app; with --check, fail when the file is out of date.

python scripts/gen_cli_docs.py          # regenerate
python scripts/gen_cli_docs.py --check  # exit 1 if docs/cli.md differs from the app
"""

from __future__ import annotations

import sys
from pathlib import Path

from decisis.cli.docs import render_markdown

TARGET = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def main(argv: list[str]) -> int:
    text = render_markdown()
    if "--check" in argv:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is out of date: run python scripts/gen_cli_docs.py", file=sys.stderr)
            return 1
        print(f"{TARGET} is up to date")
        return 0
    TARGET.parent.mkdir(exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
