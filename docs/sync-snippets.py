#!/usr/bin/env python3
"""Fills the code samples of docs/*.md from tagged regions of compiled, tested sources.

In a doc, a block such as

    <!-- snippet: ff-core/src/test/java/org/fastflowj/core/guide/FarmGuideTest.java#ordered -->
    ...anything (replaced)...
    <!-- /snippet -->

is replaced by the lines between `// tag::ordered[]` and `// end::ordered[]` in that file (path relative
to the repository root), dedented, in a ```java fence. Tag lines of other regions nested inside are left
out. The same rules are checked by DocsSnippetsTest in ff-core, so keep the two in step.

    python3 docs/sync-snippets.py           # rewrite the docs that are out of date
    python3 docs/sync-snippets.py --check   # exit 1 if a doc is out of date, change nothing
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BLOCK = re.compile(r"(<!-- snippet: ([^#\s]+)#([\w.-]+) -->)\n(.*?)(<!-- /snippet -->)", re.S)
TAG_LINE = re.compile(r"^\s*// (tag|end)::([\w.-]+)\[\]\s*$")


class SnippetError(Exception):
    pass


def excerpt(path, name):
    source = ROOT / path
    if not source.is_file():
        raise SnippetError(f"{path}: no such file")
    lines = source.read_text(encoding="utf-8").split("\n")
    start = end = None
    for i, line in enumerate(lines):
        m = TAG_LINE.match(line)
        if m and m.group(2) == name:
            if m.group(1) == "tag":
                if start is not None:
                    raise SnippetError(f"{path}: tag::{name}[] appears twice")
                start = i
            elif start is not None and end is None:
                end = i
    if start is None:
        raise SnippetError(f"{path}: no tag::{name}[]")
    if end is None:
        raise SnippetError(f"{path}: tag::{name}[] has no end::{name}[]")
    body = [line.rstrip() for line in lines[start + 1:end] if not TAG_LINE.match(line)]
    indents = [len(line) - len(line.lstrip(" ")) for line in body if line.strip()]
    cut = min(indents) if indents else 0
    return "\n".join(line[cut:] if line.strip() else "" for line in body)


def render(text):
    def replace(m):
        return f"{m.group(1)}\n```java\n{excerpt(m.group(2), m.group(3))}\n```\n{m.group(5)}"
    return BLOCK.sub(replace, text)


def main(argv):
    check = "--check" in argv[1:]
    stale = []
    try:
        for doc in sorted(DOCS.glob("*.md")):
            text = doc.read_text(encoding="utf-8")
            updated = render(text)
            if updated != text:
                stale.append(doc.relative_to(ROOT))
                if not check:
                    doc.write_text(updated, encoding="utf-8")
    except SnippetError as e:
        print(f"sync-snippets: {e}", file=sys.stderr)
        return 2
    for doc in stale:
        print(f"{'out of date' if check else 'updated'}: {doc}")
    if check and stale:
        print("run: python3 docs/sync-snippets.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
