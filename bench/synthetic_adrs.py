"""Synthetic ADR corpora for the scale benchmark: deterministic from a seed, written to a folder.

The same ``(records, seed)`` always gives the same files, byte for byte. The shape
imitates a large organisation's decision records:

- **Teams.** One folder per team (``payments-api``, ``search-platform``, …), about
  125 records each on average (40 to 210), numbered ``0001-use-kafka-for-….md``.
- **Records.** Mostly Michael Nygard's template (``# 12. Title``, ``Date:``, ``## Status``,
  ``## Context``, ``## Decision``, ``## Consequences``); one in four in the log4brains /
  MADR 2 shape (``- Status: accepted`` bullets, ``## Decision Outcome``). About 330 words.
- **Vocabulary.** Titles combine a verb, a technology and a topic ("Adopt RabbitMQ as
  the message queue"); each team has its own internal code names. Body text draws from
  a ranked lexicon (about 400 common engineering words, then the topic words, then
  20,000 made-up words) with Zipf frequencies, so a few words are everywhere and most
  are rare: 50,000 records use about 21,000 distinct terms, most of them in few records.
- **Replacements.** A record on a topic its team decided before decides it again two
  times in three (58% of the records at 50,000). Of those, two in five say so in both
  records (``Superseded by [0042](…)`` on the old record, "This replaces
  [ADR-0017](…)" in the new one), three in ten only in the new record's body ("We are
  migrating away from X, decided in ADR 17"), and the rest only by deciding the same
  question again.

``questions`` gives questions about the corpus ("Which message queue does payments-api
use?"), with the record that answers each, and a share of out-of-scope questions whose
words no record uses.

    .venv/bin/python bench/synthetic_adrs.py /tmp/adrs --records 50000 --seed 7
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Corpus", "Question", "Spec", "generate", "questions", "render", "write_corpus"]


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_AVERAGE_TEAM = 125
_REDECIDE = 0.66  # chance that a record on a topic its team decided before replaces it
_ZIPF = 1.1  # Zipf-Mandelbrot: weight 1 / (rank + shift) ** exponent
_ZIPF_SHIFT = 20

_DOMAINS = _split(
    "payments accounts identity search catalogue checkout billing ledger orders shipping "
    "inventory pricing notifications messaging analytics reporting onboarding compliance "
    "fraud risk lending savings cards loyalty content media streaming maps routing "
    "scheduling booking claims policy documents signing archive observability network "
    "storage compute developer security platform"
)
_FUNCTIONS = _split("api platform core web mobile data infra services backend frontend ops tools")

# Topic phrase, then words its records use often.
_TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("message queue", ("broker", "consumer", "producer", "ordering", "delivery")),
    ("service mesh", ("sidecar", "proxy", "mtls", "routing", "retries")),
    ("secrets management", ("vault", "rotation", "credential", "encryption", "lease")),
    ("container registry", ("image", "registry", "scanning", "tag", "pull")),
    ("log aggregation", ("logs", "retention", "index", "shipper", "query")),
    ("feature flags", ("toggle", "rollout", "experiment", "cohort", "flag")),
    ("ci pipeline", ("build", "pipeline", "runner", "artifact", "stage")),
    ("deployment strategy", ("canary", "rollback", "blue-green", "release", "traffic")),
    ("relational database", ("schema", "replica", "transaction", "migration", "index")),
    ("document store", ("collection", "document", "shard", "replica", "query")),
    ("cache layer", ("eviction", "ttl", "hit", "invalidation", "warmup")),
    ("api gateway", ("gateway", "rate", "quota", "authentication", "routing")),
    ("authentication", ("oauth", "token", "session", "login", "sso")),
    ("authorisation", ("role", "permission", "policy", "scope", "entitlement")),
    ("metrics", ("dashboard", "scrape", "cardinality", "alert", "timeseries")),
    ("tracing", ("span", "sampling", "trace", "propagation", "latency")),
    ("alerting", ("pager", "oncall", "escalation", "threshold", "incident")),
    ("infrastructure as code", ("module", "state", "drift", "plan", "provider")),
    ("container orchestration", ("cluster", "pod", "node", "scheduler", "namespace")),
    ("object storage", ("bucket", "lifecycle", "versioning", "upload", "archive")),
    ("search engine", ("index", "relevance", "analyzer", "shard", "query")),
    ("frontend framework", ("component", "bundle", "rendering", "hydration", "routing")),
    ("mobile release", ("store", "build", "signing", "beta", "crash")),
    ("dependency updates", ("upgrade", "vulnerability", "lockfile", "bot", "version")),
    ("code review", ("approval", "reviewer", "merge", "branch", "checks")),
    ("branching model", ("trunk", "branch", "merge", "release", "hotfix")),
    ("data warehouse", ("warehouse", "etl", "partition", "query", "modelling")),
    ("stream processing", ("stream", "window", "watermark", "state", "checkpoint")),
    ("batch jobs", ("cron", "job", "retry", "schedule", "backfill")),
    ("email delivery", ("email", "bounce", "template", "sender", "reputation")),
    ("dns management", ("dns", "zone", "record", "delegation", "resolver")),
    ("tls certificates", ("certificate", "renewal", "issuer", "expiry", "acme")),
    ("backup and restore", ("backup", "restore", "snapshot", "recovery", "retention")),
    ("disaster recovery", ("failover", "region", "rto", "rpo", "drill")),
    ("cost allocation", ("cost", "budget", "tagging", "chargeback", "forecast")),
    ("access to production", ("bastion", "break-glass", "audit", "session", "approval")),
    ("vulnerability scanning", ("scanner", "cve", "severity", "remediation", "sbom")),
    ("api versioning", ("version", "deprecation", "contract", "breaking", "client")),
    ("schema registry", ("schema", "compatibility", "avro", "contract", "evolution")),
    ("service discovery", ("registry", "health", "endpoint", "lookup", "dns")),
    ("load balancing", ("balancer", "health", "listener", "target", "sticky")),
    ("rate limiting", ("limit", "burst", "quota", "throttle", "bucket")),
    ("job queue", ("worker", "queue", "retry", "priority", "deadletter")),
    ("configuration management", ("config", "environment", "override", "reload", "default")),
    ("local development", ("laptop", "compose", "devcontainer", "seed", "mock")),
    ("testing strategy", ("unit", "integration", "contract", "e2e", "fixture")),
    ("documentation", ("docs", "portal", "runbook", "diagram", "template")),
    ("incident management", ("incident", "postmortem", "severity", "timeline", "comms")),
    ("error tracking", ("exception", "grouping", "release", "alert", "stacktrace")),
    ("payments provider", ("acquirer", "settlement", "refund", "chargeback", "psp")),
    ("identity provider", ("directory", "saml", "scim", "federation", "group")),
    ("data retention", ("retention", "deletion", "gdpr", "purge", "anonymisation")),
    ("encryption at rest", ("kms", "key", "envelope", "rotation", "disk")),
    ("network segmentation", ("vpc", "subnet", "firewall", "peering", "egress")),
    ("web application firewall", ("waf", "rule", "bot", "block", "owasp")),
    ("cdn", ("edge", "cache", "purge", "origin", "latency")),
    ("programming language", ("language", "runtime", "typing", "ecosystem", "hiring")),
    ("package registry", ("package", "mirror", "publish", "proxy", "artifact")),
    ("chat operations", ("bot", "channel", "command", "notification", "integration")),
    ("ticketing", ("ticket", "board", "workflow", "sprint", "backlog")),
)

_TECH = _split(
    "Kafka RabbitMQ SQS NATS Pulsar Istio Linkerd Consul Vault Doppler Harbor ECR GCR Quay "
    "Elasticsearch OpenSearch Loki Splunk Datadog LaunchDarkly Unleash Flagsmith Jenkins "
    "Concourse GitHub-Actions CircleCI Buildkite GitLab-CI ArgoCD Flux Spinnaker PostgreSQL "
    "MySQL Aurora CockroachDB MongoDB DynamoDB Couchbase Redis Memcached Varnish Kong Apigee "
    "Envoy Traefik Keycloak Auth0 Okta Cognito OPA Cerbos Prometheus Grafana Thanos "
    "VictoriaMetrics Jaeger Zipkin Tempo Honeycomb PagerDuty Opsgenie Terraform Pulumi "
    "CloudFormation Ansible Kubernetes EKS GKE Nomad ECS Fargate S3 GCS MinIO Solr Algolia "
    "React Vue Angular Svelte Fastlane Bitrise Renovate Dependabot Gerrit Snowflake BigQuery "
    "Redshift dbt Flink Spark Beam Airflow Dagster Temporal SES SendGrid Postmark Route53 "
    "Cloudflare NS1 LetsEncrypt cert-manager Velero Restic Kubecost Teleport Trivy Snyk Grype "
    "gRPC GraphQL OpenAPI Avro Protobuf Eureka Nginx HAProxy Sidekiq Celery BullMQ Consul-KV "
    "etcd Tilt Skaffold Pytest Jest Playwright Cypress Backstage Docusaurus Sentry Rollbar "
    "Bugsnag Stripe Adyen Braintree Azure-AD JumpCloud KMS Cilium Calico ModSecurity Fastly "
    "Akamai Go Kotlin Rust TypeScript Python Java Artifactory Nexus Verdaccio Slack Jira Linear"
)

_COMMON = _split(
    "service services deployment deploy latency throughput availability reliability cost "
    "operations operational support maintenance upgrade upgrades security compliance audit "
    "performance scale scaling capacity traffic request requests response responses client "
    "clients server servers cloud region regions zone environment environments production "
    "staging development test tests testing release releases version versions change changes "
    "incident incidents monitoring alerts alert dashboard logs data database storage network "
    "configuration infrastructure platform application applications users user customer "
    "customers product engineers engineering developers workflow process manual automated "
    "automation tooling tool tools vendor vendors licence licensing managed hosted "
    "self-hosted existing legacy option options alternative alternatives "
    "approach approaches risk risks benefit benefits tradeoff tradeoffs complexity simple "
    "simpler effort time weeks months quarter budget team ownership owners owner review "
    "reviewed agreed proposal discussion discussed concerns concern problem problems issue "
    "issues requirement requirements constraint constraints limit limits failure failures "
    "outage outages recovery backup backups access permissions policy policies standard "
    "standards consistent consistency integration integrations interface contract contracts "
    "endpoint endpoints event events message messages queue queues job jobs batch stream "
    "pipeline pipelines build builds artefact artefacts image images container containers "
    "cluster clusters node nodes instance instances account accounts project projects "
    "repository repositories code library libraries framework frameworks module modules "
    "documentation docs runbook runbooks training knowledge experience expertise hiring "
    "community ecosystem adoption mature maturity stable stability supported "
    "feature features capability capabilities gap gaps trial pilot experiment evaluation "
    "evaluated benchmark benchmarks measured metrics observed observability visibility "
    "insight debugging troubleshooting fault faults redundancy replica replicas failover "
    "encryption keys secrets credentials tokens identity authentication authorization roles "
    "rollout rollback canary gradual phased cutover downtime window maintenance schedule "
    "quarterly annual roadmap strategy direction principle principles guidance guideline "
    "exception exceptions waiver ticket tickets backlog priority priorities stakeholder "
    "stakeholders product-owner architect architecture design designs diagram boundaries "
    "domain domains bounded ownership handover onboarding offboarding support-rota oncall "
    "pager escalation sla slo sli error-budget headroom peak load spikes bursty "
    "predictable unpredictable growth forecast usage quota quotas throttling retry retries "
    "timeout timeouts idempotent idempotency ordering duplicates exactly-once at-least-once "
    "schema schemas format formats json yaml protobuf csv parquet compression payload "
    "payloads size sizes memory cpu disk iops bandwidth egress ingress vpc subnet firewall "
    "migration migrate deprecated"
)

_FILLER = _split("the a we our to of and in for with on is are this that it as be by at from")
_SYLLABLES = _split(
    "ka lo mi ne ru sa te vo zu bra cli dre fro gla kri mon pel quo ris sta tor ul ven "
    "wex yor zan ith ark bel cor dun eft gim hal jor kel lum nor pax rin sol tum vik"
)
_VERBS = ("Use", "Adopt", "Standardise on", "Move to", "Introduce", "Run", "Choose")
_OUT_OF_SCOPE = (
    "Which espresso machine did we buy for the kitchen?",
    "What is the dress code for the summer party?",
    "Who won the office table tennis tournament?",
    "Where do we order birthday cakes from?",
    "What colour should the meeting room chairs be?",
    "Which parking spaces are reserved for visitors?",
    "How many holiday days carry over into next year?",
    "What is the wifi password in the canteen?",
)


@dataclass
class Spec:
    """One record before it is written: what it decides and what it replaces."""

    folder: str
    number: int
    title: str
    topic: int
    tech: str
    date: dt.date
    words: list[str]
    status: str = "Accepted"
    replaces: Spec | None = None
    signal: str = ""  # how a replacement is told: "status", "body" or "" (only by topic)
    replaced_by: Spec | None = None
    fmt: str = "nygard"

    @property
    def key(self) -> str:
        return f"{self.folder}:{self.number:04d}"

    @property
    def file_name(self) -> str:
        slug = "-".join("".join(c if c.isalnum() else " " for c in self.title).lower().split())
        return f"{self.number:04d}-{slug[:60]}.md"


@dataclass
class Corpus:
    """The records of a synthetic corpus, by folder, in the order they were written."""

    seed: int
    specs: list[Spec] = field(default_factory=list)
    codenames: dict[str, list[str]] = field(default_factory=dict)

    def standing(self, folder: str, topic: int) -> Spec | None:
        """The newest accepted record of ``folder`` on ``topic`` (what a question should get)."""
        found = None
        for spec in self.specs:
            if spec.folder == folder and spec.topic == topic and spec.replaced_by is None:
                found = spec if spec.status == "Accepted" else found
        return found


@dataclass(frozen=True)
class Question:
    text: str
    expected: str | None  # the standing record's key, or None when no record answers it


class _Lexicon:
    """Words ranked by frequency; ``sample`` draws them with Zipf weights."""

    def __init__(self, rng: random.Random, size: int) -> None:
        made: set[str] = set()
        pseudo: list[str] = []
        while len(pseudo) < size:
            word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.choice((2, 3, 3, 4))))
            if word not in made and len(word) > 4:
                made.add(word)
                pseudo.append(word)
        topic_words = sorted({w for _, ws in _TOPICS for w in ws})
        self.words = [*_COMMON, *topic_words, *pseudo]
        weights = [1.0 / (rank + _ZIPF_SHIFT) ** _ZIPF for rank in range(1, len(self.words) + 1)]
        self.cumulative = list(itertools.accumulate(weights))
        self.pseudo = pseudo

    def sample(self, rng: random.Random, k: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cumulative, k=k)


def _team_names(rng: random.Random, count: int) -> list[str]:
    names = [f"{d}-{f}" for d in _DOMAINS for f in _FUNCTIONS]
    rng.shuffle(names)
    out = names[:count]
    for i in range(len(out), count):  # more teams than name pairs: number them
        out.append(f"{names[i % len(names)]}-{i // len(names) + 1}")
    return out


def _team_sizes(rng: random.Random, records: int) -> list[int]:
    teams = max(3, round(records / _AVERAGE_TEAM))
    weights = [rng.uniform(0.3, 1.7) for _ in range(teams)]
    total = sum(weights)
    sizes = [max(1, int(records * w / total)) for w in weights]
    for i in range(records - sum(sizes)):  # hand out the rounding remainder
        sizes[i % teams] += 1
    while sum(sizes) > records:
        sizes[sizes.index(max(sizes))] -= 1
    return sizes


def _title(rng: random.Random, topic: str, tech: str, old: Spec | None) -> str:
    if old is not None and rng.random() < 0.5:
        return f"Replace {old.tech} with {tech} for {topic}"
    pattern = rng.randrange(4)
    if pattern == 0:
        return f"{rng.choice(_VERBS)} {tech} for {topic}"
    if pattern == 1:
        return f"{rng.choice(_VERBS)} {tech} as the {topic}"
    if pattern == 2:
        return f"{topic.capitalize()} with {tech}"
    where = rng.choice(("production", "all environments", "new services"))
    return f"{rng.choice(_VERBS)} {tech} for {topic} in {where}"


def _team_specs(
    rng: random.Random, lexicon: _Lexicon, folder: str, size: int, codenames: list[str]
) -> list[Spec]:
    topics = rng.sample(range(len(_TOPICS)), k=min(len(_TOPICS), rng.randint(8, 24)))
    topic_weights = list(itertools.accumulate(1.0 / r for r in range(1, len(topics) + 1)))
    date = dt.date(2015, 1, 1) + dt.timedelta(days=rng.randrange(2000))
    latest: dict[int, Spec] = {}
    specs: list[Spec] = []
    for number in range(1, size + 1):
        topic = rng.choices(topics, cum_weights=topic_weights)[0]
        old = latest.get(topic) if rng.random() < _REDECIDE else None
        phrase, _ = _TOPICS[topic]
        tech = rng.choice([t for t in _TECH if old is None or t != old.tech])
        date += dt.timedelta(days=rng.randint(1, 20))
        spec = Spec(
            folder=folder,
            number=number,
            title=_title(rng, phrase, tech, old),
            topic=topic,
            tech=tech,
            date=date,
            words=lexicon.sample(rng, rng.randint(110, 250)),
            fmt="log4brains" if rng.random() < 0.25 else "nygard",
        )
        roll = rng.random()
        if old is not None and old.replaced_by is None:
            spec.replaces, old.replaced_by = old, spec
            spec.signal = "status" if roll < 0.4 else "body" if roll < 0.7 else ""
            if spec.signal == "status":
                old.status = f"Superseded by [{number:04d}]({spec.file_name})"
        elif roll < 0.05:
            spec.status = "Proposed"
        elif roll < 0.08:
            spec.status = "Rejected"
        spec.words += [codenames[rng.randrange(len(codenames))] for _ in range(rng.randint(0, 4))]
        if spec.status in ("Accepted", "Proposed"):
            latest[topic] = spec
        specs.append(spec)
    return specs


def generate(records: int, seed: int = 7) -> Corpus:
    """The specs of a corpus of ``records`` records (nothing written yet)."""
    rng = random.Random(seed)
    lexicon = _Lexicon(rng, 20_000)
    corpus = Corpus(seed)
    sizes = _team_sizes(rng, records)
    for folder, size in zip(_team_names(rng, len(sizes)), sizes, strict=True):
        codenames = rng.sample(lexicon.pseudo, k=rng.randint(3, 8))
        corpus.codenames[folder] = codenames
        corpus.specs += _team_specs(rng, lexicon, folder, size, codenames)
    return corpus


def _sentences(
    rng: random.Random, words: list[str], spec: Spec, topic_words: tuple[str, ...]
) -> str:
    """Words grouped into sentences, with function words, topic words and the technology."""
    out, sentence = [], []
    for word in words:
        if rng.random() < 0.55:
            sentence.append(rng.choice(_FILLER))
        sentence.append(word)
        if rng.random() < 0.12:
            sentence.append(rng.choice(topic_words))
        if rng.random() < 0.03:
            sentence.append(spec.tech)
        if len(sentence) > rng.randint(9, 20):
            out.append(" ".join(sentence).capitalize() + ".")
            sentence = []
    if sentence:
        out.append(" ".join(sentence).capitalize() + ".")
    return " ".join(out)


def _link(spec: Spec) -> str:
    return f"[ADR-{spec.number:04d}]({spec.file_name})"


def render(spec: Spec, rng: random.Random) -> str:
    """The Markdown text of one record."""
    phrase, topic_words = _TOPICS[spec.topic]
    third = len(spec.words) // 3
    context = _sentences(rng, spec.words[:third], spec, topic_words)
    decision = _sentences(rng, spec.words[third : 2 * third], spec, topic_words)
    consequences = _sentences(rng, spec.words[2 * third :], spec, topic_words).split(". ")
    old = spec.replaces
    if old is not None and spec.signal == "status":
        context = f"This replaces {_link(old)}, which chose {old.tech}. {context}"
    elif old is not None and spec.signal == "body":
        context += f" We are migrating away from {old.tech}, decided in ADR {old.number}."
    decision = f"We will use {spec.tech} for {phrase}. {decision}"
    bullets = "\n".join(f"- {c.rstrip('.')}." for c in consequences if c)
    if spec.fmt == "log4brains":
        return (
            f"# {spec.title}\n\n"
            f"- Status: {spec.status.lower()}\n- Date: {spec.date.isoformat()}\n\n"
            f"## Context and Problem Statement\n\n{context}\n\n"
            f"## Decision Outcome\n\n{decision}\n\n### Consequences\n\n{bullets}\n"
        )
    return (
        f"# {spec.number}. {spec.title}\n\nDate: {spec.date.isoformat()}\n\n"
        f"## Status\n\n{spec.status}\n\n## Context\n\n{context}\n\n"
        f"## Decision\n\n{decision}\n\n## Consequences\n\n{bullets}\n"
    )


def write_corpus(root: Path, records: int, seed: int = 7) -> Corpus:
    """Generate a corpus and write it under ``root`` (one folder per team)."""
    corpus = generate(records, seed)
    rng = random.Random(seed + 1)
    made: set[str] = set()
    for spec in corpus.specs:
        folder = root / spec.folder
        if spec.folder not in made:
            folder.mkdir(parents=True, exist_ok=True)
            made.add(spec.folder)
        (folder / spec.file_name).write_text(render(spec, rng), encoding="utf-8")
    return corpus


def questions(corpus: Corpus, count: int, seed: int = 11) -> list[Question]:
    """``count`` questions: most about one team's topic, one in eight out of scope."""
    rng = random.Random(seed)
    folders = sorted(corpus.codenames)
    by_folder: dict[str, list[Spec]] = {}
    for spec in corpus.specs:
        by_folder.setdefault(spec.folder, []).append(spec)
    out: list[Question] = []
    while len(out) < count:
        if rng.random() < 0.125:
            out.append(Question(rng.choice(_OUT_OF_SCOPE), None))
            continue
        folder = rng.choice(folders)
        spec = rng.choice(by_folder[folder])
        phrase, topic_words = _TOPICS[spec.topic]
        standing = corpus.standing(folder, spec.topic)
        expected = standing.key if standing else None
        kind = rng.randrange(4)
        if kind == 0:
            text = f"Which {phrase} does {folder} use?"
        elif kind == 1:
            text = f"Should we still use {spec.tech} for {phrase}?"
        elif kind == 2:
            text = f"What did {folder} decide about {phrase} and {rng.choice(topic_words)}?"
        else:
            name = rng.choice(corpus.codenames[folder])
            text = f"How do we handle {phrase} for {name}?"
        out.append(Question(text, expected))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    corpus = write_corpus(args.root, args.records, args.seed)
    folders = len({s.folder for s in corpus.specs})
    print(f"wrote {len(corpus.specs)} records in {folders} folders under {args.root}")


if __name__ == "__main__":
    main()
