"""Which files a rename reaches: the edited file's environment, the global layer, the key's
own module; not another environment (another branch of the code)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features.rename import RenameRefused, rename
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Position

ENV_HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
GLOBAL_HIERA = (
    "version: 5\ndefaults:\n  datadir: /GLOBAL/data\n  data_hash: yaml_data\nhierarchy:\n"
    "  - name: global\n    path: global.yaml\n"
)


def make(tmp_path: Path) -> tuple[Workspace, Path]:
    envs = tmp_path / "environments"
    for env in ("production", "staging"):
        (envs / env / "data").mkdir(parents=True)
        (envs / env / "hiera.yaml").write_text(ENV_HIERA, encoding="utf-8")
        (envs / env / "data" / "common.yaml").write_text(
            "app::port: 1\nuser: \"%{lookup('app::port')}\"\n", encoding="utf-8"
        )
    mod = envs / "production" / "modules" / "app"
    (mod / "data").mkdir(parents=True)
    (mod / "hiera.yaml").write_text(ENV_HIERA, encoding="utf-8")
    (mod / "data" / "common.yaml").write_text("app::port: 2\nzz: 1\n", encoding="utf-8")
    glob = tmp_path / "global"
    (glob / "data").mkdir(parents=True)
    (glob / "hiera.yaml").write_text(GLOBAL_HIERA.replace("/GLOBAL", str(glob)), encoding="utf-8")
    (glob / "data" / "global.yaml").write_text("app::port: 3\n", encoding="utf-8")
    settings = Settings(hiera_config=str(glob / "hiera.yaml"))
    return Workspace([str(tmp_path)], settings), tmp_path


def test_rename_reaches_environment_global_and_module_not_other_environments(tmp_path: Path):
    ws, root = make(tmp_path)
    snap = ws.snapshot()
    common = root / "environments" / "production" / "data" / "common.yaml"
    edits = rename(snap, str(common), Position(0, 1), "app::listen")
    touched = sorted(Path(e.path).relative_to(root).as_posix() for e in edits)
    assert touched == [
        "environments/production/data/common.yaml",
        "environments/production/modules/app/data/common.yaml",
        "global/data/global.yaml",
    ]
    # from the staging environment: its own file and the global layer's
    staging = root / "environments" / "staging" / "data" / "common.yaml"
    edits = rename(snap, str(staging), Position(0, 1), "app::listen")
    touched = sorted(Path(e.path).relative_to(root).as_posix() for e in edits)
    assert touched == ["environments/staging/data/common.yaml", "global/data/global.yaml"]


def test_a_key_module_data_never_reads_is_refused_there(tmp_path: Path):
    ws, root = make(tmp_path)
    data = root / "environments" / "production" / "modules" / "app" / "data" / "common.yaml"
    with pytest.raises(RenameRefused, match="outside module app's namespace"):
        rename(ws.snapshot(), str(data), Position(1, 0), "yy")
