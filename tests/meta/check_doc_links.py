#!/usr/bin/env python3
"""Every Markdown link in README.md and doc/ resolves: a relative link names a file or
directory of the repository, and a link with '#anchor' names a heading of the file it points
at (GitHub's anchors: lower case, punctuation dropped, spaces as '-', '-N' for repeats).
So does every pointer to a section in the code's comments and messages (common/, hooks/,
install.sh, the workflows): `doc/PAGE.md, "Heading"` names a heading of that page that begins with those words
(or a paragraph that does, in bold: **check** is …).
Usage: check_doc_links.py SOURCE_DIR   (exit 1 and one line per broken link when any is)."""
import html
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]).resolve()
pages = [root / "README.md"] + sorted((root / "doc").rglob("*.md"))
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def outside_code(text):
    """The lines of `text` outside fenced code blocks, with inline code removed."""
    fenced = False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield re.sub(r"`[^`]*`", "", line)


def slug(title):
    title = html.unescape(title).strip().lower()
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title.replace("`", ""))
    return re.sub(r"[^\w\- ]", "", title).replace(" ", "-")


def anchors(path):
    seen, found = {}, set()
    for line in outside_code(path.read_text()):
        heading = re.match(r"^#{1,6} (.*)$", line)
        if not heading:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


broken = []
checked = 0
for page in pages:
    for number, line in enumerate(page.read_text().split("\n"), 1):
        for _, target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:
            checked += 1
            file_part, _, anchor = target.partition("#")
            dest = (page.parent / file_part).resolve() if file_part else page
            where = f"{page.relative_to(root)}:{number}: {target}"
            if not dest.exists():
                broken.append(f"{where}: no such file")
            elif anchor and (dest.suffix != ".md" or anchor not in anchors(dest)):
                broken.append(f"{where}: no heading with that anchor in {dest.name}")
            elif root not in dest.parents and dest != root:
                broken.append(f"{where}: outside the repository")
# Pointers in the code: doc/development.md, "Adding a CLI" (a message may escape the quotes).
POINTER = re.compile(r'\b((?:doc/)?[a-z0-9-]+\.md), \\?"([^"\\]+)\\?"')
code = [root / "install.sh"] + sorted((root / ".github/workflows").glob("*.yml")) + sorted(
    p for folder in ("common", "hooks") for p in (root / folder).rglob("*")
    if p.suffix in (".h", ".cpp", ".in"))
for source in code:
    for number, line in enumerate(source.read_text().split("\n"), 1):
        for page_name, heading in POINTER.findall(line):
            page = root / (page_name if page_name.startswith("doc/") else "doc/" + page_name)
            checked += 1
            where = f"{source.relative_to(root)}:{number}: {page_name}, \"{heading}\""
            if not page.exists():
                broken.append(f"{where}: no such page")
            elif not any(re.match(r"^(#{1,6} |\*\*)" + re.escape(heading), text)
                         for text in outside_code(page.read_text())):
                broken.append(f"{where}: no heading of {page.name} begins with those words")

if broken:
    print("check_doc_links: broken links:", *broken, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"check_doc_links: {checked} links in {len(pages)} pages, all resolve")
