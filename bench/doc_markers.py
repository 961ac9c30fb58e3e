#!/usr/bin/env python3
"""Writes a figure a benchmark measured into a page of doc/, between its markers, so that no
figure there is typed by hand:

    bench/doc_markers.py PAGE NAME TEXT

replaces what PAGE holds between the lines `<!-- NAME:begin -->` and `<!-- NAME:end -->` with
TEXT (one line). Exits 1, changing nothing, when PAGE lacks the markers."""
import sys

page, name, text = sys.argv[1:]
content = open(page).read()
begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
if begin not in content or end not in content:
    sys.exit(f"bench/doc_markers.py: {page} has no {name} markers")
head, rest = content.split(begin, 1)
_, tail = rest.split(end, 1)
open(page, "w").write(head + begin + text + "\n" + end + tail)
print(f"bench/doc_markers.py: {page} updated")
