"""Evaluation of answer quality: question sets, test-then-train runs, baselines, reports.

from decisis.evaluation import evaluate, load_questions, summarise, to_table
outcomes = evaluate(load_questions("questions.jsonl"), ["adr-corpus"], orders=5)
print(to_table(summarise(outcomes)))
"""

from decisis.evaluation.questions import Question, load_questions, score
from decisis.evaluation.report import misses_table, to_json, to_table
from decisis.evaluation.run import SYSTEMS, Outcome, Summary, evaluate, misses, summarise

__all__ = [
    "SYSTEMS",
    "Outcome",
    "Question",
    "Summary",
    "evaluate",
    "load_questions",
    "misses",
    "misses_table",
    "score",
    "summarise",
    "to_json",
    "to_table",
]
