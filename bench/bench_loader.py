"""How long loading one large Hiera data file takes (not a test: run it by hand).

    python bench/bench_loader.py [--lines 10000] [--repeat 15]

The language server re-parses the edited file on every keystroke and the whole diagnostic
pass must stay under 100 ms at the 95th percentile, so the loader alone should stay well
under 50 ms for a 10,000-line file.  Compared: hiera-ls's loader (each available libyaml
backend), ruamel's round-trip mode, ruamel's C composer (nodes only, no values), and the
bare libyaml event stream (the floor any event-driven loader pays).  The same data written
as JSON (``json.dumps(indent=2)``) times the ``json_data`` reader next to them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from ruamel.yaml import YAML
from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
from ruamel.yaml.resolver import BaseResolver

from hiera_ls.source.data_file import load_yaml_data
from hiera_ls.source.json_loader import load_json
from hiera_ls.source.libyaml import Backend, backends
from hiera_ls.source.yaml_loader import _load


def generate(lines: int, seed: int = 7) -> str:
    """A plausible data file: module parameters, nested hashes, lists, block text, comments."""
    rng = random.Random(seed)
    out: list[str] = []
    i = 0
    while len(out) < lines:
        i += 1
        key = f"profile::module{i % 50}::param_{i}"
        shape = rng.randrange(8)
        if shape == 0:
            out.append(f"{key}:")
            out.extend(f"  - 'item-{j}-%{{facts.os.family}}'" for j in range(5))
        elif shape == 1:
            out.append(f"{key}:")
            out.extend(f"  key{j}: value {j} with words" for j in range(4))
            out += ["  nested:", "    deep: true", "    port: 8080"]
        elif shape == 2:
            out.append(f"{key}: {rng.randrange(100000)}")
        elif shape == 3:
            out.append(f'{key}: "quoted string %{{trusted.certname}}"')
        elif shape == 4:
            out.append(f"{key}: {rng.choice(['yes', 'false', '0755', '1.5', '~', 'on'])}")
        elif shape == 5:
            out += [f"# comment {i}", f"{key}: 0.5"]
        elif shape == 6:
            out += [f"{key}: |", "  block text line one", "  block text line two"]
        else:
            out.append(f"{key}: {{a: 1, b: [x, y], c: plain words here}}")
    return "\n".join(out[:lines]) + "\n"


def median_ms(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    text = generate(args.lines)
    print(f"{args.lines} lines, {len(text)} characters")

    class ComposingParser(CParser, BaseResolver):  # type: ignore[misc]
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            BaseResolver.__init__(self)

    def events(backend_parser: Callable[[bytes], object]) -> Callable[[], object]:
        def run() -> object:
            parser = backend_parser(text.encode())
            get = parser.get_event  # type: ignore[attr-defined]
            count = 0
            while type(get()).__name__ != "StreamEndEvent":
                count += 1
            return count

        return run

    def loader(backend: Backend) -> Callable[[], object]:
        return lambda: _load("bench.yaml", text, backend)

    rows: list[tuple[str, Callable[[], object], int]] = []
    for backend in backends().values():
        rows.append((f"hiera-ls load_yaml [{backend.name}]", loader(backend), args.repeat))
        rows.append((f"libyaml events only [{backend.name}]", events(backend.parser), args.repeat))
    rows.append(
        (
            "hiera-ls load_yaml_data (default backend)",
            lambda: load_yaml_data("bench.yaml", text),
            args.repeat,
        )
    )
    json_text = json.dumps(load_yaml_data("bench.yaml", text).data, indent=2)
    rows.append(
        (
            f"hiera-ls load_json (same data, {json_text.count(chr(10)) + 1} JSON lines)",
            lambda: load_json("bench.json", json_text),
            args.repeat,
        )
    )
    rows.append(
        (
            "ruamel CParser compose (nodes, no values)",
            lambda: ComposingParser(text).get_single_node(),
            args.repeat,
        )
    )
    rows.append(("ruamel round-trip load", lambda: YAML().load(text), max(3, args.repeat // 5)))
    for label, fn, repeat in rows:
        median, p95 = median_ms(fn, repeat)
        print(f"{label:58s} median {median:8.1f} ms   p95 {p95:8.1f} ms")


if __name__ == "__main__":
    main()
