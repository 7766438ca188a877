"""The few named checks on a question's form, in the order they apply.

Each is named in ``AnswerSettings.checks``; removing a name turns it off, and
docs/benchmarks.md gives the measured effect of each on the five development corpora.

- ``named``: a question naming a record by key or number ("Is ADR-22 still in force?")
  starts there whatever its words match, asked about the record whole; a number several
  teams' records have, with no team named, is asked back.
- ``team``: a question naming one team ("… on the Payments Hub", "the MP team") starts among
  that team's records when any of them shares its words, whatever another team's record
  matches: it asks about that team's decisions.
- ``forgotten``: a question nearly the same as one corrected to "no record" has none.
- ``scope``: a record that says it leaves the question's subject out ("This record does not
  cover the disaster recovery environments") is not where the question starts; when every
  leading record says so, there is no answer, and the answer names what they left out.
- ``form``: a question asking for a kind of value (how long, which version, which region,
  what uptime) or offering a choice ("A or B?") is not answered by a record that states no
  such value or names neither side: neither the best start nor the record its walk ends at
  (a later record that replaced it may state what the older one did not).
- ``retired``: a walk that ends at a record marked superseded or deprecated, with no later
  record saying what replaced it, answers nothing: nobody should follow that record today,
  and the answer says which record it found and how it is marked. A question naming the
  record, or one a correction vouches for, is still answered with it.
"""

from __future__ import annotations

from decisis.adr.answer.choices import names_a_choice
from decisis.adr.answer.question import Question
from decisis.adr.answer.settings import CHECK_NAMES
from decisis.adr.link.view import AdrView

__all__ = ["CHECKS", "SCOPE_CHECKED", "form_unmet"]

CHECKS = CHECK_NAMES
SCOPE_CHECKED = 3  # the leading starts checked for leaving the subject out


def form_unmet(view: AdrView, question: Question, key: str) -> str | None:
    """Why record ``key`` cannot give what the question's form asks for, or ``None``."""
    if question.amount is not None and not question.amount.stated_in(view.text_of(key)):
        return f"says nothing of {question.amount.name}"
    for first, second in question.choices:
        if not names_a_choice((first, second), view.index, key):
            return f'names neither "{first}" nor "{second}"'
    return None
