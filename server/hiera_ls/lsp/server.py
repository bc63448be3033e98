"""The language server: its state, and the error guard every handler runs under.

Nothing here decides what Puppet does; handlers (one module per feature beside this one)
turn LSP params into (snapshot, path, position), call a pure function from ``features/``,
and convert the answer at the edge. Every handler runs under :func:`guard`: an exception in
one feature is logged to the client (``window/logMessage``) and answered with a default, so
a bug met on some user's data never takes the server down.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from hiera_ls import __version__
from hiera_ls.features import lsp_ranges
from hiera_ls.features.code_actions import FixSources
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.lsp import protocol
from hiera_ls.lsp.diagnostics_scheduler import DiagnosticsScheduler
from hiera_ls.lsp.fleet_grouping import FleetGrouper
from hiera_ls.lsp.fleet_sync import FleetSync
from hiera_ls.lsp.transport import ANSWER_HOLD, MessageProtocol
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.source.files import read_disk
from hiera_ls.source.loader_rules import walk_cut

if TYPE_CHECKING:
    from hiera_ls.features.workspace_symbols import SymbolTable

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])

MAX_CONVERTERS = 64  # line tables kept (open files, definition targets)
# The background read of the Puppet code starts at the first publish or the first request,
# at most this long after start-up: before, it shared the processor with the parse of the
# file opened at start-up (bench_lsp: its first publish came 0.1 s later, of 0.7 s of CPU)
WARM_CODE_DELAY_S = 0.5
# handlers that are no request a user waits on (see guard): they leave the code read waiting
_NOT_ASKED = ("initialize", "initialized", "textDocument/did", "workspace/did", "$/")

log = logging.getLogger(__name__)


class HieraLanguageServer(LanguageServer):
    """Server state: the workspace, what was published, and how the client wants things."""

    def __init__(self) -> None:
        super().__init__(
            "hiera-ls",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=MessageProtocol,
        )
        self.project = Workspace([])
        self.init_settings = Settings()
        self.hidden_codes: frozenset[str] = frozenset()  # see configuration.hidden_codes
        self.uris: dict[str, str] = {}  # path -> uri of each open document, as the client wrote it
        self.pull_diagnostics = False
        self.hover_markdown = True  # False when the client shows hovers only as plain text
        self.configuration_supported = False
        self.refresh_supported = False
        self.lens_refresh_supported = False  # the change lens is re-asked after a save
        self.inlay_refresh_supported = False  # the client takes workspace/inlayHint/refresh
        self._told: set[str] = set()  # warnings already logged once
        self._converters: dict[
            str, lsp_ranges.Converter
        ] = {}  # path -> positions of its text (see converter)
        self.diagnostics = Diagnostics(inline_coverage=False)  # its worker computes them
        self.fix_sources = FixSources()  # each file's tokens for its quick fixes
        # (path, encoding) -> each top-level outline entry's DocumentSymbol text, by the
        # entry's id, for the outline after the next edit (see outline.symbols_json)
        self.outline_json: dict[tuple[str, str], dict[int, tuple[Any, str]]] = {}
        self.scheduler = DiagnosticsScheduler(self)
        self.fleet = FleetSync(self)  # PuppetDB's nodes as profiles, when the user chose one
        self.fleet_groups = FleetGrouper(self)  # and grouped for the spread, in a worker
        self._announced: tuple[str | None] | None = None
        self._last_snapshot: Snapshot | None = None  # the code is read for each new one
        # set at the first publish or request: warm_code's reads wait for it (a while)
        self.code_read_go = threading.Event()

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # no client to talk to (tests, shutdown)
            log.warning("%s", message)

    @property
    def encoding(self) -> str:
        try:
            enc = self.workspace.position_encoding
        except RuntimeError:
            enc = None
        return lsp_ranges.encoding_name(enc)

    @functools.cached_property
    def symbol_table(self) -> SymbolTable:
        """workspace/symbol's, kept between snapshots (made by the first such request)."""
        from hiera_ls.features.workspace_symbols import SymbolTable

        return SymbolTable()

    def snapshot(self) -> Snapshot:
        snap = self.project.snapshot()
        if snap is not self._last_snapshot:
            self._last_snapshot = snap
            self.warm_code(snap)
            self.fleet_groups.snapshot_changed(snap)
        for message in snap.messages:
            if message not in self._told:
                self._told.add(message)
                self.log(message, types.MessageType.Warning)
        self._tell_unknown_profile(snap)
        return snap

    def tell_cut_walks(self, snap: Snapshot) -> None:
        """A listing of the workspace cut at hiera.maxFiles: the files past it are neither
        checked nor looked up, which must not read as "no findings" (once per directory)."""
        for root, why in list(snap.files.cut_walks.items()):
            told = f"cut {root}"
            if told in self._told:
                continue
            self._told.add(told)
            message = walk_cut(root, why, snap.files.max_files, "the hiera.maxFiles setting")
            self.log(message, types.MessageType.Warning)
            self._show_warning(message)

    def _tell_unknown_profile(self, snap: Snapshot) -> None:
        """A hiera.factsProfile no profile answers to: every answer falls back to "no
        profile", which the user must see (not only the log), once per name."""
        wanted = self.project.settings.facts_profile
        if not wanted or snap.active is not None or self.project.selected_profile is not None:
            return
        told = f"factsProfile {wanted}"
        if told in self._told:
            return
        self._told.add(told)
        names = sorted(e.name for e in snap.profiles)
        known = ", ".join(names[:5]) or "none found"
        more = f" and {len(names) - 5} more" if len(names) > 5 else ""
        message = (
            f"hiera-ls: no facts profile named '{wanted}' (setting hiera.factsProfile): hovers "
            f"show every definition instead of one node's value. Profiles: {known}{more}"
        )
        self._show_warning(message)

    def _show_warning(self, message: str) -> None:
        """What the user must see, not only the log (a pop-up in VS Code)."""
        try:
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=message)
            )
        except Exception:  # no client to talk to (tests, shutdown)
            log.warning("%s", message)

    def warm_code(self, snap: Snapshot) -> None:
        """Read the Puppet code in the background (after start-up, a modulepath or
        environment.conf change): Wikimedia's 5,000 code files take seconds, which the first
        hover or completion would otherwise wait for on the server's thread. Claimed here,
        on that thread, so a request that comes first answers without the code at once; the
        read starts at the first publish (the file opened at start-up parsed first) or
        request, WARM_CODE_DELAY_S after start-up at the latest."""
        views = snap.claim_code_indexes()
        if not views:
            return

        def build() -> None:
            self.code_read_go.wait(WARM_CODE_DELAY_S)
            for view in views:
                try:
                    snap.code_index(view)
                except Exception:  # asked again (and logged) by the request that needs it
                    log.warning("hiera-ls: reading the Puppet code failed", exc_info=True)

        threading.Thread(target=build, name="hiera-ls-code-index", daemon=True).start()

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        super().text_document_publish_diagnostics(params)
        self.code_read_go.set()

    def text_of(self, path: str) -> str | None:
        text = self.project.buffers.get(path)
        return text if text is not None else self.project.files().read_text(path)

    def text_of_disk(self, path: str) -> str | None:
        found = read_disk(path)  # never a device or FIFO: an editor may open any path
        return found.text if found is not None else None

    def converter(self, path: str, text: str | None = None) -> lsp_ranges.Converter:
        """Positions in ``path``'s latest text (or ``text``); the line table of a big file
        takes milliseconds to build, so it is kept until the text changes."""
        if text is None:
            text = self.text_of(path) or ""
        encoding = self.encoding
        cached = self._converters.get(path)
        if cached is not None and cached.encoding == encoding and cached.lines.text == text:
            return cached
        if len(self._converters) >= MAX_CONVERTERS:
            self._converters.clear()
        # an edited buffer's lines: the last table's, moved by the edit
        previous = cached.lines if cached is not None else None
        made = self._converters[path] = lsp_ranges.Converter(text, encoding, previous)
        return made

    def position(self, uri: str, pos: types.Position) -> tuple[str, Any] | None:
        path = lsp_ranges.path_of(uri)
        if path is None:
            return None
        return path, self.converter(path).from_lsp(pos)

    def announce_profile(self) -> None:
        """Tell the client which profile is active when that changes (for a status bar)."""
        snap = self.snapshot()
        name = snap.active.name if snap.active is not None else None
        if self._announced == (name,):
            return
        self._announced = (name,)
        self.protocol.notify(
            protocol.ACTIVE_FACTS_PROFILE, protocol.ActiveFactsProfileParams(name=name)
        )

    def refresh_inlay_hints(self, edited: bool = False) -> None:
        """Ask the client for new inlay hints: a profile or a setting changed, or (``edited``)
        an edit may have changed the values other open files show; the edited file's own
        the client asks for itself."""
        if not self.inlay_refresh_supported:
            return
        if edited:
            settings = self.project.settings
            if len(self.uris) < 2 or not settings.inlay_hints or self.snapshot().active is None:
                return
        try:
            self.workspace_inlay_hint_refresh(None)
        except Exception as e:  # no client to ask (shutdown)
            log.warning("hiera-ls: could not ask for new inlay hints: %s", e)


