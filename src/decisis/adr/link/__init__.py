"""Linking: which record replaced which. Rules (``rules``) propose ``supersedes`` links from
what records say, each rule with a Beta trust (``trust``); ``ingest`` writes records and
links into the graph in one append; ``view`` is what answering reads of them."""
