"""``--target``, which every command takes: the Puppet the nodes run (project/targets.py)."""

from __future__ import annotations

import argparse

from hiera_ls.project.targets import TARGET_NAMES


def add_target_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--target",
        choices=TARGET_NAMES,
        help="the Puppet the nodes run, whose defaults apply: strict mode and strict "
        "variables, legacy facts (not sent from Puppet 8 on), what OpenVox 9 removed "
        "(default: .hiera-ls.yaml's target, else puppet8)",
    )
