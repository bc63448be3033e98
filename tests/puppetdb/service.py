"""A real PuppetDB on loopback for the tests: Debian's PuppetDB 7.12.1 on a scratch
PostgreSQL cluster, over HTTP and over TLS with a CA made here.

Everything lives in one temporary directory and is stopped at the end: PostgreSQL
(``initdb``, a ``puppetdb`` role and database, the ``pg_trgm`` extension; run as the
``postgres`` user when the tests run as root, since PostgreSQL refuses root) and PuppetDB
(``--config DIR`` with ``database.ini``, ``jetty.ini``, ``config.ini``, ``puppetdb.ini``
and the package's ``auth.conf``; ``--bootstrap-config /etc/puppetdb/bootstrap.cfg``).

Debian ships PuppetDB's Clojure as source, compiled at every start (about a minute on a
loaded 2-core machine). ``.ci/puppetdb-setup.sh`` compiles it once ahead of time into
``~/.cache/hiera-ls/puppetdb/aot-VERSION``; with that cache PuppetDB answers in about 25 s.
"""

from __future__ import annotations

import contextlib
import ctypes
import glob
import hashlib
import http.client
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from tests.puppetdb.tls import CertFiles, TestCA, make_ca

PUPPETDB_JAR = "/usr/share/puppetdb/puppetdb.jar"
BOOTSTRAP = "/etc/puppetdb/bootstrap.cfg"
PACKAGE_AUTH_CONF = "/etc/puppetdb/conf.d/auth.conf"
START_TIMEOUT_S = 300.0
_PR_SET_PDEATHSIG = 1
ALLOWED_CLIENT = "client.example.com"  # on PuppetDB's certificate-allowlist
STRANGER_CLIENT = "stranger.example.com"  # signed by the CA, not on the allowlist: 403


def aot_cache() -> str:
    """Where .ci/puppetdb-setup.sh compiled PuppetDB's Clojure, for the installed versions
    of PuppetDB and its Clojure libraries (the same key as the script's)."""
    listing = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package} ${Version}\n"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    lines = sorted(
        line
        for line in listing.splitlines()
        if line.split(" ")[0] == "puppetdb" or "clojure" in line.split(" ")[0]
    )
    key = hashlib.sha256("".join(f"{line}\n" for line in lines).encode()).hexdigest()[:16]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    return os.path.join(base, "hiera-ls", "puppetdb", f"aot-{key}")


def available() -> str | None:
    """Why a real PuppetDB cannot run here (None: it can)."""
    if not os.path.isfile(PUPPETDB_JAR):
        return "PuppetDB is not installed (apt-get install puppetdb; .ci/puppetdb-setup.sh)"
    if shutil.which("java") is None:
        return "java is not installed (PuppetDB needs a JRE)"
    if _pg_bin() is None:
        return "PostgreSQL's server binaries are not installed (postgresql-15)"
    return None


