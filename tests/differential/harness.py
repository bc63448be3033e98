"""Run hiera-ls and Puppet on the same environment and compare them answer by answer.

Shared by the random differential test and the hand-written cases.  Values are compared with
Ruby/JSON typing (``1``, ``1.0`` and ``true`` differ; hash key order matters because Puppet's
merge order is observable).  Error messages are compared after normalising paths; whether a
mismatching message fails the test is a policy (``HIERA_LS_DIFF_MESSAGES``):

- ``report`` (default): found/not-found/error must agree and values must be equal; messages
  that differ are listed (warnings and the terminal summary) but do not fail.
- ``fail``: messages must also agree, after the normalisation in :func:`normalise_message`.
- ``exact``: messages must agree after path normalisation only.
- ``off``: messages are not compared.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hiera_ls.project.targets import DEFAULT_TARGET, Target
from tests.differential.generator import GeneratedEnv, Lookup, write_files
from tests.differential.known_differences import DOC, documented
from tests.oracle.engines import PuppetEngine, settings_flags
from tests.oracle.puppet import OracleError, PuppetOracle

MESSAGE_POLICIES = ("report", "fail", "exact", "off")
DEFAULT_SEEDS = "150"  # 150 environments, about 6,000 lookups


def parse_seeds(spec: str) -> list[int]:
    spec = spec.strip()
    if spec.isdigit():
        return list(range(int(spec)))
    seeds: list[int] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            lo, hi = part.split("-", 1)
            seeds.extend(range(int(lo), int(hi) + 1))
        else:
            seeds.append(int(part))
    return seeds


CLI_TIMEOUT = 300.0


def message_policy() -> str:
    policy = os.environ.get("HIERA_LS_DIFF_MESSAGES", "report")
    if policy not in MESSAGE_POLICIES:
        raise ValueError(
            f"HIERA_LS_DIFF_MESSAGES must be one of {MESSAGE_POLICIES}, got {policy!r}"
        )
    return policy


def hiera_ls_command() -> list[str]:
    """``sys.executable -m hiera_ls``, or ``HIERA_LS_DIFF_CMD`` (e.g. to smoke-test the
    plumbing).
    """
    override = os.environ.get("HIERA_LS_DIFF_CMD")
    return shlex.split(override) if override else [sys.executable, "-m", "hiera_ls"]


# ----------------------------------------------------------------------------------------------
# Comparing answers


def outcome(answer: dict[str, Any]) -> str:
    if "error" in answer:
        return "error"
    return "found" if answer.get("found") else "not_found"


def same_value(a: Any, b: Any) -> bool:
    """Equality with Ruby's distinctions: bool/int/float never equal, hash order matters."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)  # -0.0 prints differently
    return bool(a == b)


_ORACLE_TMP = re.compile(r"/tmp/hiera-ls-oracle-[^/\s'\")]+")


def normalise_paths(message: str, base: Path) -> str:
    for root in {str(base), str(base.resolve())}:
        message = message.replace(root, "<BASE>")
    return _ORACLE_TMP.sub("<ORACLE_TMP>", message).strip()


_PSYCH_DETAIL = re.compile(r"(Unable to parse \([^)]*\)): .*", re.S)


def normalise_message(message: str, base: Path) -> str:
    """Paths made relative, and the parts Puppet does not own cut off.

    Psych's own parser messages (after ``Unable to parse (FILE):``) cannot be reproduced by
    another YAML parser; Ruby 3.1's error_highlight appends a source snippet after a blank line.
    """
    message = normalise_paths(message, base)
    message = message.split("\n\n", 1)[0]
    return _PSYCH_DETAIL.sub(r"\1: <parser message>", message).strip()


@dataclass
class Mismatch:
    index: int
    lookup: Lookup
    puppet: dict[str, Any]
    hiera_ls: dict[str, Any]
    kind: str  # outcome | value | message
    documented: str | None = None  # the known difference (known_differences.py) it is

    def describe(self, base: Path) -> str:
        return (
            f"  lookup #{self.index}: key={self.lookup.key!r} "
            f"merge={json.dumps(self.lookup.merge)} [{self.kind}]\n"
            f"    puppet  : {_show(self.puppet, base)}\n"
            f"    hiera-ls: {_show(self.hiera_ls, base)}"
        )


def _show(answer: dict[str, Any], base: Path) -> str:
    shown = {k: v for k, v in answer.items() if k in ("found", "value", "error")}
    return normalise_paths(json.dumps(shown, ensure_ascii=False, allow_nan=True), base)


