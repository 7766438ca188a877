"""Write docs/tools.md (the agent and MCP tool list) from the tool specs; --check fails on drift.

python scripts/gen_tool_docs.py          # regenerate
python scripts/gen_tool_docs.py --check  # exit 1 if docs/tools.md differs from the code
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from decisis.agent.tools import TOOLS

TARGET = Path(__file__).resolve().parent.parent / "docs" / "tools.md"


def render() -> str:
    lines = [
        "# Decision tools",
        "",
        "<!-- Generated from decisis.agent.tools by `python scripts/gen_tool_docs.py`;"
        " do not edit by hand. -->",
        "",
        "The same tools are served by `decisis mcp` and handed to OpenAI and Anthropic models",
        "by `decisis.agent.openai_tools()` (Chat Completions), `responses_tools()` (Responses)",
        "and `anthropic_tools()` (Messages). `dispatch(toolbox, call)` runs one call of any",
        "of them; `dispatch_all(toolbox, calls)` runs one turn's calls in order and returns",
        "what to append: a tool message or `function_call_output` item per call, and",
        "Anthropic's results as the one user message that API wants per turn. A bad call",
        "comes back as a tool error that says what was wrong and what is allowed.",
        "",
    ]
    for spec in TOOLS:
        schema = json.dumps(spec.schema, indent=2, sort_keys=True)
        lines += [f"## `{spec.name}`", "", spec.description.strip(), ""]
        if spec.when:
            lines += [f"When: {spec.when}.", ""]
        lines += ["```json", schema, "```", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is out of date: run python scripts/gen_tool_docs.py", file=sys.stderr)
            return 1
        print(f"{TARGET} is up to date")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
