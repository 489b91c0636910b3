"""`python -m pipelines research add|list`: the research library's collections from the terminal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pipelines.core.errors import InvalidInput
from pipelines.core.settings import Settings, load_settings


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings(data_dir=args.data_dir, chroma_url=getattr(args, "chroma_url", None))


def cmd_add(args: argparse.Namespace) -> int:
    """Each file read, scanned and indexed; a file that cannot be used is reported with its reason and skipped."""
    from pipelines.deep_research.documents import DocumentError
    from pipelines.deep_research.library import check_collection_name, open_library

    try:
        collection = check_collection_name(args.collection)
    except DocumentError as exc:
        raise InvalidInput(str(exc)) from exc
    library = open_library(_settings(args))
    failed = 0
    for text in args.files:
        path = Path(text)
        try:
            result = library.add(collection, path.name, path.read_bytes(), progress=_progress(path.name))
        except KeyboardInterrupt:  # the library took the file under way out again
            print(f"stopped: {path.name} was not added; the files before it are kept", file=sys.stderr)
            return 130
        except DocumentError as exc:
            failed += 1
            print(f"skipped: {exc}", file=sys.stderr)
            continue
        except OSError as exc:
            failed += 1
            print(f"skipped: {path.name}: {exc.strerror or exc}", file=sys.stderr)
            continue
        info = result.document
        line = {"collection": collection, "doc_id": info.doc_id, "document": info.name, "title": info.title,
                "kind": info.kind, "pages": info.pages, "chunks": info.chunks, "flagged_passages": info.flagged,
                "hidden_passages_dropped": info.hidden}
        print(json.dumps(line, ensure_ascii=False))
        for reason in result.flag_reasons:
            print(f"warning: {path.name}: {reason} The passage is kept as data and never followed.", file=sys.stderr)
    return 1 if failed and failed == len(args.files) else 0


def _progress(name: str):
    """Progress lines on stderr: each stage, and every tenth of the passages indexed."""
    from pipelines.deep_research.library import INDEXING

    last: dict[str, object] = {"stage": None, "tenth": 0}

    def report(stage: str, done: int, total: int) -> None:
        tenth = done * 10 // total if total else 0
        if stage != last["stage"] or tenth > last["tenth"]:
            counts = f" {done}/{total} passages" if total and stage == INDEXING else ""
            print(f"{name}: {stage}{counts}", file=sys.stderr, flush=True)
            last.update(stage=stage, tenth=tenth)
    return report


def cmd_list(args: argparse.Namespace) -> int:
    from pipelines.deep_research.library import open_library
    from pipelines.deep_research.shipped import SHIPPED_TITLES

    library = open_library(_settings(args))
    names = [args.collection] if args.collection else library.collections()
    for name in names:
        documents = library.documents(name)
        shipped = " (shipped example, indexed on first use)" if name in SHIPPED_TITLES and not documents else ""
        print(f"{name}: {len(documents)} document(s){shipped}")
        for info in documents:
            flag = (f", {info.flagged} flagged passage(s)" if info.flagged else "") + \
                (f", {info.hidden_note}" if info.hidden else "")
            print(f"  {info.doc_id}  {info.name}  [{info.kind}, {info.pages} page(s), {info.chunks} chunk(s){flag}]")
    return 0


def add_parser(sub: Any) -> None:
    research = sub.add_parser("research", help="the research library: add documents to a collection, list them")
    commands = research.add_subparsers(dest="research_command", required=True)

    def common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        parser.add_argument("--data-dir", help="where embedded Chroma and the uploaded tables live (default ./data)")
        parser.add_argument("--chroma-url", help="a shared Chroma server, http://host:port (default: embedded)")
        return parser

    add = common(commands.add_parser("add", help="read, scan and index documents (PDF, DOCX, Markdown, TXT, HTML, CSV, Excel)"))
    add.add_argument("files", nargs="+", metavar="FILE")
    add.add_argument("--collection", default="uploads", help="the collection to add them to (default: uploads)")
    add.set_defaults(func=cmd_add)
    listing = common(commands.add_parser("list", help="the collections and their documents"))
    listing.add_argument("--collection", help="only this collection")
    listing.set_defaults(func=cmd_list)
