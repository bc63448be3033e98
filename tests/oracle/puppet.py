"""Python side of the oracle: one long-lived Ruby process running Psych, Ruby and Puppet.

Starting Puppet costs about a second, so one process answers every request of a test session
(``puppet_oracle.rb`` next to this file; its header documents the commands and the one
encoding of values, whose Python side is ``values.py``).  Requests are serialised through a
lock because the Ruby side answers strictly in order.  The session fixture is
``puppet_oracle`` in ``tests/conftest.py``: one process per reference Puppet
(tests/oracle/engines.py).
"""

from __future__ import annotations

import collections
import json
import os
import queue
import subprocess
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from tests.oracle.engines import PUPPET7, PuppetEngine
from tests.oracle.values import encode

ORACLE_SCRIPT = Path(__file__).with_name("puppet_oracle.rb")
DEFAULT_TIMEOUT = 300.0


class OracleError(RuntimeError):
    """The oracle process died, timed out, or could not serve a request at all."""


def _pump_lines(stream: IO[str], sink: queue.Queue[str | None]) -> None:
    for line in stream:
        sink.put(line)
    sink.put(None)


def _keep_tail(stream: IO[str], tail: collections.deque[str]) -> None:
    for line in stream:
        tail.append(line)


class PuppetOracle:
    """Ruby's and Puppet's own answers, one method per oracle command.

    ``lookup_batch({"environmentpath": ..., "environment": ..., "node": ..., "facts": {...},
    "hiera_config": None, "strict_variables": True, "lookups": [{"key": k, "merge": m}]})``
    returns one dict per lookup: ``{"found": True, "value": v}``, ``{"found": False}`` or
    ``{"error": message}`` (plus ``error_class`` / ``lookup_error`` that comparisons ignore).
    The other methods take Python values (encoded with ``values.encode``) and return one
    result per input, with values still in the oracle's encoding (compare them through
    ``values.canonical``, read them with ``values.decode``).
    """

    def __init__(
        self,
        engine: PuppetEngine = PUPPET7,
        script: Path = ORACLE_SCRIPT,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.engine = engine
        self._cmd = engine.command(["ruby", str(script)])
        self._timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=200)
        self._lock = threading.Lock()
        self.puppet_version = ""
        self.last_warnings: list[str] = []

    def __enter__(self) -> PuppetOracle:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def start(self) -> None:
        if self._proc is not None:
            return
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self._proc = subprocess.Popen(
            self._cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
            env=env,
        )
        assert self._proc.stdout is not None and self._proc.stderr is not None
        threading.Thread(
            target=_pump_lines, args=(self._proc.stdout, self._lines), daemon=True
        ).start()
        threading.Thread(
            target=_keep_tail, args=(self._proc.stderr, self._stderr), daemon=True
        ).start()
        ready = self._read_answer()
        if not ready.get("ready"):
            raise OracleError(f"unexpected greeting from the oracle: {ready!r}")
        self.puppet_version = str(ready.get("puppet", ""))

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        assert proc.stdin is not None
        try:
            proc.stdin.close()
            proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()

    def request(self, env_request: Mapping[str, Any]) -> dict[str, Any]:
        """Send one request; return the whole answer (``results`` and ``warnings``)."""
        with self._lock:
            if self._proc is None:
                self.start()
            assert self._proc is not None and self._proc.stdin is not None
            try:
                self._proc.stdin.write(json.dumps(env_request, allow_nan=True) + "\n")
                self._proc.stdin.flush()
            except OSError as e:
                raise OracleError(f"the oracle process is gone: {e}{self._stderr_tail()}") from e
            answer = self._read_answer()
        if "fatal" in answer:
            raise OracleError(f"the oracle could not serve the request: {answer['fatal']}")
        self.last_warnings = list(answer.get("warnings", []))
        return answer

    def call(self, command: str, **fields: Any) -> list[dict[str, Any]]:
        """Run one command of the Ruby side; its ``results``, one per input."""
        results = self.request({"command": command, **fields})["results"]
        assert isinstance(results, list)
        return results

    def lookup_batch(self, env_request: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Puppet's lookup of each key, as ``puppet lookup --render-as json`` would answer."""
        return self.call("lookup", **env_request)

    def load_yaml(self, texts: Sequence[str]) -> list[dict[str, Any]]:
        """``{"ok": value}`` or ``{"error": message}``: Psych as Puppet's yaml_data runs it."""
        return self.call("load_yaml", texts=list(texts))

    def load_json(self, texts: Sequence[str]) -> list[dict[str, Any]]:
        """``{"ok": value}`` or ``{"error": message}``: JSON.parse as Puppet's json_data runs it."""
        return self.call("load_json", texts=list(texts))

    def merge(self, cases: Sequence[tuple[object, object, object]]) -> list[dict[str, Any]]:
        """``MergeStrategy.strategy(spec).merge(a, b)`` for each ``(spec, a, b)``."""
        return self.call(
            "merge",
            cases=[{"spec": encode(s), "a": encode(a), "b": encode(b)} for s, a, b in cases],
        )

    def merge_lookup(
        self, cases: Sequence[tuple[object, Sequence[object]]], not_found: object
    ) -> list[dict[str, Any]]:
        """``MergeStrategy#lookup`` over variants; a variant that ``is not_found`` is not found.

        Each result is ``{"ok": value}``, ``{"not_found": True}`` or ``{"error": message}``.
        """
        return self.call(
            "merge_lookup",
            cases=[
                {
                    "spec": encode(spec),
                    "values": [{"not_found": True} if v is not_found else encode(v) for v in vs],
                }
                for spec, vs in cases
            ],
        )

    def merge_strategy(self, specs: Sequence[object]) -> list[dict[str, Any]]:
        """``{"ok": {"key": class key, "options": value}}``: the strategy a merge spec makes."""
        return self.call("merge_strategy", specs=[encode(s) for s in specs])

    def sort(self, values: Sequence[object]) -> list[dict[str, Any]]:
        """``Array#sort`` of each value."""
        return self.call("sort", values=[encode(v) for v in values])

    def inspect(self, values: Sequence[object]) -> list[dict[str, Any]]:
        """``{"ok": {"inspect": text, "to_s": text}}`` for each value."""
        return self.call("inspect", values=[encode(v) for v in values])

    def infer_type(self, values: Sequence[object]) -> list[dict[str, Any]]:
        """``{"ok": text}``: ``TypeCalculator#infer_set(v).normalize.to_s``."""
        return self.call("infer_type", values=[encode(v) for v in values])

    def render(self, values: Sequence[object]) -> list[dict[str, Any]]:
        """``{"ok": {"yaml": S, "json": S, "s": S}}``: what `puppet lookup --render-as`
        prints for each value (a format that fails holds ``{"error": MSG}``)."""
        return self.call("render", values=[encode(v) for v in values])

    def _read_answer(self) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=self._timeout)
        except queue.Empty:
            raise OracleError(
                f"the oracle did not answer within {self._timeout}s{self._stderr_tail()}"
            ) from None
        if line is None:
            raise OracleError(f"the oracle process exited{self._stderr_tail()}")
        answer = json.loads(line)
        if not isinstance(answer, dict):
            raise OracleError(f"the oracle answered {line!r}")
        return answer

    def _stderr_tail(self) -> str:
        tail = "".join(self._stderr).strip()
        return f"\n--- oracle stderr ---\n{tail}" if tail else ""

    def types(
        self, aliases: Mapping[str, str], cases: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Puppet's view of values and types (``types`` in puppet_oracle.rb): per case
        ``{"type": text or None, "value": v}`` the value's ``inspect``, ``to_s``, ``string``
        (``String(v)``), ``string_p`` (``String(v, '%p')``) and, with a type, its
        ``type_string``, ``instance`` and ``mismatch`` (or ``parse_error``)."""
        return self.call(
            "types",
            aliases=dict(aliases),
            cases=[{**case, "value": encode(case["value"])} for case in cases],
        )
