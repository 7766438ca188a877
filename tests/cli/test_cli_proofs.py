"""``decisis key new``, ``checkpoint``, ``verify --checkpoint`` and ``prove`` through real
processes, and the standalone verifier run with nothing of decisis but ``proof.py``."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import cryptography

import decisis.proof


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DECISIS_")}
    return env | {"COLUMNS": "250", "NO_COLOR": "1"} | extra


def run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "decisis", "--store", f"sqlite:///{tmp / 'd.db'}", *args],
        cwd=tmp, env=_env(), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def ok(tmp: Path, *args: str) -> str:
    done = run(tmp, *args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def test_key_new_writes_a_private_key_only_its_owner_reads_and_never_overwrites(
    tmp_path: Path,
) -> None:
    out = ok(tmp_path, "--json", "key", "new", str(tmp_path / "k"))
    made = json.loads(out)
    assert made["key_id"].startswith("ed25519:")
    assert stat.S_IMODE((tmp_path / "k").stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in (tmp_path / "k").read_bytes()
    assert b"PUBLIC KEY" in (tmp_path / "k.pub").read_bytes()
    before = (tmp_path / "k").read_bytes()
    again = run(tmp_path, "key", "new", str(tmp_path / "k"))
    assert again.returncode == 2 and "already exists" in again.stderr
    assert (tmp_path / "k").read_bytes() == before
    (tmp_path / "j.pub").write_text("mine")  # the public half's place taken: nothing written
    refused = run(tmp_path, "key", "new", str(tmp_path / "j"))
    assert refused.returncode == 2 and not (tmp_path / "j").exists()


def test_checkpoint_verify_and_prove_end_to_end(tmp_path: Path) -> None:
    ok(tmp_path, "key", "new", str(tmp_path / "k"))
    goal = json.loads(ok(tmp_path, "--json", "add", "goal", "Ship provenance"))["id"]
    old = tmp_path / "old.json"
    printed = json.loads(
        ok(tmp_path, "checkpoint", "--key", str(tmp_path / "k"), "--out", str(old))
    )
    assert printed == json.loads(old.read_text()) and printed["size"] == 1
    ok(tmp_path, "add", "goal", "Another")
    new = tmp_path / "new.json"
    ok(tmp_path, "checkpoint", "--key", str(tmp_path / "k"), "-o", str(new))
    verified = ok(tmp_path, "verify", "--checkpoint", str(old), "--key", str(tmp_path / "k.pub"))
    assert "ok" in verified and "signed checkpoint" in verified
    # an inclusion proof on stdout, checked by the standalone verifier
    proof = ok(tmp_path, "prove", goal[:10], "--checkpoint", str(new))
    (tmp_path / "proof.json").write_text(proof)
    checked = subprocess.run(
        [sys.executable, "-m", "decisis.proof", "verify", str(tmp_path / "proof.json"),
         "--key", str(tmp_path / "k.pub")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert checked.returncode == 0 and "ok: the proof holds" in checked.stdout, checked.stderr
    consistency = ok(tmp_path, "prove", "--from", str(old), "--to", str(new))
    assert json.loads(consistency)["type"] == "consistency"
    backwards = run(tmp_path, "prove", "--from", str(new), "--to", str(old))
    assert backwards.returncode == 2 and "newer than --to" in backwards.stderr
    neither = run(tmp_path, "prove")
    assert neither.returncode == 2 and "--from OLD --to NEW" in neither.stderr


def test_verify_names_a_cut_tail_and_exits_1(tmp_path: Path) -> None:
    ok(tmp_path, "key", "new", str(tmp_path / "k"))
    ok(tmp_path, "add", "goal", "One")
    ok(tmp_path, "add", "goal", "Two")
    ok(tmp_path, "checkpoint", "--key", str(tmp_path / "k"), "--out", str(tmp_path / "c.json"))
    with sqlite3.connect(tmp_path / "d.db") as conn:  # drop the last entry, move the head
        (seq,) = conn.execute("SELECT max(seq) FROM ledger").fetchone()
        (node,) = conn.execute("SELECT entity FROM ledger WHERE seq = ?", (seq,)).fetchone()
        conn.execute("DELETE FROM ledger WHERE seq = ?", (seq,))
        conn.execute("DELETE FROM nodes WHERE id = ?", (node,))
        conn.execute(
            "UPDATE heads SET seq = ?, checksum = (SELECT checksum FROM ledger WHERE seq = ?)",
            (seq - 1, seq - 1),
        )
    assert run(tmp_path, "verify").returncode == 0  # the chain alone is fooled
    args = ("verify", "--checkpoint", str(tmp_path / "c.json"), "--key", str(tmp_path / "k.pub"))
    done = run(tmp_path, *args)
    assert done.returncode == 1 and "dropped from the tail" in done.stdout
    report = json.loads(run(tmp_path, "--json", *args).stdout)
    assert report["ok"] is False and report["first_bad_seq"] == seq
    missing = run(tmp_path, "verify", "--checkpoint", str(tmp_path / "c.json"))
    assert missing.returncode == 2 and "--key" in missing.stderr


def test_the_verifier_needs_nothing_of_decisis_but_its_own_file(tmp_path: Path) -> None:
    """``python -S`` skips site-packages (and decisis's editable path); the path holds a
    copy of proof.py as ``decisis/proof.py`` and where ``cryptography`` is installed."""
    ok(tmp_path, "key", "new", str(tmp_path / "k"))
    node = json.loads(ok(tmp_path, "--json", "add", "goal", "Alone"))["id"]
    ok(tmp_path, "checkpoint", "--key", str(tmp_path / "k"), "--out", str(tmp_path / "c.json"))
    (tmp_path / "proof.json").write_text(ok(tmp_path, "prove", node, "--checkpoint", "c.json"))
    alone = tmp_path / "alone"
    (alone / "decisis").mkdir(parents=True)
    shutil.copy(decisis.proof.__file__, alone / "decisis" / "proof.py")
    crypto_home = str(Path(cryptography.__file__).parents[1])
    env = _env(PYTHONPATH=os.pathsep.join([str(alone), crypto_home]))
    env.pop("PYTHONHOME", None)

    def verifier(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-S", *args], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip

    assert verifier("-c", "import decisis.graph").returncode != 0  # no decisis here
    done = verifier("-m", "decisis.proof", "verify", "proof.json", "--key", "k.pub")
    assert done.returncode == 0 and "ok: the proof holds" in done.stdout, done.stderr
    proof = json.loads((tmp_path / "proof.json").read_text())
    proof["entries"][0]["path"] = ["00" * 32]
    (tmp_path / "bent.json").write_text(json.dumps(proof))
    bent = verifier("-m", "decisis.proof", "verify", "bent.json", "--key", "k.pub")
    assert bent.returncode == 1 and "not included" in bent.stderr
