"""``model-judged``: a language model, asked of two records of one folder, says whether the
later one replaces the earlier. Off unless the user configures a model.

The rules that read words find replacements a record states or names; what a later record
implies ("We will use Karpenter as the primary scaling solution" after a record on EKS
Fargate) needs reading for meaning. This rule asks a model about the pairs most worth asking:
for each record, the earlier records of its folder that share the most distinctive terms with
it (``PAIRS_PER_RECORD``), unless a record already states the pair. Its links are candidates
with their own trust, as any rule's: a correction moves that trust, and the walk believes a
link only at the trust's mean. The engine never needs it.

    from decisis.adr.link.rules.model import use_model
    from decisis.got.clients import make_client
    use_model(make_client("openai", "my-model", base_url="http://127.0.0.1:8000/v1"))

``decisis ingest DIR --model URL`` does the same.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from decisis.adr.link.rules.base import Proposal, RuleContext, Trust, register, unregister
from decisis.adr.read.records import AdrRecord
from decisis.got.messages import ChatMessage
from decisis.model import LinkState

if TYPE_CHECKING:
    from decisis.got.runner import LLMClient

__all__ = ["MODEL_RULE", "PAIRS_PER_RECORD", "ModelRule", "forget_model", "use_model"]

MODEL_RULE = "model-judged"
PAIRS_PER_RECORD = 3  # the earlier records of a folder a model is asked about, per record
CONCURRENCY = 4  # model calls at once
MAX_RECORD_CHARS = 1500  # of each record's decision, in a prompt
_SYSTEM = (
    "You read architecture decision records of one team. Given an earlier and a later record, "
    "say whether the later one replaces what the earlier one decided. Answer with one word, "
    "REPLACES, PARTLY (it replaces part of it) or NO, then one sentence saying why."
)
_VERDICT = re.compile(r"\b(REPLACES|PARTLY|NO)\b", re.IGNORECASE)


def _describe(record: AdrRecord) -> str:
    when = record.date.isoformat() if record.date else "undated"
    decision = " ".join((record.decision or record.summary).split())[:MAX_RECORD_CHARS]
    return f"{record.key} ({when}, {record.status.value}): {record.title}\nDecision: {decision}"


def _prompt(old: AdrRecord, new: AdrRecord) -> list[ChatMessage]:
    return [
        ChatMessage("system", _SYSTEM),
        ChatMessage(
            "user",
            f"Earlier record:\n{_describe(old)}\n\nLater record:\n{_describe(new)}\n\n"
            "Does the later record replace what the earlier one decided?",
        ),
    ]


def verdict(text: str) -> str | None:
    """``"full"``, ``"partial"`` or ``"none"`` from a model's answer, or ``None`` when it gives
    none of the three words."""
    m = _VERDICT.search(text)
    if m is None:
        return None
    return {"replaces": "full", "partly": "partial", "no": "none"}[m.group(1).lower()]


class ModelRule:
    """The rule, over one model client."""

    name = MODEL_RULE
    prior = Trust(3.0, 2.0)
    description = "a language model says the later of two records of a folder replaces the earlier"

    def __init__(self, client: LLMClient, pairs_per_record: int = PAIRS_PER_RECORD) -> None:
        self.client = client
        self.pairs_per_record = pairs_per_record
        self.asked = 0  # model calls made, for people and tests
        self.failed = 0  # calls that failed or gave no verdict: they propose nothing

    def pairs(self, ctx: RuleContext) -> list[tuple[AdrRecord, AdrRecord]]:
        """(earlier, later) pairs worth asking: for each record, the earlier records of its
        folder sharing the most distinctive terms with it, that no record states."""
        stated = {
            (link.target_key, record.key)
            if link.role == "predecessor"
            else (record.key, link.target_key)
            for record in ctx.records
            for link in record.links
            if link.kind == "status" or link.stated
        }
        out: list[tuple[AdrRecord, AdrRecord]] = []
        for record in ctx.records:
            own = ctx.index.slot(record.key)
            if own is None:
                continue
            scored = []
            for other in ctx.written_before(record):
                slot = ctx.index.slot(other.key)
                if slot is not None and other.key != record.key:
                    scored.append((ctx.index.similarity(own, slot), other.key, other))
            scored.sort(key=lambda s: (-s[0], s[1]))
            for score, key, other in scored[: self.pairs_per_record]:
                if score > 0 and (key, record.key) not in stated:
                    out.append((other, record))
        return out

    async def _ask(
        self, pairs: Sequence[tuple[AdrRecord, AdrRecord]]
    ) -> list[tuple[AdrRecord, AdrRecord, str | None, str]]:
        gate = asyncio.Semaphore(CONCURRENCY)

        async def one(
            old: AdrRecord, new: AdrRecord
        ) -> tuple[AdrRecord, AdrRecord, str | None, str]:
            async with gate:
                try:
                    reply = await self.client.complete(_prompt(old, new))
                except Exception as exc:  # one failed call must not stop an ingest
                    return old, new, None, f"the model call failed: {exc}"
            return old, new, verdict(reply.text), " ".join(reply.text.split())[:300]

        return await asyncio.gather(*(one(old, new) for old, new in pairs))

    def propose(self, ctx: RuleContext) -> Iterable[Proposal]:
        pairs = self.pairs(ctx)
        if not pairs:
            return []
        answers = asyncio.run(self._ask(pairs))
        self.asked += len(answers)
        out = []
        for old, new, said, text in answers:
            if said is None:
                self.failed += 1
            elif said in ("full", "partial"):
                evidence = f"the model said: {text}"
                out.append(
                    Proposal(
                        old.key,
                        new.key,
                        MODEL_RULE,
                        LinkState.CANDIDATE,
                        evidence,
                        said == "partial",
                    )
                )
        return out


def use_model(client: LLMClient, pairs_per_record: int = PAIRS_PER_RECORD) -> ModelRule:
    """Turn the rule on, over ``client``, for the ingests of this process."""
    rule = ModelRule(client, pairs_per_record)
    register(rule)
    return rule


def forget_model() -> None:
    """Turn the rule off again."""
    unregister(MODEL_RULE)
