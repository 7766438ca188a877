"""Why an answer is what it is, in words for people: where it started, on what evidence, and
the rules behind each link it followed (``decisis ask --why``, the web page's ask form)."""

from __future__ import annotations

from decisis.adr.answer import Answer
from decisis.search.text import as_written

__all__ = ["why_lines"]

_VOTERS = {
    "terms": "its words",
    "sections": "a section's words",
    "vectors": "its meaning",
    "fulltext": "full-text search",
    "questions": "a corrected question",
}
SENTENCE_SHOWN = 0.75  # a sentence this close to the question in meaning is quoted


def why_lines(answer: Answer) -> list[str]:
    """Where the answer started and why, and each link it followed, for people (nothing
    when it started nowhere: its text says why)."""
    found = answer.evidence
    if not found:
        return []
    if "named" in found["votes"]:
        return [f"why: started at {found['start']}: the question names it", *_steps(answer)]
    votes = ", ".join(f"{_VOTERS.get(name, name)} #{rank}" for name, rank in found["votes"].items())
    held = f"; only it says {', '.join(found['held_only'])}" if found.get("held_only") else ""
    cosine = f"; meaning {found['cosine']:.2f}" if "cosine" in found else ""
    if "probability" in found:
        cosine += f"; answers it with probability {found['probability']:.2f}"
    lines = [
        f"why: started at {found['start']} ({votes}): it holds {found['coverage']:.0%} of the "
        f"question's distinctive words and {found['subject']:.0%} of its subject{cosine}{held}"
    ]
    said = found.get("sentence")
    # the sentence that says nearly what was asked, unless the answer already shows it
    if found.get("sentence_cosine", 0.0) >= SENTENCE_SHOWN and said and said not in answer.text:
        lines.append(f'  it says nearly that ({found["sentence_cosine"]:.2f}): "{said}"')
    if found.get("remembered"):
        lines.append(f'  a question like it was corrected before: "{found["remembered"]}"')
    return lines + _steps(answer)


def _steps(answer: Answer) -> list[str]:
    """Each link the answer followed, the rules that proposed it, and what the question
    named that the link says was replaced (in the question's own words)."""
    lines = []
    for step in answer.replaced:
        line = f"  {step['key']} -> {step['by']}: {', '.join(step['rules'])}"
        if step.get("named"):
            said = ", ".join(f'"{as_written(answer.question, n)}"' for n in step["named"])
            line += f" (the question names {said})"
        lines.append(line)
    return lines
