#!/usr/bin/env python3
"""Writes a provenance store of N records the way AutoSkillit does (json.dumps, sort_keys).

Usage: make_store.py N PATH
Session ids are deterministic: record i has session id f"{i:08x}-0000-4000-8000-{i:012x}",
so the benchmark knows the first and the last id without reading the file.
"""
import json
import sys


def session_id(i: int) -> str:
    return f"{i:08x}-0000-4000-8000-{i:012x}"


def main() -> None:
    count, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "w", encoding="utf-8") as out:
        for i in range(count):
            record = {
                "caller_session_id": f"c{i % 977:07x}-1111-4000-8000-{i % 977:012x}",
                "dispatch_id": f"d-{i}",
                "kitchen_id": f"kitchen-{i % 50}",
                "recipe_name": "implement",
                "session_id": session_id(i),
                "step_name": "build",
                "timestamp": "2026-05-06T13:30:00.123456+00:00",
            }
            out.write(json.dumps(record, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