def guard(name: str, default: Callable[[], Any], foreground: bool = True) -> Callable[[F], F]:
    """Per-feature error capture: log the traceback to the client, answer with ``default``
    (a JSON-RPC error the handler raises on purpose, such as a refused rename, goes through).

    Wraps a handler whose first parameter is the server. ``foreground``: the background
    checks wait while it runs and until its answer is written (transport.ANSWER_HOLD); not
    for handlers that await the client, which may take its time to answer.
    """

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        async def guarded(ls: HieraLanguageServer, *args: Any, **kwargs: Any) -> Any:
            if not name.startswith(_NOT_ASKED):
                ls.code_read_go.set()  # a request may need the code: read it now
            held = contextlib.ExitStack()
            if foreground:
                held.enter_context(ls.scheduler.foreground())
            try:
                return await fn(ls, *args, **kwargs)
            except (asyncio.CancelledError, JsonRpcException):
                raise  # cancelled, or an error the handler answers with on purpose
            except Exception:
                ls.log(
                    f"hiera-ls: {name} failed:\n{traceback.format_exc()}", types.MessageType.Error
                )
                return default()
            finally:
                until_answered = ANSWER_HOLD.get()  # (lsp/transport.py)
                if until_answered is None:
                    held.close()
                else:
                    until_answered.keep(held)

        return cast(F, guarded)

    return wrap


