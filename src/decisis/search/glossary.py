"""Abbreviations every engineer knows, so a question and a record can spell them differently.

Records define some abbreviations themselves ("Modernisation Platform (MP)"), and
``decisis.search.terms`` learns those; the common ones they never spell out: a record
says "AWS SSO" and the question asks about "single sign-on". :func:`spelled_both_ways`
adds the other spelling of each abbreviation a text uses, in either direction, so the
term index can match it. The list holds general industry usage only, nothing of one
team or corpus; teams extend it with :func:`add_abbreviation`.
"""

from __future__ import annotations

import re
from collections.abc import Container

from decisis.errors import InvalidInput

__all__ = ["ABBREVIATIONS", "add_abbreviation", "spelled_both_ways"]

ABBREVIATIONS: dict[str, str] = {
    "acl": "access control list",
    "ami": "amazon machine image",
    "api": "application programming interface",
    "cdn": "content delivery network",
    "ci": "continuous integration",
    "cd": "continuous delivery",
    "cli": "command line interface",
    "cms": "content management system",
    "cve": "common vulnerabilities and exposures",
    "dns": "domain name system",
    "dr": "disaster recovery",
    "ec2": "elastic compute cloud",
    "ecr": "elastic container registry",
    "ecs": "elastic container service",
    "eks": "elastic kubernetes service",
    "elb": "elastic load balancer",
    "fqdn": "fully qualified domain name",
    "gke": "google kubernetes engine",
    "hpa": "horizontal pod autoscaler",
    "iac": "infrastructure as code",
    "iam": "identity and access management",
    "idp": "identity provider",
    "jml": "joiners movers and leavers",
    "k8s": "kubernetes",
    "kms": "key management service",
    "lb": "load balancer",
    "mfa": "multi factor authentication",
    "nat": "network address translation",
    "oidc": "openid connect",
    "pr": "pull request",
    "rbac": "role based access control",
    "rds": "relational database service",
    "s3": "simple storage service",
    "saml": "security assertion markup language",
    "scim": "system for cross domain identity management",
    "sla": "service level agreement",
    "slo": "service level objective",
    "sns": "simple notification service",
    "sqs": "simple queue service",
    "ssm": "systems manager",
    "sso": "single sign on",
    "ssl": "secure sockets layer",
    "tls": "transport layer security",
    "ttl": "time to live",
    "vm": "virtual machine",
    "vpc": "virtual private cloud",
    "vpn": "virtual private network",
    "waf": "web application firewall",
}

_WORD = re.compile(r"[a-z0-9]+")
_SHORT = re.compile(r"^[a-z][a-z0-9]{1,7}$")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def add_abbreviation(short: str, long: str) -> None:
    """Teach one more abbreviation (``add_abbreviation("pii", "personal data")``)."""
    key = short.strip().lower()
    if not _SHORT.match(key):
        raise InvalidInput("abbreviation", f"{short!r} is not one short word", "2-8 letters/digits")
    if len(_words(long)) < 1:
        raise InvalidInput("abbreviation", f"{long!r} has no words", "the words it stands for")
    ABBREVIATIONS[key] = " ".join(_words(long))


def spelled_both_ways(text: str, *, known: Container[str] = ()) -> list[str]:
    """The other spelling of each abbreviation ``text`` uses: short forms for the long
    ones it spells out (hyphens and case aside), and long forms for the short ones it
    has that are not ``known`` (a short form the records use finds them by itself, and
    its long form's common words, "cloud" of "elastic compute cloud", would only add
    noise)."""
    words = _words(text)
    joined = " " + " ".join(words) + " "
    present = set(words)
    out: list[str] = []
    for short, long in ABBREVIATIONS.items():
        if short in present:
            if short not in known and f" {long} " not in joined:
                out.append(long)
        elif f" {long} " in joined:
            out.append(short)
    return out