def compare(
    lookups: Sequence[Lookup],
    puppet: Sequence[dict[str, Any]],
    hiera_ls: Sequence[dict[str, Any]],
    base: Path,
    policy: str,
    engine: str = "puppet7",
    target: Target = DEFAULT_TARGET,
) -> list[Mismatch]:
    """Every lookup answered otherwise; one a listed difference between the reference
    Puppets explains (known_differences.py) carries its name."""
    out: list[Mismatch] = []
    for i, (lookup, p, h) in enumerate(zip(lookups, puppet, hiera_ls, strict=True)):
        po, ho = outcome(p), outcome(h)
        kind = None
        if po != ho:
            kind = "outcome"
        elif po == "found" and not same_value(p.get("value"), h.get("value")):
            kind = "value"
        elif po == "error" and policy != "off":
            norm = normalise_paths if policy == "exact" else normalise_message
            if norm(str(p["error"]), base) != norm(str(h["error"]), base):
                kind = "message"
        if kind is not None:
            known = documented(engine, target, p, h)
            out.append(Mismatch(i, lookup, p, h, kind, known.anchor if known else None))
    return out


def failing(mismatches: Sequence[Mismatch], policy: str) -> list[Mismatch]:
    """The mismatches that fail a test under ``policy`` (a documented one never does)."""
    if policy in ("fail", "exact"):
        return [m for m in mismatches if m.documented is None]
    return [m for m in mismatches if m.kind != "message" and m.documented is None]


# ----------------------------------------------------------------------------------------------
# Running hiera-ls


class HieraLsRunError(AssertionError):
    pass


