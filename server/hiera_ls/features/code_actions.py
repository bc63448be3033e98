"""``textDocument/codeAction``: the quick fixes of the diagnostics the client sends.

The client's diagnostic (its code, range and message) and the buffer's current text are all
a fix is computed from (``checks.fixes``), so the edit offered is the one ``hiera-ls check
--fix`` would make, and a diagnostic that no longer matches the text gets no fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from hiera_ls.checks.rules import RULES
from hiera_ls.features.lsp_ranges import SOURCE, Converter
from hiera_ls.source.spans import Details, Problem, Span

# the fixes (checks/fixes.py and every family's fix builders) load with the first code action
# request, not with the server (tests/lsp/test_start_imports.py)
if TYPE_CHECKING:
    from hiera_ls.checks.fixes import Fix, FixSource

QUICK_FIX = types.CodeActionKind.QuickFix
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.hiera-ls"
MAX_SOURCES = 64  # files whose fix source is kept (the open ones)


class FixSources:
    """Each file's :class:`FixSource` for its latest text, kept by the server: an editor asks
    for code actions on every cursor move, and scanning a 10,000-line file's tokens for the
    "Disable CODE on this line" fix takes a tenth of a second. After an edit the new text's
    source starts from the old one's (only the lines from the edit on are scanned again)."""

    def __init__(self) -> None:
        self._by_path: dict[str, FixSource] = {}

    def of(self, path: str, text: str, conv: Converter | None = None) -> FixSource:
        """``text``'s source (``conv``: the text's converter, whose line table it shares)."""
        kept = self._by_path.get(path)
        if kept is not None and (kept.text is text or kept.text == text):
            return kept
        if kept is None and len(self._by_path) >= MAX_SOURCES:
            self._by_path.clear()
        from hiera_ls.checks.fixes import FixSource

        lines = conv.lines if conv is not None else None
        made = self._by_path[path] = FixSource(text, path.endswith(".json"), kept, lines)
        return made


def wanted(kind: str, only: Sequence[str] | None) -> bool:
    """Does the client's ``context.only`` let ``kind`` through (kinds are dotted prefixes)?
    Without ``only``, quick fixes only: "fix all" is for clients that ask (on save)."""
    if not only:
        return kind == QUICK_FIX
    return any(kind == k or kind.startswith(f"{k}.") for k in only)


def problem_of(diagnostic: types.Diagnostic, path: str, conv: Converter) -> Problem | None:
    """The hiera-ls problem a client's diagnostic stands for (its details from the
    diagnostic's ``data``); None for another server's."""
    code = diagnostic.code
    rule = RULES.get(code) if isinstance(code, str) else None
    if rule is None or diagnostic.source not in (None, SOURCE):
        return None
    span = Span(conv.from_lsp(diagnostic.range.start), conv.from_lsp(diagnostic.range.end))
    return rule.at(diagnostic.message, path, span, Details.from_data(diagnostic.data))


def code_actions(
    uri: str,
    path: str,
    text: str,
    diagnostics: Sequence[types.Diagnostic],
    conv: Converter,
    source: FixSource | None = None,
) -> list[types.CodeAction]:
    """Each diagnostic's fixes in the order ``fixes_for`` gives them (best first); ``source``:
    ``text``'s, when the caller keeps one (see :class:`FixSources`)."""
    from hiera_ls.checks.fixes import fixes_for

    actions: list[types.CodeAction] = []
    for diagnostic in diagnostics:
        found = problem_of(diagnostic, path, conv)
        if found is None:
            continue
        for fix in fixes_for(found, text if source is None else source):
            actions.append(_action(uri, fix, diagnostic, conv))
    return actions


def _action(uri: str, fix: Fix, diagnostic: types.Diagnostic, conv: Converter) -> types.CodeAction:
    edits = [
        types.TextEdit(range=conv.to_lsp_range(e.span), new_text=e.new_text) for e in fix.edits
    ]
    return types.CodeAction(
        title=fix.title,
        kind=QUICK_FIX,
        diagnostics=[diagnostic],
        is_preferred=True if fix.preferred else None,
        edit=types.WorkspaceEdit(changes={uri: edits}),
    )


def fix_all(
    uri: str,
    path: str,
    text: str,
    diagnostics: Sequence[types.Diagnostic],
    conv: Converter,
) -> types.CodeAction | None:
    """One action with every safe fix of the file's diagnostics: what ``check --fix`` does."""
    from hiera_ls.checks.fixes import safe_fixes

    problems = [p for d in diagnostics if (p := problem_of(d, path, conv)) is not None]
    chosen = safe_fixes(text, problems)
    if not chosen:
        return None
    edits = [
        types.TextEdit(range=conv.to_lsp_range(e.span), new_text=e.new_text)
        for fix in chosen
        for e in fix.edits
    ]
    return types.CodeAction(
        title=f"Apply hiera-ls' safe fixes ({len(chosen)})",
        kind=FIX_ALL,
        edit=types.WorkspaceEdit(changes={uri: edits}),
    )