def _pg_bin() -> str | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0,
    )
    return os.path.dirname(found[-1]) if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PuppetDB:
    """A running PuppetDB; ``stop()`` ends it and its PostgreSQL."""

    directory: str
    http_url: str = ""
    https_url: str = ""
    ca: TestCA | None = None
    client: CertFiles | None = None  # allowed by the certificate allowlist
    stranger: CertFiles | None = None  # signed by the CA, refused with 403
    started_in: float = 0.0  # seconds from start to the first answer
    _pg_data: str = ""
    _pg_bin: str = ""
    _pg_user: str | None = None
    _pg_port: int = 0
    _java: subprocess.Popen[bytes] | None = None
    _postgres: subprocess.Popen[bytes] | None = None
    _log: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------------ facts in

    def replace_facts(
        self,
        nodes: Iterable[tuple[str, Mapping[str, object]]],
        environment: str = "production",
        workers: int = 4,
    ) -> int:
        """Send ``replace_facts`` (version 5) for every (certname, facts) and wait until
        PuppetDB has stored them all; the number of commands sent.

        PuppetDB's command threads can fail a command on a serialization conflict in
        PostgreSQL and retry it only much later: a node still missing once nothing has been
        stored for a while is sent again (a newer producer timestamp, the same facts)."""
        producer = f"loader-{uuid.uuid4()}"  # names this batch's factsets
        local = threading.local()
        stamp = _now()

        def send(item: tuple[str, Mapping[str, object]]) -> str:
            certname, values = item
            conn = getattr(local, "conn", None)
            if conn is None:
                conn = local.conn = http.client.HTTPConnection("127.0.0.1", self._http_port())
            body = json.dumps(
                {
                    "certname": certname,
                    "environment": environment,
                    "producer_timestamp": stamp,
                    "producer": producer,
                    "values": values,
                }
            ).encode()
            query = urllib.parse.urlencode(
                {"command": "replace_facts", "version": "5", "certname": certname}
            )
            for attempt in range(3):
                try:
                    conn.request(
                        "POST", f"/pdb/cmd/v1?{query}", body, {"Content-Type": "application/json"}
                    )
                    response = conn.getresponse()
                    answer = response.read()
                    break
                except (ConnectionError, http.client.HTTPException):
                    # Jetty closes a kept-alive connection when it is short of threads
                    conn.close()
                    if attempt == 2:
                        raise
            if response.status != 200:
                raise RuntimeError(f"replace_facts {certname}: {response.status} {answer!r}")
            return certname

        items = {certname: values for certname, values in nodes}
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(send, items.items()))
            while True:
                missing = self._wait_for_producer(producer, set(items))
                if not missing:
                    return len(items)
                stamp = _now()
                list(pool.map(send, [(c, items[c]) for c in sorted(missing)]))

    def deactivate(self, certnames: Iterable[str], timeout: float = 120.0) -> None:
        stamp = _now()
        names = list(certnames)
        for certname in names:
            self._post_command(
                "deactivate_node", 3, certname, {"certname": certname, "producer_timestamp": stamp}
            )
        ast = json.dumps(
            ["and", ["in", "certname", ["array", names]], ["=", "node_state", "active"]]
        )
        self._wait_for_count(f"/pdb/query/v4/nodes?query={urllib.parse.quote(ast)}", 0, timeout)

    def _post_command(self, command: str, version: int, certname: str, payload: object) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self._http_port(), timeout=60)
        query = urllib.parse.urlencode(
            {"command": command, "version": str(version), "certname": certname}
        )
        conn.request(
            "POST",
            f"/pdb/cmd/v1?{query}",
            json.dumps(payload).encode(),
            {"Content-Type": "application/json"},
        )
        response = conn.getresponse()
        answer = response.read()
        conn.close()
        if response.status != 200:
            raise RuntimeError(f"{command}: {response.status} {answer!r}")

    def _wait_for_producer(
        self, producer: str, certnames: set[str], stall: float = 60.0, timeout: float = 3600.0
    ) -> set[str]:
        """Until PuppetDB has stored the facts ``producer`` sent for ``certnames`` (its
        queue-depth metric is not reliable: it can stay at 1 with the queue empty); the
        nodes still missing when nothing more was stored for ``stall`` seconds."""
        count = json.dumps(["extract", [["function", "count"]], ["=", "producer", producer]])
        path = f"/pdb/query/v4/factsets?query={urllib.parse.quote(count)}"
        deadline = time.monotonic() + timeout
        stored, progress = -1, time.monotonic()
        while True:
            rows = self.get(path)
            now = _count(rows) if isinstance(rows, list) else 0
            if now >= len(certnames):
                return set()
            if now != stored:
                stored, progress = now, time.monotonic()
            elif time.monotonic() - progress > stall:
                names = json.dumps(["extract", ["certname"], ["=", "producer", producer]])
                done = self.get(f"/pdb/query/v4/factsets?query={urllib.parse.quote(names)}")
                assert isinstance(done, list)
                return certnames - {row["certname"] for row in done}
            if time.monotonic() > deadline:
                raise TimeoutError("PuppetDB did not store the facts sent")
            time.sleep(0.3)

    def _wait_for_count(self, path: str, count: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            rows = self.get(path)
            if isinstance(rows, list) and _count(rows) == count:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"PuppetDB did not store the commands sent ({path})")
            time.sleep(0.3)

    def get(self, path: str) -> object:
        conn = http.client.HTTPConnection("127.0.0.1", self._http_port(), timeout=60)
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        conn.close()
        return json.loads(body)

    def inventory_count(self) -> int:
        query = urllib.parse.quote('["extract", [["function", "count"]]]')
        rows = self.get(f"/pdb/query/v4/inventory?query={query}")
        assert isinstance(rows, list)
        return int(rows[0]["count"])

    def _http_port(self) -> int:
        return int(urllib.parse.urlsplit(self.http_url).port or 0)

    # ------------------------------------------------------------------ lifecycle

    def log_tail(self, lines: int = 40) -> str:
        try:
            with open(self._log, encoding="utf-8", errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        java = self._java
        if java is not None and java.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(java.pid, signal.SIGTERM)
            try:
                java.wait(30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(java.pid, signal.SIGKILL)
                java.wait(10)
        self._java = None
        postgres = self._postgres
        if postgres is not None and postgres.poll() is None:
            postgres.send_signal(signal.SIGINT)  # PostgreSQL's fast shutdown
            try:
                postgres.wait(30)
            except subprocess.TimeoutExpired:
                postgres.kill()
                postgres.wait(10)
        self._postgres = None
        shutil.rmtree(self.directory, ignore_errors=True)


@contextlib.contextmanager
def running_puppetdb(
    heap: str = "768m", command_threads: int = 4, quick_start: bool = True
) -> Iterator[PuppetDB]:
    """Start PostgreSQL and PuppetDB, yield them answering, stop both at the end.

    ``quick_start``: the JVM's first compiler only (starts sooner, stores commands
    slower); a bench that loads 10,000 nodes turns it off."""
    why = available()
    if why is not None:
        raise RuntimeError(why)
    directory = tempfile.mkdtemp(prefix="hiera-ls-puppetdb-")
    os.chmod(directory, 0o755)
    pdb = PuppetDB(directory)
    try:
        _start_postgres(pdb)
        _start_puppetdb(pdb, heap, command_threads, quick_start)
        yield pdb
    finally:
        pdb.stop()


def _start_postgres(pdb: PuppetDB) -> None:
    bin_dir = _pg_bin()
    assert bin_dir is not None
    pdb._pg_bin = bin_dir
    root = os.geteuid() == 0
    pdb._pg_user = "postgres" if root else None
    pg = os.path.join(pdb.directory, "pg")
    os.mkdir(pg, 0o700)
    if root:
        entry = pwd.getpwnam("postgres")
        os.chown(pg, entry.pw_uid, entry.pw_gid)
    pdb._pg_data = os.path.join(pg, "data")
    port = free_port()
    run = {"user": pdb._pg_user, "capture_output": True, "check": True, "cwd": pg}
    subprocess.run(
        [
            os.path.join(bin_dir, "initdb"),
            "-D",
            pdb._pg_data,
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        ],
        **run,  # type: ignore[call-overload]
    )
    settings = {
        "listen_addresses": "127.0.0.1",
        "port": str(port),
        "unix_socket_directories": pg,
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "60",
    }
    with open(os.path.join(pg, "postgres.log"), "wb") as log:
        pdb._postgres = subprocess.Popen(
            [
                os.path.join(bin_dir, "postgres"),
                "-D",
                pdb._pg_data,
                *(f"-c{k}={v}" for k, v in settings.items()),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            user=pdb._pg_user,
            cwd=pg,
            preexec_fn=_die_with_parent(signal.SIGQUIT),
        )
    _wait_for_postgres(pdb, bin_dir, port)
    psql = [
        os.path.join(bin_dir, "psql"),
        "-h",
        "127.0.0.1",
        "-p",
        str(port),
        "-U",
        "postgres",
        "-v",
        "ON_ERROR_STOP=1",
        "-q",
    ]
    subprocess.run(
        [
            *psql,
            "-c",
            "CREATE ROLE puppetdb LOGIN PASSWORD 'puppetdb'",
            "-c",
            "CREATE DATABASE puppetdb OWNER puppetdb ENCODING 'UTF8' TEMPLATE template0",
        ],
        **run,  # type: ignore[call-overload]
    )
    subprocess.run(
        [*psql, "-d", "puppetdb", "-c", "CREATE EXTENSION pg_trgm"],
        **run,  # type: ignore[call-overload]
    )
    pdb._pg_port = port


def _start_puppetdb(pdb: PuppetDB, heap: str, threads: int, quick_start: bool) -> None:
    conf = os.path.join(pdb.directory, "conf")
    var = os.path.join(pdb.directory, "var")
    os.makedirs(conf)
    os.makedirs(var)
    ca = make_ca(os.path.join(pdb.directory, "ssl"))
    server = ca.issue("localhost", server=True)
    pdb.ca, pdb.client, pdb.stranger = ca, ca.issue(ALLOWED_CLIENT), ca.issue(STRANGER_CLIENT)
    allowlist = os.path.join(conf, "allowlist")
    _write(allowlist, f"{ALLOWED_CLIENT}\n")
    http_port, https_port = free_port(), free_port()
    pdb._log = os.path.join(pdb.directory, "puppetdb.log")
    _write(
        os.path.join(conf, "config.ini"),
        f"[global]\nvardir = {var}\nlogging-config = {conf}/logback.xml\n"
        f"[command-processing]\nthreads = {threads}\n",
    )
    _write(
        os.path.join(conf, "database.ini"),
        "[database]\n"
        f"subname = //127.0.0.1:{pdb._pg_port}/puppetdb\n"
        "username = puppetdb\npassword = puppetdb\n",
    )
    _write(
        os.path.join(conf, "jetty.ini"),
        "[jetty]\n"
        f"host = 127.0.0.1\nport = {http_port}\n"
        f"ssl-host = 127.0.0.1\nssl-port = {https_port}\n"
        f"ssl-cert = {server.cert}\nssl-key = {server.key}\nssl-ca-cert = {ca.ca}\n",
    )
    _write(os.path.join(conf, "puppetdb.ini"), f"[puppetdb]\ncertificate-allowlist = {allowlist}\n")
    _write(
        os.path.join(conf, "logback.xml"),
        "<configuration><appender name='F' class='ch.qos.logback.core.FileAppender'>"
        f"<file>{pdb._log}</file><encoder><pattern>%d %-5p [%c{{2}}] %m%n</pattern>"
        "</encoder></appender><root level='info'><appender-ref ref='F'/></root>"
        "</configuration>\n",
    )
    shutil.copy(PACKAGE_AUTH_CONF, os.path.join(conf, "auth.conf"))
    classpath = PUPPETDB_JAR
    aot = aot_cache()
    if os.path.isfile(os.path.join(aot, "complete")):
        classpath = f"{aot}:{PUPPETDB_JAR}"
    command = [
        "java",
        f"-Xmx{heap}",
        "-XX:+UseSerialGC",
        *(["-XX:TieredStopAtLevel=1"] if quick_start else []),
        "-Djava.security.egd=file:/dev/urandom",
        "-cp",
        classpath,
        "clojure.main",
        "-m",
        "puppetlabs.puppetdb.core",
        "services",
        "--config",
        conf,
        "--bootstrap-config",
        BOOTSTRAP,
    ]
    started = time.monotonic()
    with open(os.path.join(pdb.directory, "java.out"), "wb") as out:
        pdb._java = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=var,
            preexec_fn=_die_with_parent(signal.SIGKILL),
        )
    pdb.http_url = f"http://127.0.0.1:{http_port}"
    pdb.https_url = f"https://127.0.0.1:{https_port}"
    _wait_until_up(pdb, started)
    pdb.started_in = time.monotonic() - started


def _wait_until_up(pdb: PuppetDB, started: float) -> None:
    url = f"{pdb.http_url}/status/v1/simple"
    while time.monotonic() - started < START_TIMEOUT_S:
        if pdb._java is not None and pdb._java.poll() is not None:
            raise RuntimeError(f"PuppetDB exited ({pdb._java.returncode}):\n{pdb.log_tail()}")
        with contextlib.suppress(OSError, http.client.HTTPException):
            parts = urllib.parse.urlsplit(url)
            conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
            conn.request("GET", parts.path)
            response = conn.getresponse()
            text = response.read()
            conn.close()
            if response.status == 200 and text.strip() == b"running":
                return
        time.sleep(0.5)
    raise RuntimeError(f"PuppetDB did not answer in {START_TIMEOUT_S:g} s:\n{pdb.log_tail()}")


def _die_with_parent(sig: int) -> Callable[[], None]:
    """A child that gets ``sig`` when the test process ends, however it ends (Linux's
    PR_SET_PDEATHSIG): no PuppetDB or PostgreSQL is left running after a killed run."""

    def arm() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)

    return arm


def _wait_for_postgres(pdb: PuppetDB, bin_dir: str, port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert pdb._postgres is not None
        if pdb._postgres.poll() is not None:
            raise RuntimeError(f"PostgreSQL exited ({pdb._postgres.returncode})")
        ready = subprocess.run(
            [os.path.join(bin_dir, "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-q"],
            check=False,
        )
        if ready.returncode == 0:
            return
        time.sleep(0.2)
    raise RuntimeError("PostgreSQL did not start in 60 s")


def _now() -> str:
    """Now, as PuppetDB's producer timestamps say it (to the millisecond)."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def _count(rows: list[object]) -> int:
    if rows and isinstance(rows[0], dict) and "count" in rows[0]:
        return int(rows[0]["count"])
    return len(rows)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
