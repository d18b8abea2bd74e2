#!/usr/bin/env python3
"""The book's commands as links to the web page: `web/book.py DOCS > OUT/book.html`.

Reads the chapters the book's tests read (`docs/NN-*.md`) and, for each, lists every command of the
program it shows, in the order it shows them: a console block's `$ skinning ARGS` lines, and the
commands in its prose's code spans on one line (`skinning ARGS`, `cargo run --release -- ARGS`,
the pictures' captions; a span that wraps onto the next line is not read). Each, but one with a
placeholder or a shell's pipe or redirection, becomes a link to `index.html?args=ARGS`, the page that runs the same flags
(`src/demo/platform/web/`). A command the page cannot run (`--export-md5`, `--threads 2`) still gets
its link: the page says why in one line, as the desktop says what it cannot do.

Standard library only, so `web/build.sh` needs nothing else.
"""
import html
import re
import shlex
import sys
from pathlib import Path
from urllib.parse import quote

PROGRAM = re.compile(r"^(?:[A-Z_]+=\S*\s+)*(?:skinning|cargo run --release --)\s+(.*)$")


def commands(text):
    """The program's arguments of each command the chapter shows, in order, without repeats."""
    found, block = [], None
    for line in text.splitlines():
        fence = line.strip().startswith("```")
        if fence:
            block = None if block is not None else line.strip()[3:].split(" ")[0]
            continue
        if block == "console" and line.startswith("$ "):
            candidates = [line[2:]]
        elif block is None:
            candidates = re.findall(r"`([^`]+)`", line)
        else:
            continue
        for candidate in candidates:
            match = PROGRAM.match(candidate.strip())
            if match and match.group(1) not in found:
                found.append(match.group(1))
    return found


def page_args(args):
    """The flags as the page's address carries them; None if a shell is needed to read them, or if
    they hold a placeholder for the reader to fill in (`skinning FILE`)."""
    try:
        words = shlex.split(args)
    except ValueError:
        return None
    if any(ch in args for ch in "|<>$;&") or re.search(r"\b(FILE|NAME|N)\b", args):
        return None
    return " ".join(shlex.quote(w) for w in words)


def main():
    docs = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>skinning: the book's commands on the web page</title>",
           "<style>body{font:15px/1.5 sans-serif;margin:1em 2em}code{font-size:13px}</style>",
           "</head><body>", "<h1>The book's commands, on the web page</h1>",
           "<p>Each link opens <a href=\"index.html\">the page</a> with a command's flags. A model the "
           "command names (<code>--model Fox.glb</code>) is fetched from beside the page: copy the "
           "sample models into this folder first. What the desktop writes as a file "
           "(<code>--screenshot</code>, <code>--dump</code>, <code>--export-gltf</code>) the page "
           "offers as a download.</p>"]
    count = 0
    for chapter in sorted(docs.glob("[0-9][0-9]-*.md")):
        text = chapter.read_text(encoding="utf-8")
        title = next((l[2:] for l in text.splitlines() if l.startswith("# ")), chapter.stem)
        links = []
        for args in commands(text):
            flags = page_args(args)
            if flags is None:
                continue
            links.append(f'<li><a href="index.html?args={quote(flags)}"><code>skinning '
                         f"{html.escape(args)}</code></a></li>")
        if links:
            count += len(links)
            out.append(f"<h2>{html.escape(title)} <small>({chapter.name})</small></h2>")
            out.append("<ul>" + "".join(links) + "</ul>")
    out.append(f"<p>{count} commands.</p></body></html>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
