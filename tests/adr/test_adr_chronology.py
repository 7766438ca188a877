"""When records were written: dates, and numbers where dates are missing."""

from __future__ import annotations

import datetime as dt

from decisis.adr.read.chronology import written_at

D = dt.date


def test_an_undated_record_follows_the_dates_of_the_records_numbered_before_it() -> None:
    when = written_at(
        [
            ("t:1", "t", 1, None),
            ("t:2", "t", 2, D(2021, 5, 1)),
            ("t:3", "t", 3, None),
            ("t:4", "t", 4, D(2020, 1, 1)),  # written back in time: its own date stands
        ]
    )
    assert when["t:1"] == (D.min, 1)  # nothing dated before it: the oldest
    assert when["t:3"] == (D(2021, 5, 1), 3)
    assert when["t:2"] < when["t:3"]
    assert when["t:4"] == (D(2020, 1, 1), 4)


def test_folders_keep_their_own_dates_and_unnumbered_records_their_own() -> None:
    when = written_at(
        [
            ("a:1", "a", 1, D(2022, 1, 1)),
            ("b:1", "b", 1, None),
            ("a:notes", "a", None, None),
        ]
    )
    assert when["b:1"] == (D.min, 1) and when["a:notes"] == (D.min, -1)