@dataclass(frozen=True, slots=True)
class Registration:
    """How ``serve.py`` registers a handler: an LSP method (or a command) and its options."""

    method: str
    options: Any = None
    command: bool = False


def handler(
    method: str,
    default: Callable[[], Any],
    options: Any = None,
    *,
    command: bool = False,
    foreground: bool = True,
) -> Callable[[F], F]:
    """A handler of ``method`` (``command``: a ``workspace/executeCommand`` command) under
    :func:`guard`, marked for ``serve.py``'s one list of handlers (:func:`registration`)."""

    def wrap(fn: F) -> F:
        guarded = guard(method, default, foreground)(fn)
        # pygls reads a command's parameter types (typing.get_type_hints) each time it runs
        # it; its answer's type is for mypy alone, and may be a feature's type that loads
        # only when the feature first runs (``TYPE_CHECKING``): pygls is not shown it
        hints = {k: v for k, v in getattr(fn, "__annotations__", {}).items() if k != "return"}
        guarded.__annotations__ = hints
        setattr(guarded, _REGISTRATION, Registration(method, options, command))
        return guarded

    return wrap


_REGISTRATION = "hiera_ls_registration"


def registration(fn: Callable[..., Any]) -> Registration:
    """The method ``fn`` handles (every handler is made by :func:`handler`)."""
    found = getattr(fn, _REGISTRATION, None)
    if not isinstance(found, Registration):
        raise TypeError(f"{fn.__name__} is not a handler (see lsp/server.py: handler)")
    return found


def at_position(
    method: str, default: Callable[[], Any], options: Any = None
) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
    """A :func:`handler` of a request about one position of a document: the function gets
    the document's path and the position (code points) after its params, and the request
    is answered with ``default`` when the document is no file."""

    def wrap(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def handle(ls: HieraLanguageServer, params: Any) -> Any:
            document = getattr(params, "text_document", None)
            uri = document.uri if document is not None else params.uri
            at = ls.position(uri, params.position)
            if at is None:
                return default()
            return await fn(ls, params, *at)

        handle.__name__ = handle.__qualname__ = fn.__name__
        handle.__doc__ = fn.__doc__
        return handler(method, default, options)(handle)

    return wrap


def none() -> None:
    """The answer of a failed handler that answers with an object (or nothing)."""
    return None


def empty() -> list[Any]:
    """The answer of a failed handler that answers with a list."""
    return []