def start_hiera_ls(
    env: GeneratedEnv, target: Target, lookups: Sequence[Lookup]
) -> subprocess.Popen[str]:
    """Start the batch process; the caller asks the oracle meanwhile and then calls ``finish``."""
    proc = subprocess.Popen(
        [*hiera_ls_command(), *env.cli_args(target)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        cwd=env.base,
    )
    return proc


def finish_hiera_ls(
    proc: subprocess.Popen[str], env: GeneratedEnv, lookups: Sequence[Lookup]
) -> list[dict[str, Any]]:
    try:
        stdout, stderr = proc.communicate(env.batch_input(lookups), timeout=CLI_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        raise HieraLsRunError(
            f"hiera-ls did not finish within {CLI_TIMEOUT}s\n{stderr[-3000:]}"
        ) from None
    lines = [line for line in stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or len(lines) != len(lookups):
        raise HieraLsRunError(
            f"hiera-ls lookup --batch exited {proc.returncode} with {len(lines)} answers for "
            f"{len(lookups)} lookups\n"
            f"command: {shlex.join([*hiera_ls_command(), *env.cli_args()])}\n--- stderr ---\n"
            f"{stderr[-3000:]}"
        )
    answers: list[dict[str, Any]] = []
    for line in lines:
        try:
            answer = json.loads(line)
        except ValueError as e:
            raise HieraLsRunError(f"hiera-ls printed a line that is not JSON: {line!r}") from e
        if not isinstance(answer, dict):
            raise HieraLsRunError(f"hiera-ls printed {line!r}, not an object")
        answers.append(answer)
    return answers


@dataclass
class RunResult:
    env: GeneratedEnv
    target: Target
    engine: PuppetEngine
    puppet: list[dict[str, Any]]
    hiera_ls: list[dict[str, Any]]
    mismatches: list[Mismatch] = field(default_factory=list)
    seconds_hiera_ls: float = 0.0


def run_both(
    env: GeneratedEnv,
    oracle: PuppetOracle,
    target: Target = DEFAULT_TARGET,
    lookups: Sequence[Lookup] | None = None,
    policy: str | None = None,
) -> RunResult:
    """hiera-ls with ``--target`` and the oracle's Puppet with that target's defaults."""
    chosen = list(env.lookups if lookups is None else lookups)
    started = time.perf_counter()
    proc = start_hiera_ls(env, target, chosen)
    try:
        puppet = oracle.lookup_batch(env.oracle_request(target, chosen))
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    ours = finish_hiera_ls(proc, env, chosen)
    elapsed = time.perf_counter() - started
    result = RunResult(env, target, oracle.engine, puppet, ours, seconds_hiera_ls=elapsed)
    result.mismatches = compare(
        chosen, puppet, ours, env.base, policy or message_policy(), oracle.engine.name, target
    )
    return result


# ----------------------------------------------------------------------------------------------
# Hand-written environments


def env_from_files(
    label: str,
    base: Path,
    files: dict[str, str],
    facts: dict[str, Any],
    lookups: Sequence[Lookup],
    node: str,
    environment: str = "production",
    global_config: str | None = None,
) -> GeneratedEnv:
    """Lay out ``files`` (paths relative to ``base``; environments live under ``environments/``)."""
    base = base.resolve()
    all_files = dict(files)
    all_files["facts.json"] = json.dumps(facts, ensure_ascii=False, indent=2) + "\n"
    write_files(all_files, base)
    return GeneratedEnv(
        seed=-1,
        base=base,
        environmentpath=base / "environments",
        environment=environment,
        node=node,
        facts=facts,
        facts_path=base / "facts.json",
        hiera_config=base / global_config if global_config else None,
        lookups=list(lookups),
        files=all_files,
        features=Counter(),
        label=label,
    )


# ----------------------------------------------------------------------------------------------
# Reproductions


def rebase(env: GeneratedEnv, new_base: Path, files: dict[str, str]) -> GeneratedEnv:
    """The same environment laid out again under ``new_base`` with only ``files``."""
    write_files(files, new_base)

    def moved(p: Path) -> Path:
        return new_base / p.relative_to(env.base)

    moved(env.env_dir).mkdir(parents=True, exist_ok=True)  # even when no file inside is kept

    return dataclasses.replace(
        env,
        base=new_base,
        environmentpath=moved(env.environmentpath),
        facts_path=moved(env.facts_path),
        hiera_config=moved(env.hiera_config) if env.hiera_config else None,
        files=dict(files),
    )


def minimise(
    env: GeneratedEnv,
    mismatch: Mismatch,
    oracle: PuppetOracle,
    target: Target,
    deadline_s: float = 60.0,
) -> dict[str, str]:
    """Greedily drop files while the same lookup still mismatches (same kind of mismatch)."""
    files = dict(env.files)
    keep = {str(env.facts_path.relative_to(env.base))}
    started = time.monotonic()
    policy = "exact" if mismatch.kind == "message" else "report"

    def still_fails(candidate: dict[str, str]) -> bool:
        with tempfile.TemporaryDirectory(prefix="hiera-ls-min-") as tmp:
            small = rebase(env, Path(tmp).resolve(), candidate)
            try:
                result = run_both(small, oracle, target, [mismatch.lookup], policy)
            except (HieraLsRunError, OracleError):
                return False
            return any(m.kind == mismatch.kind and not m.documented for m in result.mismatches)

    for rel in sorted(files, key=lambda r: (r.endswith("hiera.yaml"), r)):
        if rel in keep or time.monotonic() - started > deadline_s:
            continue
        candidate = {k: v for k, v in files.items() if k != rel}
        if still_fails(candidate):
            files = candidate
    return files


def reproduction(
    result: RunResult,
    mismatches: Sequence[Mismatch],
    files: dict[str, str] | None = None,
    limit: int = 8,
) -> str:
    env = result.env
    shown_files = env.files if files is None else files
    what = f"case {env.label}" if env.label else f"seed {env.seed}"
    lines = [
        f"{what}: {len(mismatches)} of {len(result.puppet)} lookups differ from "
        f"{result.engine.title} (target {result.target.name})",
    ]
    if not env.label:
        lines.append(
            f"regenerate: python -m tests.differential.report --write {env.seed} DIR "
            f"--target {result.target.name} --engine {result.engine.name}"
        )
    lines += [m.describe(env.base) for m in mismatches[:limit]]
    if len(mismatches) > limit:
        lines.append(f"  ... and {len(mismatches) - limit} more")
    first = mismatches[0]
    cmd = ["hiera-ls", *env.cli_args(result.target)]
    cmd.remove("--batch")
    lines.append("one lookup by hand (in DIR):")
    lines.append(
        "  "
        + normalise_paths(
            shlex.join([*cmd, first.lookup.key, *_merge_flags(first.lookup.merge)]), env.base
        )
    )
    lines.append(
        "  "
        + normalise_paths(
            shlex.join(
                result.engine.shown(puppet_lookup_command(env, first.lookup, result.target))
            ),
            env.base,
        )
    )
    title = (
        "files"
        if files is None
        else f"files (minimised for lookup #{first.index}: {len(files)} of {len(env.files)})"
    )
    lines.append(f"{title}, relative to <BASE>:")
    for rel in sorted(shown_files):
        if rel.endswith("/"):
            lines.append(f"--- {rel} (directory)")
            continue
        lines.append(f"--- {rel}")
        lines.extend("    " + x for x in normalise_paths(shown_files[rel], env.base).splitlines())
    return "\n".join(lines)


def _merge_flags(merge: Any) -> list[str]:
    if merge is None:
        return []
    if isinstance(merge, str):
        return ["--merge", merge]
    flags = ["--merge", str(merge.get("strategy"))]
    if merge.get("knockout_prefix") is not None:
        flags += ["--knock-out-prefix", str(merge["knockout_prefix"])]
    if merge.get("sort_merged_arrays"):
        flags.append("--sort-merged-arrays")
    if merge.get("merge_hash_arrays"):
        flags.append("--merge-hash-arrays")
    return flags


def puppet_lookup_command(
    env: GeneratedEnv, lookup: Lookup, target: Target = DEFAULT_TARGET
) -> list[str]:
    """The `puppet lookup` run the oracle stands for (LookupErrors only show with --explain;
    under a target without legacy facts, the oracle is given the facts without them)."""
    cmd = [
        "puppet", "lookup",
        "--environmentpath", str(env.environmentpath),
        "--environment", env.environment,
        "--node", env.node,
        "--facts", str(env.facts_path),
        "--hiera_config", str(env.hiera_config) if env.hiera_config else "<empty dir>/hiera.yaml",
        "--basemodulepath", "<empty dir>",
        *settings_flags(target),
        "--render-as", "json",
    ]  # fmt: skip
    return [*cmd, *_merge_flags(lookup.merge), lookup.key]


# ----------------------------------------------------------------------------------------------
# Session statistics (kept on pytest's config, printed in the terminal summary)


@dataclass
class DiffStats:
    envs: int = 0
    lookups: int = 0
    puppet_outcomes: dict[str, int] = field(
        default_factory=lambda: {"found": 0, "not_found": 0, "error": 0}
    )
    mismatches: dict[str, int] = field(
        default_factory=lambda: {"outcome": 0, "value": 0, "message": 0}
    )
    message_examples: list[str] = field(default_factory=list)
    documented: Counter[str] = field(default_factory=Counter)  # (engine, anchor) -> lookups
    by_engine: Counter[str] = field(default_factory=Counter)  # engine -> lookups compared
    minimised: int = 0
    seconds_hiera_ls: float = 0.0

    def record(self, result: RunResult) -> None:
        self.envs += 1
        self.lookups += len(result.puppet)
        self.seconds_hiera_ls += result.seconds_hiera_ls
        for answer in result.puppet:
            self.puppet_outcomes[outcome(answer)] += 1
        self.by_engine[result.engine.title] += len(result.puppet)
        for m in result.mismatches:
            if m.documented is not None:
                self.documented[f"{result.engine.title}: {m.documented}"] += 1
                continue
            self.mismatches[m.kind] += 1
            if m.kind == "message" and len(self.message_examples) < 20:
                what = result.env.label or f"seed {result.env.seed}"
                self.message_examples.append(f"{what}\n{m.describe(result.env.base)}")

    def may_minimise(self) -> bool:
        budget = int(os.environ.get("HIERA_LS_DIFF_MINIMISE", "3"))
        if self.minimised >= budget:
            return False
        self.minimised += 1
        return True

    def summary(self) -> list[str]:
        if not self.envs:
            return []
        po = self.puppet_outcomes
        lines = [
            f"{self.lookups} lookups in {self.envs} environments; Puppet: {po['found']} found, "
            f"{po['not_found']} not found, {po['error']} errors",
            f"hiera-ls differs: {self.mismatches['outcome']} outcomes, {self.mismatches['value']} "
            f"values, {self.mismatches['message']} error messages (policy: {message_policy()})",
        ]
        lines.append(
            "compared per Puppet: "
            + ", ".join(f"{engine} {n} lookups" for engine, n in sorted(self.by_engine.items()))
        )
        for what, n in sorted(self.documented.items()):
            lines.append(f"documented difference ({DOC}): {what}: {n} lookups")
        if self.message_examples:
            lines.append("first differing error messages:")
            lines.extend(self.message_examples)
        return lines
