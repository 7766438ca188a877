"""Words engineers use for the same thing, so a question finds a record written in others.

An engineer asks where "the stdout my pods print" goes; the record says "logs". Full-text
rank cannot see that these are one subject, and a small static embedding sees it only
faintly. Each group below is one everyday engineering concept with the words and common
product names people use for it. :func:`related_terms` gives, for the terms of a
question, the other terms of their groups, so the term index can match them at a
fraction of a query word's weight (``decisis.search.terms``). The groups hold general
usage only, nothing of one team or corpus; teams add their own with :func:`add_concept`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from decisis.errors import InvalidInput
from decisis.search.text import terms

__all__ = ["CONCEPTS", "add_concept", "related_terms"]

CONCEPTS: list[tuple[str, ...]] = [
    ("log", "logs", "logging", "stdout", "stderr", "syslog", "log shipping"),
    ("secret", "secrets", "credential", "credentials", "token", "password", "api key"),
    ("pipeline", "ci", "cd", "continuous integration", "continuous delivery", "build and release"),
    ("cache", "caching", "key-value", "redis", "memcached", "elasticache"),
    ("instance", "server", "virtual machine", "vm", "box", "host", "ec2"),
    ("schedule", "scheduled", "nightly", "overnight", "out of hours", "working hours", "cron"),
    ("shut down", "shutdown", "stop", "power off", "turn off"),
    ("scale", "scaling", "autoscaling", "autoscaler", "capacity"),
    ("sign in", "login", "log in", "single sign on", "sso", "identity provider"),
    ("permission", "permissions", "access control", "rbac", "authorisation", "authorization"),
    ("certificate", "certificates", "cert", "certs", "tls", "ssl"),
    ("dns", "domain", "domains", "hostname", "zone", "route53"),
    ("monitoring", "metrics", "alerting", "alerts", "observability", "prometheus", "grafana"),
    ("database", "db", "postgres", "postgresql", "mysql", "rds"),
    ("container", "containers", "docker", "image", "images"),
    ("kubernetes", "k8s", "cluster", "clusters", "orchestration"),
    ("network", "vpc", "subnet", "subnets", "cidr", "ip range", "ip ranges", "ip address"),
    ("firewall", "security group", "waf", "network policy", "allowlist", "whitelist"),
    ("storage", "bucket", "buckets", "s3", "object store"),
    ("backup", "backups", "snapshot", "snapshots", "restore", "disaster recovery"),
    ("test", "tests", "testing", "test suite", "smoke test"),
    ("terraform", "infrastructure as code", "iac", "cloudformation"),
    ("repository", "repositories", "repo", "repos", "source control", "version control"),
    ("pull request", "pull requests", "merge request", "code review", "approval", "approvals"),
    ("cost", "costs", "spend", "billing", "budget"),
    ("region", "regions", "data centre", "data center", "availability zone"),
    ("load balancer", "load balancers", "lb", "elb", "alb", "ingress"),
    ("queue", "queues", "message broker", "sqs", "rabbitmq", "kafka"),
    ("patch", "patching", "upgrade", "upgrades", "vulnerability", "vulnerabilities"),
    ("environment", "environments", "staging", "production", "non-production", "preprod"),
    ("configuration management", "puppet", "ansible", "chef", "salt"),
    ("programming language", "language", "languages", "golang", "python", "ruby", "bash"),
    ("account", "accounts", "aws account", "subscription"),
    ("deploy", "deploys", "deployment", "deployments", "release", "releases", "rollout"),
    ("search", "elasticsearch", "opensearch", "kibana"),
    ("email", "emails", "mail", "smtp", "notify"),
    ("alert", "incident", "incidents", "on call", "pager", "pagerduty"),
]

_INDEX: dict[tuple[str, ...], list[int]] = {}  # a member's terms -> groups holding it


def _members(group: Iterable[str]) -> list[tuple[str, ...]]:
    return [t for t in (tuple(terms(m)) for m in group) if t]


def _build() -> None:
    _INDEX.clear()
    for i, group in enumerate(CONCEPTS):
        for member in _members(group):
            _INDEX.setdefault(member, []).append(i)


def add_concept(*words: str) -> None:
    """Teach one more group of interchangeable words (``add_concept("ticket", "jira")``)."""
    group = tuple(w for w in words if isinstance(w, str) and terms(w))
    if len(group) < 2 or len(group) != len(words):
        raise InvalidInput("concept", "needs two or more words or phrases", "e.g. 'ticket', 'jira'")
    CONCEPTS.append(group)
    _build()


def related_terms(question_terms: Iterable[str], known: Mapping[str, object]) -> dict[str, str]:
    """Terms of the concepts the question names, that it does not use and the index
    ``known`` has, each with the question term it stands in for."""
    if not _INDEX:
        _build()
    seq = list(question_terms)
    present = set(seq)
    out: dict[str, str] = {}
    for member, groups in _INDEX.items():
        if not set(member) <= present:
            continue
        origin = member[-1]
        for i in groups:
            for other in _members(CONCEPTS[i]):
                # a phrase names the concept only whole: its words alone say other things
                term = other[0] if len(other) == 1 else None
                if term and term not in present and term in known and term not in out:
                    out[term] = origin
    return out
