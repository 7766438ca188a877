"""The ``Graph`` facade: the verbs people and agents use, composed from store calls.

It is thin on purpose: it builds validated records and ledger drafts, hands them
to the store in one ``append`` (one transaction), and turns short ids into full
ones. Every query runs in the store.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from decisis.contention import DEFAULT_WRITES, WritePolicy, written_once
from decisis.errors import Conflict, InvalidInput
from decisis.model import (
    CAUSAL_EDGE_TYPES,
    EDGE_MUTABLE_FIELDS,
    NODE_MUTABLE_FIELDS,
    Edge,
    EdgeType,
    Event,
    EventDraft,
    LinkState,
    Node,
    NodeStatus,
    NodeType,
    format_time,
    new_id,
    parse_time,
    utc_now,
)
from decisis.model import events as drafts
from decisis.model.enums import AgentType, EventKind
from decisis.model.ids import is_id
from decisis.model.provenance import Provenance, provenance_payload
from decisis.model.validation import (
    MAX_OPTIONS,
    check_confidence,
    check_enum,
    check_graph_name,
    check_note,
    check_reason,
)
from decisis.search.precedents import Precedent
from decisis.search.precedents import precedents as find_precedents
from decisis.stores import DEFAULT_MAX_DEPTH, Direction, Reached, SearchHit, Store, open_store
from decisis.stores.checks import check_edge_types
from decisis.writer import DirectWriter, Writer

if TYPE_CHECKING:
    from decisis.checkpoints import KeySource
    from decisis.files import PathDecisions
    from decisis.plans import CheckSettings, PlanCheck
    from decisis.stale import Stale
    from decisis.stores.replay import VerifyReport

# The names a front door needs besides the facade's own (the types it prints, the store it
# opens): re-exported here so ``cli``, ``web`` and ``mcp_server`` never reach into ``stores``.
__all__ = [
    "DEFAULT_MAX_DEPTH",
    "GoalTree",
    "Graph",
    "Reached",
    "SearchHit",
    "Standing",
    "Store",
    "VerifyReport",
    "WritePolicy",
    "new_key",
    "open",
    "open_store",
    "written_once",
]

if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """``VerifyReport`` on first use: ``stores.replay`` is not imported until a verify."""
        if name == "VerifyReport":
            from decisis.stores.replay import VerifyReport

            return VerifyReport
        raise AttributeError(f"module 'decisis.graph' has no attribute {name!r}")


DEFAULT_GRAPH = "default"
# ``current`` follows a rule-proposed supersession whose confidences add up to this: more
# likely than not. A stated or confirmed one is always followed, a rejected one never.
BELIEVED = 0.5
_CAUSAL = sorted(CAUSAL_EDGE_TYPES)
_SUPERSEDES = [EdgeType.SUPERSEDES]
_VERDICTS = (LinkState.CONFIRMED, LinkState.REJECTED)


@dataclass(frozen=True, slots=True)
class Standing:
    """What stands now for a node: the nodes that replaced it last, and the chains to them.

    ``standing`` has one node when the node was never superseded (the node itself)
    or was replaced by one successor; more when it was split between several.
    """

    node: Node
    standing: list[Node]
    chains: list[list[Node]]

    @property
    def superseded(self) -> bool:
        return self.standing != [self.node]


@dataclass(frozen=True, slots=True)
class GoalTree:
    """An active goal and its immediate children, each with the edge that joins them."""

    goal: Node
    children: list[tuple[Edge, Node]]


def _check_name(name: str) -> str:
    return check_graph_name(name)


class Graph:
    """One named graph in a store. ``decisis.open(url, graph=...)`` makes one."""

    def __init__(
        self,
        store: Store,
        name: str = DEFAULT_GRAPH,
        *,
        agent: str | None = None,
        as_of: datetime | None = None,
        owns_store: bool = False,
        writes: WritePolicy = DEFAULT_WRITES,
        writer: Writer | None = None,
    ) -> None:
        self.store = store
        self.name = _check_name(name)
        self.agent = agent
        self.as_of = as_of
        self.writes = writes  # how read-modify-writes land beside other writers
        self._owns_store = owns_store
        # what the verbs write through (``decisis.writer``): the store at once, or a batch
        self._writer: Writer = writer if writer is not None else DirectWriter(store, self.name)

    @property
    def written(self) -> list[Event]:
        """The events a batch landed when its block ended (``[]`` before, and for a graph
        whose verbs write at once: each verb returns what it wrote)."""
        return self._writer.written

    # -- lifecycle -------------------------------------------------------------
    def close(self) -> None:
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Self:
        self._writer.enter()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._writer.exit(exc_type is not None)
        self.close()

    def __repr__(self) -> str:
        waiting = self._writer.pending()
        if waiting is not None:
            return f"Batch({self.store.url!r}, {self.name!r}, {waiting} changes)"
        when = f", as_of={format_time(self.as_of)}" if self.as_of else ""
        return f"Graph({self.store.url!r}, {self.name!r}{when})"

    # -- ids ---------------------------------------------------------------------
    def resolve(self, ref: str) -> str:
        """The full id for a full id or a unique prefix of one (any case)."""
        if not isinstance(ref, str) or not ref.strip():
            raise InvalidInput("id", f"{ref!r} is not an id", "an id or a unique prefix of one")
        return self._writer.resolve(ref)

    def _endpoint(self, ref: str) -> str:
        """``resolve`` for the end of an edge about to be written: a whole id is taken as
        it is, since the append itself refuses an edge to a missing or retired node (same
        ``NotFound``, nothing written), which saves a store round trip per write."""
        if isinstance(ref, str) and is_id(ref.strip().lower()):
            return ref.strip().lower()
        return self.resolve(ref)

    def short_ids(self, ids: Sequence[str]) -> dict[str, str]:
        return self._writer.short_ids(ids)

    # -- writes -------------------------------------------------------------------
    def _append(self, *changes: EventDraft) -> list[Event]:
        self._check_writable()
        return self._writer.append(changes)

    def _check_writable(self) -> None:
        if self.as_of is not None:
            raise Conflict(f"this view of the graph as of {format_time(self.as_of)} is read-only")

    def batch(self) -> Graph:
        """Many writes in one transaction: ``with graph.batch() as batch:``, then write
        through ``batch`` with the usual verbs. Everything lands in one ``append`` when the
        block ends (one ledger segment), or nothing if it raises. See ``decisis.batch``.
        The batch is this graph over a buffered writer; on a batch, ``batch()`` is the batch
        again, for a nested block whose writes are dropped alone if it raises."""
        from decisis.batch import BufferedWriter

        if isinstance(self._writer, BufferedWriter):
            return self
        self._check_writable()
        buffered = BufferedWriter(self._writer, self.name)
        return Graph(self.store, self.name, agent=self.agent, writes=self.writes, writer=buffered)

    def _new_node(
        self,
        type: NodeType | str,
        label: str,
        at: datetime,
        *,
        status: NodeStatus | str = NodeStatus.ACTIVE,
        confidence: float | None = None,
        rationale: str | None = None,
        metadata: dict[str, Any] | None = None,
        agent: str | None = None,
        valid_from: datetime | str | None = None,
        valid_until: datetime | str | None = None,
    ) -> Node:
        return Node(
            id=new_id(),
            type=check_enum(NodeType, type, "type"),
            label=label,
            status=check_enum(NodeStatus, status, "status"),
            recorded_at=at,
            updated_at=at,
            valid_from=parse_time(valid_from, "valid_from") if valid_from is not None else at,
            valid_until=parse_time(valid_until, "valid_until") if valid_until else None,
            confidence=confidence,
            rationale=rationale,
            metadata=metadata or {},
            agent=agent if agent is not None else self.agent,
        )

    def _new_edge(
        self,
        source: str,
        target: str,
        type: EdgeType | str,
        at: datetime,
        *,
        state: LinkState | str = LinkState.STATED,
        confidence: float | None = None,
        rationale: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Edge:
        return Edge(
            id=new_id(),
            type=check_enum(EdgeType, type, "edge type"),
            source=source,
            target=target,
            recorded_at=at,
            updated_at=at,
            valid_from=at,
            state=check_enum(LinkState, state, "state"),
            confidence=confidence,
            rationale=rationale,
            metadata=metadata or {},
            agent=self.agent,
        )

    def add_node(
        self,
        type: NodeType | str,
        label: str,
        *,
        parent: str | None = None,
        edge_type: EdgeType | str = EdgeType.LEADS_TO,
        **fields: Any,
    ) -> Node:
        """Add a node; with ``parent``, also the edge ``parent -edge_type-> node``, atomically."""
        at = utc_now()
        node = self._new_node(type, label, at, **fields)
        changes = [drafts.node_added(node, at)]
        if parent is not None:
            edge = self._new_edge(self._endpoint(parent), node.id, edge_type, at)
            changes.append(drafts.edge_added(edge, at))
        self._append(*changes)
        return node

    def add_goal(self, label: str, **fields: Any) -> Node:
        return self.add_node(NodeType.GOAL, label, **fields)

    def record_decision(
        self,
        label: str,
        *,
        goal: str | None = None,
        chosen: Sequence[str] = (),
        rejected: Sequence[str] = (),
        **fields: Any,
    ) -> Node:
        """Record a decision, optionally under a goal, with the options weighed.

        Each label in ``chosen``/``rejected`` becomes an option node joined by a
        ``chosen``/``rejected`` edge; everything lands in one transaction. At most
        ``MAX_OPTIONS`` options in all (each is two events of that one transaction).
        """
        options = {
            EdgeType.CHOSEN: _option_labels(chosen, EdgeType.CHOSEN.value),
            EdgeType.REJECTED: _option_labels(rejected, EdgeType.REJECTED.value),
        }
        count = sum(map(len, options.values()))
        if count > MAX_OPTIONS:
            raise InvalidInput(
                "options",
                f"a decision with {count} options (chosen and rejected together)",
                f"at most {MAX_OPTIONS} options a decision",
            )
        at = utc_now()
        decision = self._new_node(NodeType.DECISION, label, at, **fields)
        changes = [drafts.node_added(decision, at)]
        if goal is not None:
            link = self._new_edge(self._endpoint(goal), decision.id, EdgeType.LEADS_TO, at)
            changes.append(drafts.edge_added(link, at))
        for edge_type, status in (
            (EdgeType.CHOSEN, NodeStatus.ACTIVE),
            (EdgeType.REJECTED, NodeStatus.REJECTED),
        ):
            for option_label in options[edge_type]:
                option = self._new_node(NodeType.OPTION, option_label, at, status=status)
                edge = self._new_edge(decision.id, option.id, edge_type, at)
                changes += [drafts.node_added(option, at), drafts.edge_added(edge, at)]
        self._append(*changes)
        return decision

    def record_outcome(self, label: str, *, decision: str, **fields: Any) -> Node:
        """Record what came of a decision or action (``decision -leads_to-> outcome``)."""
        return self.add_node(NodeType.OUTCOME, label, parent=decision, **fields)

    def link(
        self,
        source: str,
        target: str,
        type: EdgeType | str = EdgeType.LEADS_TO,
        **fields: Any,
    ) -> Edge:
        """Join two nodes. Supersession goes through ``supersede``, which also retires the old."""
        edge_type = check_enum(EdgeType, type, "edge type")
        if edge_type is EdgeType.SUPERSEDES:
            raise InvalidInput(
                "type", "supersedes links are made with supersede(old, new)", "other edge types"
            )
        at = utc_now()
        source_id, target_id = self._endpoint(source), self._endpoint(target)
        edge = self._new_edge(source_id, target_id, edge_type, at, **fields)
        self._append(drafts.edge_added(edge, at))
        return edge

    def update(self, ref: str, **changes: Any) -> Node:
        """Change fields of a node (``label``, ``status``, ``confidence``, …) in one event."""
        node_id = self.resolve(ref)
        unknown = set(changes) - NODE_MUTABLE_FIELDS
        if not changes or unknown:
            raise InvalidInput(
                "changes", f"cannot update {sorted(unknown) or 'nothing'}", NODE_MUTABLE_FIELDS
            )
        at = utc_now()
        preview = self._node(node_id).evolve(**changes, updated_at=at)
        checked = {name: getattr(preview, name) for name in changes}
        self._append(drafts.node_updated(node_id, checked, at))
        return self._node(node_id)

    def update_edge(self, ref: str, **changes: Any) -> Edge:
        edge_id = self.resolve(ref)
        unknown = set(changes) - EDGE_MUTABLE_FIELDS
        if not changes or unknown:
            raise InvalidInput(
                "changes", f"cannot update {sorted(unknown) or 'nothing'}", EDGE_MUTABLE_FIELDS
            )
        at = utc_now()
        preview = self._edge(edge_id).evolve(**changes, updated_at=at)
        checked = {name: getattr(preview, name) for name in changes}
        self._append(drafts.edge_updated(edge_id, checked, at))
        return self._edge(edge_id)

    def supersede(
        self,
        old: str,
        new: str,
        *,
        rationale: str | None = None,
        state: LinkState | str = LinkState.STATED,
        confidence: float | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> Edge:
        """Record that ``new`` replaces ``old``, in one event with what it does to ``old``.

        A stated or confirmed full replacement retires ``old`` (status ``superseded``,
        ``valid_until`` now); a ``candidate`` is a proposal and leaves ``old`` as it was,
        as does a partial one (``metadata={"partial": True}``). ``judge`` confirms or
        rejects a pair already recorded."""
        old_id, new_id_ = self.resolve(old), self.resolve(new)
        if old_id == new_id_:
            raise InvalidInput("new", "a node cannot supersede itself", "another node")
        at = utc_now()
        edge = self._new_edge(
            new_id_,
            old_id,
            EdgeType.SUPERSEDES,
            at,
            state=state,
            confidence=confidence,
            rationale=rationale,
            metadata=metadata,
        )
        self._append(drafts.superseded(old_id, new_id_, edge, at))
        return edge

    def judge(
        self,
        old: str,
        new: str,
        verdict: LinkState | str,
        *,
        rationale: str | None = None,
    ) -> Edge:
        """Confirm or reject that ``new`` replaces ``old``, in one event.

        The live ``supersedes`` edge between them takes the verdict (confidence 1 or 0);
        with none, one is recorded in that state. A confirmed full replacement retires
        ``old``; a rejection releases what that link had retired and nothing else
        (``decisis.stores.retire``)."""
        judged = check_enum(LinkState, verdict, "verdict")
        if judged not in _VERDICTS:
            raise InvalidInput("verdict", f"{judged.value!r} is not a verdict", _VERDICTS)
        old_id, new_id_ = self.resolve(old), self.resolve(new)
        live = [
            e
            for e in self.store.edges(self.name, node=new_id_, direction="out", types=_SUPERSEDES)
            if e.target == old_id
        ]
        confidence = 1.0 if judged is LinkState.CONFIRMED else 0.0
        if not live:
            return self.supersede(
                old_id, new_id_, rationale=rationale, state=judged, confidence=confidence
            )
        changes: dict[str, Any] = {"state": judged, "confidence": confidence}
        if rationale is not None:
            changes["rationale"] = rationale
        edge = live[0]
        return self.update_edge(edge.id, **changes)

    def tombstone(self, ref: str, reason: str) -> None:
        """Invalidate a node or edge: it stays in the ledger, leaves every query. The
        reason is required, at most ``MAX_REASON_LENGTH`` characters."""
        text = check_reason(reason)
        record_id = self.resolve(ref)
        try:
            self._node(record_id)
            target = "node"
        except LookupError:
            self._edge(record_id)
            target = "edge"
        self._append(drafts.tombstoned(record_id, target, text, utc_now()))

    def record_provenance(
        self,
        ref: str,
        activity: str,
        *,
        agent: str | None = None,
        agent_type: AgentType | str | None = None,
        role: str | None = None,
        source: str | None = None,
        source_blob: str | None = None,
        source_commit: str | None = None,
        confidence: float | None = None,
        started_at: datetime | str | None = None,
        ended_at: datetime | str | None = None,
        outcome: str | None = None,
        error: str | None = None,
    ) -> Provenance:
        """Record who or what made a node or edge, how and from what source, in one
        ``provenance.recorded`` event (``decisis.model.provenance``). ``agent`` defaults to
        the graph's agent; ``agent_type`` is ``person``, ``software_agent`` or
        ``organization``; ``confidence`` 0 to 1."""
        record_id = self._endpoint(ref)
        payload = provenance_payload(
            record_id,
            activity,
            agent=agent if agent is not None else self.agent,
            agent_type=agent_type,
            role=role,
            source=source,
            source_blob=source_blob,
            source_commit=source_commit,
            confidence=confidence,
            started_at=started_at,
            ended_at=ended_at,
            outcome=outcome,
            error=error,
        )
        at = utc_now()
        written = self._append(drafts.provenance_recorded(payload, at))
        if written:
            return Provenance.from_payload(written[0].payload, written[0].at, written[0].seq)
        return Provenance.from_payload(payload, at)  # waiting in a batch

    # -- records --------------------------------------------------------------------
    def get(self, ref: str) -> Node:
        return self._node(self.resolve(ref))

    def get_edge(self, ref: str) -> Edge:
        return self._edge(self.resolve(ref))

    def _node(self, node_id: str) -> Node:
        return self._writer.node(node_id)

    def _edge(self, edge_id: str) -> Edge:
        return self._writer.edge(edge_id)

    def _stored_id(self, ref: str) -> str:
        """The full id of a stored record, for the reads that run in the store."""
        return self._writer.stored(self.resolve(ref))

    def nodes(
        self,
        *,
        types: Sequence[NodeType | str] | None = None,
        statuses: Sequence[NodeStatus | str] | None = None,
        newest_first: bool = False,
        limit: int | None = None,
        include_tombstoned: bool = False,
    ) -> list[Node]:
        """Nodes of these types and statuses (any, when not given), oldest or newest first."""
        return self.store.nodes(
            self.name,
            types=types,  # type: ignore[arg-type]  # the store checks and reads the names
            statuses=statuses,  # type: ignore[arg-type]
            newest_first=newest_first,
            limit=limit,
            as_of=self.as_of,
            include_tombstoned=include_tombstoned,
        )

    def edges(
        self,
        node: str | None = None,
        *,
        direction: Direction | None = None,
        types: Sequence[EdgeType | str] | None = None,
        include_tombstoned: bool = False,
    ) -> list[Edge]:
        """Edges of ``node`` (in and out, or one ``direction``), or of the whole graph."""
        node_id = self._stored_id(node) if node is not None else None
        return self.store.edges(
            self.name,
            node=node_id,
            direction=direction,
            types=types,  # type: ignore[arg-type]
            as_of=self.as_of,
            include_tombstoned=include_tombstoned,
        )

    def children(self, ref: str) -> list[tuple[Edge, Node]]:
        """Immediate children, each with the edge that joins it (supersession left out)."""
        node_id = self._stored_id(ref)
        out = []
        for edge in self.store.edges(self.name, node=node_id, direction="out", as_of=self.as_of):
            if edge.type is not EdgeType.SUPERSEDES:
                out.append((edge, self.store.get_node(self.name, edge.target)))
        return out

    def history(self, ref: str) -> list[Event]:
        """The ledger entries about one node or edge, oldest first."""
        return self.store.history(self.name, self._stored_id(ref), until=self.as_of)

    def provenance(self, ref: str) -> list[Provenance]:
        """The provenance entries about one node or edge, oldest first (read from its
        ledger history, so a view made by ``at(t)`` has those recorded by then)."""
        return [
            Provenance.from_payload(event.payload, event.at, event.seq)
            for event in self.history(ref)
            if event.kind is EventKind.PROVENANCE
        ]

    def events(self, after_seq: int = 0) -> Iterator[Event]:
        """The ledger entries after sequence number ``after_seq``, oldest first."""
        return self.store.events(self.name, after_seq=after_seq, until=self.as_of)

    # -- queries --------------------------------------------------------------------
    def active_goals(self) -> list[Node]:
        return self.store.nodes(
            self.name, types=[NodeType.GOAL], statuses=[NodeStatus.ACTIVE], as_of=self.as_of
        )

    def goal_trees(self) -> list[GoalTree]:
        return [GoalTree(goal, self.children(goal.id)) for goal in self.active_goals()]

    def recent_decisions(self, limit: int = 5) -> list[Node]:
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput("limit", f"{limit!r} is not a positive whole number", ">= 1")
        return self.store.nodes(
            self.name,
            types=[NodeType.DECISION],
            newest_first=True,
            limit=limit,
            as_of=self.as_of,
        )

    def ancestors(
        self,
        ref: str,
        *,
        edge_types: Sequence[EdgeType | str] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> list[Reached]:
        return self._traverse(ref, "in", edge_types, max_depth)

    def descendants(
        self,
        ref: str,
        *,
        edge_types: Sequence[EdgeType | str] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> list[Reached]:
        return self._traverse(ref, "out", edge_types, max_depth)

    def why(self, ref: str, *, max_depth: int = DEFAULT_MAX_DEPTH) -> list[Reached]:
        """What led to a node: its ancestors along causal and structural edges."""
        return self._traverse(ref, "in", _CAUSAL, max_depth)

    def impact(self, ref: str, *, max_depth: int = DEFAULT_MAX_DEPTH) -> list[Reached]:
        """What a node led to: its descendants along causal and structural edges."""
        return self._traverse(ref, "out", _CAUSAL, max_depth)

    def _traverse(
        self,
        ref: str,
        direction: str,
        edge_types: Sequence[EdgeType | str] | None,
        max_depth: int,
    ) -> list[Reached]:
        types = check_edge_types(edge_types)
        depth = _check_depth(max_depth)
        start = self._stored_id(ref)
        return self.store.traverse(
            self.name,
            start,
            direction="in" if direction == "in" else "out",
            edge_types=types,
            max_depth=depth,
            as_of=self.as_of,
        )

    def path_between(
        self,
        source: str,
        target: str,
        *,
        edge_types: Sequence[EdgeType | str] | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> list[Node]:
        """The nodes of a shortest directed path ``source -> target``, or ``[]``."""
        ids = self.store.path_between(
            self.name,
            self._stored_id(source),
            self._stored_id(target),
            edge_types=check_edge_types(edge_types),
            max_depth=_check_depth(max_depth),
            as_of=self.as_of,
        )
        return [self.store.get_node(self.name, node_id) for node_id in ids]

    def current(self, ref: str, *, believe: float = BELIEVED) -> Standing:
        """Follow supersession from a node to what stands now, with the chain to it.

        Only believed replacements count (``Store.supersession_region``, one query): a
        supersession someone stated or a correction confirmed, or rule proposals whose
        confidences reach ``believe``; one a person rejected never does. So a record an
        ADR rule merely suspects was replaced still stands here. The walk ignores
        ``as_of``: every node on a chain was superseded, so none is valid at a later
        time. A view made by ``at(t)`` holds only what was recorded by ``t``, so its
        chains are the ones that stood then.
        """
        floor = check_confidence(believe, "believe")
        if floor is None:
            raise InvalidInput("believe", "is missing", "0.0 to 1.0")
        node = self.store.get_node(self.name, self._stored_id(ref))
        edges = self.store.supersession_region(self.name, node.id, floor=floor)
        newer: dict[str, list[str]] = {}
        for edge in edges:
            newer.setdefault(edge.target, []).append(edge.source)
        by_id, via = {node.id: node}, {}
        frontier = [node.id]
        while frontier:  # breadth first, edges in id order: the shortest chain to each
            following = []
            for old in frontier:
                for new in newer.get(old, []):
                    if new not in by_id:
                        by_id[new] = self.store.get_node(self.name, new)
                        via[new] = old
                        following.append(new)
            frontier = following
        standing = [n for n in by_id.values() if n.id not in newer]
        chains = []
        for last in standing:
            chain = [last]
            while chain[-1].id != node.id:
                chain.append(by_id[via[chain[-1].id]])
            chains.append(list(reversed(chain)))
        return Standing(node, standing, chains)

    def decisions_for(self, paths: Sequence[str]) -> list[PathDecisions]:
        """The standing decisions that govern each path, nearest (most specific pattern)
        first, each with what it replaced: nodes name what they govern in
        ``metadata["affects"]`` (gitignore-like patterns, ``decisis.files.patterns``); a
        replaced node gives way to what stands for it now (``current``). Paths are relative
        to the repository root, or absolute inside a git work tree."""
        from decisis.files.governs import decisions_for

        return decisions_for(self, paths)

    def stale(self, ref: str | None = None, *, premise: str | None = None) -> list[Stale]:
        """The records resting on a replaced premise that nobody re-affirmed since
        (``decisis.stale``): each dependent with the premise, the edge and what stands now.

        Only node ``ref``'s when given; with ``premise``, only those resting on it or on a
        record between it and what stands now (what ``current(premise)`` walks through)."""
        from decisis.stale import stale_dependents

        node_id = self._stored_id(ref) if ref is not None else None
        premises = None
        if premise is not None:
            standing = self.current(premise)
            premises = {n.id for chain in standing.chains for n in chain[:-1]}
        return stale_dependents(self, node=node_id, premises=premises)

    def reaffirm(self, ref: str, *, premise: str | None = None, note: str | None = None) -> Node:
        """Say that node ``ref`` still holds with what stands now in place of its replaced
        premises (only ``premise`` when given), in one ``node.updated`` event setting its
        ``reaffirmed`` metadata (``decisis.stale.REAFFIRMED``). It is stale again when what
        stands is replaced in turn. ``InvalidInput`` when it rests on no replaced premise
        (or not on ``premise``)."""
        from decisis.stale import REAFFIRMED, stale_dependents

        self._check_writable()
        node_id = self.resolve(ref)
        premise_id = self.resolve(premise) if premise is not None else None
        text = check_note(note, "note")

        def once() -> Node:
            seq, _ = self.store.head(self.name)
            found = stale_dependents(self, node=node_id)
            if premise_id is not None:
                allowed = [s.premise.id for s in found] or "a premise `decisis stale` lists"
                found = [s for s in found if s.premise.id == premise_id]
                if not found:
                    raise InvalidInput(
                        "premise", f"{node_id} does not rest on {premise_id} as replaced", allowed
                    )
            if not found:
                raise InvalidInput(
                    "id", f"{node_id} rests on no replaced premise", "a node `decisis stale` lists"
                )
            at = utc_now()
            node = found[0].node
            marks = dict(node.metadata.get(REAFFIRMED) or {})
            for item in found:
                mark: dict[str, Any] = {
                    "standing": sorted(n.id for n in item.standing),
                    "at": format_time(at),
                }
                if text is not None:
                    mark["note"] = text
                marks[item.premise.id] = mark
            metadata = {**node.metadata, REAFFIRMED: marks}
            checked = node.evolve(metadata=metadata, updated_at=at).metadata
            draft = drafts.node_updated(node_id, {"metadata": checked}, at)
            self.store.append(self.name, [draft], after_seq=seq)
            return self._node(node_id)

        return written_once(once, self)

    def check_plan(self, plan: str, *, settings: CheckSettings | None = None) -> PlanCheck:
        """Each step of a plan (lines, list items, sentences) with what it names that no
        longer stands: a replaced decision, a rejected option, or what a standing decision
        turned down, each with what stands now and why (``decisis.plans``)."""
        from decisis.plans import DEFAULT_CHECK, check_plan

        return check_plan(self, plan, settings or DEFAULT_CHECK)

    def search(self, query: str, *, limit: int = 10) -> list[SearchHit]:
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("query", "is empty", "some words to look for")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput("limit", f"{limit!r} is not a positive whole number", ">= 1")
        return self.store.search(self.name, query, limit=limit, as_of=self.as_of)

    # -- ledger -----------------------------------------------------------------------
    def precedents(
        self,
        text: str,
        *,
        k: int = 5,
        types: Sequence[NodeType | str] | None = None,
        records: bool = True,
    ) -> list[Precedent]:
        """The graph's own decisions (or nodes of ``types``) closest to a situation told in
        words: full text and vectors fused (``decisis.search.precedents``); correction
        questions never, ADR records unless ``records=False``."""
        return find_precedents(
            self.store, self.name, text, k=k, types=types, records=records, as_of=self.as_of
        )

    def verify(
        self,
        *,
        quick: bool = False,
        checkpoint: str | os.PathLike[str] | dict[str, Any] | None = None,
        key: KeySource | None = None,
    ) -> VerifyReport:
        """Re-read the ledger from storage, check the chain and the tombstone marks, replay
        it against the tables, and check the backend's storage (the database file, the
        full-text index; ``quick`` for the cheaper file check).

        With a signed ``checkpoint`` (a file or its JSON) and the signer's public ``key``,
        also the ledger as read against it: a forged checkpoint or another key's, entries
        dropped from the tail (even with the head moved), entries rewritten with their
        checksums recomputed, reordered or replaced, each named (``decisis.checkpoints``)."""
        from decisis.stores.replay import verify

        if checkpoint is None:
            if key is not None:
                raise InvalidInput("key", "a key needs a checkpoint to check", "--checkpoint FILE")
            return verify(self.store, self.name, quick=quick)
        from decisis.checkpoints import against, load_checkpoint

        if key is None:
            raise InvalidInput(
                "key", "a checkpoint is checked with its signer's key", "--key KEY.pub"
            )
        document = load_checkpoint(checkpoint, "checkpoint")
        check = against(self.store, self.name, document, key)
        return verify(self.store, self.name, quick=quick, against=check)

    def checkpoint(self, key: KeySource, *, git: bool = False) -> dict[str, Any]:
        """Sign the ledger's size, head checksum and Merkle root now with ``key`` (an Ed25519
        private key file or PEM, ``decisis.graph.new_key``), keep the checkpoint in the store
        and return it (the JSON of ``decisis.proof``). With ``git``, also commit it on
        ``refs/decisis/checkpoints`` of the git repository the store sits in (checked
        before anything is signed; see ``witness``)."""
        from decisis.checkpoints import make_checkpoint

        self._check_writable()
        if git:
            from decisis.witness import require_repository, store_folder

            require_repository(store_folder(self.store))
        checkpoint = make_checkpoint(self.store, self.name, key, utc_now())
        if git:
            self.witness(checkpoint)
        return checkpoint

    def witness(self, checkpoint: dict[str, Any]) -> str:
        """Commit ``checkpoint`` on ``refs/decisis/checkpoints`` of the git repository the
        store sits in (its file's folder; else the working directory), so the team's git
        history witnesses the ledger (``decisis.witness``); returns the commit id."""
        from decisis.witness import store_folder, witness

        return witness(checkpoint, store_folder(self.store))

    def checkpoints(self) -> list[dict[str, Any]]:
        """The checkpoints kept in the store for this graph, oldest first."""
        return self.store.checkpoints(self.name)

    def prove(
        self, ref: str, checkpoint: str | os.PathLike[str] | dict[str, Any]
    ) -> dict[str, Any]:
        """An inclusion proof (``decisis.proof``) of the node's ledger entries under a
        checkpoint; a tombstoned node's entries too, with the tombstone named."""
        from decisis.checkpoints import load_checkpoint, prove_inclusion

        node_id = self.resolve(ref)
        self._node(node_id)  # a node, not an edge
        document = load_checkpoint(checkpoint, "checkpoint")
        history = self.store.history(self.name, node_id)
        return prove_inclusion(self.store, self.name, node_id, history, document)

    def prove_consistency(
        self,
        old: str | os.PathLike[str] | dict[str, Any],
        new: str | os.PathLike[str] | dict[str, Any],
    ) -> dict[str, Any]:
        """A consistency proof (``decisis.proof``) that the ledger ``old`` signed is the
        first part of the one ``new`` signed."""
        from decisis.checkpoints import load_checkpoint, prove_consistency

        return prove_consistency(
            self.store, self.name, load_checkpoint(old, "from"), load_checkpoint(new, "to")
        )

    def at(self, when: datetime | str) -> Graph:
        """A read-only view of the graph as it stood at ``when``: the ledger replayed up to
        then, and only records valid then walked through (a moment before the first time
        there is, "0001-01-01T00:00+01:00", is that first time). The view reads each record
        from the version index kept in the store (``decisis.stores.past_at``) when first
        asked for it, and the ledger itself when first asked for it, so this graph's store
        must stay open while the view is used."""
        from decisis.stores.past_view import view_at

        moment = parse_time(when, "when", clamp=True)
        view = view_at(self.store, self.name, moment)
        return Graph(view, self.name, agent=self.agent, as_of=moment, owns_store=True)

    def export(self, format: str = "json") -> str:
        """The graph as JSON (its whole ledger, re-importable), Graphviz DOT, Mermaid, or
        W3C PROV-O as Turtle or JSON-LD (``prov-turtle``, ``prov-jsonld``: the ``prov``
        extra; ``decisis.provo``)."""
        from decisis.exchange import export_graph

        return export_graph(self, format)

    def import_(self, text: str) -> int:
        """Load a JSON export into this graph (all or nothing); returns the events added."""
        from decisis.exchange import import_graph

        return import_graph(self, text)


def _option_labels(labels: object, field: str) -> Sequence[Any]:
    """The labels of a decision's ``chosen`` or ``rejected`` options: a list (none for None;
    each label is checked as a node's)."""
    if labels is None:
        return ()
    if isinstance(labels, str | bytes | Mapping) or not isinstance(labels, Iterable):
        got = "text" if isinstance(labels, str) else type(labels).__name__
        raise InvalidInput(field, f"expected a list of option labels, got {got}")
    return list(labels)


def _check_depth(depth: int) -> int:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 10_000:
        raise InvalidInput("max_depth", f"{depth!r} is out of range", "1 to 10000")
    return depth


def open(url: str = "memory://", graph: str = DEFAULT_GRAPH, *, agent: str | None = None) -> Graph:
    """Open a store by URL and return one of its graphs (``sqlite:///…``, ``memory://``)."""
    return Graph(open_store(url), graph, agent=agent, owns_store=True)


def new_key(path: str | os.PathLike[str]) -> tuple[str, str, str]:
    """Write a new Ed25519 signing key to ``path`` (mode 0600) and its public half to
    ``path.pub``, refusing to overwrite either; returns both paths and the key id. Needs
    ``decisis[proofs]``."""
    from decisis.checkpoints import new_key as write_key

    private, public, key_id = write_key(path)
    return str(private), str(public), key_id
