#!/usr/bin/env python3
"""Checks that each FILE is a macOS executable for ARCH that links only system libraries.

  check-macho.py --arch arm64|x86_64 FILE...

Reads the Mach-O header and load commands itself (no tool of Apple's is needed): the file must
be a thin 64-bit little-endian Mach-O of file type MH_EXECUTE for the CPU named, with an entry
point (LC_MAIN), built for macOS (LC_BUILD_VERSION, platform 1) no newer than --min-macos, and
every library it loads must be one of macOS's own (/usr/lib/libSystem.B.dylib,
/usr/lib/libc++.1.dylib). Prints one line per file; exits 1 when any file fails, 2 on bad usage.
"""
import argparse
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
MH_EXECUTE = 2
CPU_TYPES = {"arm64": 0x0100000C, "x86_64": 0x01000007}
LC_REQ_DYLD = 0x80000000
DYLIB_COMMANDS = {
    0x0C: "LC_LOAD_DYLIB",
    0x18 | LC_REQ_DYLD: "LC_LOAD_WEAK_DYLIB",
    0x1F | LC_REQ_DYLD: "LC_REEXPORT_DYLIB",
    0x20: "LC_LAZY_LOAD_DYLIB",
    0x23 | LC_REQ_DYLD: "LC_LOAD_UPWARD_DYLIB",
}
LC_MAIN = 0x28 | LC_REQ_DYLD
LC_BUILD_VERSION = 0x32
LC_RPATH = 0x1C | LC_REQ_DYLD
PLATFORM_MACOS = 1
SYSTEM_LIBRARIES = {"/usr/lib/libSystem.B.dylib", "/usr/lib/libc++.1.dylib"}


def version_text(packed):
    return f"{packed >> 16}.{(packed >> 8) & 0xFF}"


def check(path, arch, min_macos):
    """Returns (problems, libraries, minimum macOS) of the file at `path`."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 32:
        return ["not a Mach-O file (too short)"], [], None
    magic, cputype, _, filetype, ncmds, sizeofcmds, _, _ = struct.unpack_from("<IiiIIIII", data)
    if magic != MH_MAGIC_64:
        return [f"not a thin 64-bit Mach-O file (magic {magic:#010x})"], [], None
    problems = []
    if cputype != CPU_TYPES[arch]:
        names = {v: k for k, v in CPU_TYPES.items()}
        problems.append(f"built for {names.get(cputype, hex(cputype))}, not {arch}")
    if filetype != MH_EXECUTE:
        problems.append(f"file type {filetype}, not an executable (MH_EXECUTE)")
    libraries, minos, has_main = [], None, False
    offset, end = 32, 32 + sizeofcmds
    if end > len(data):
        return problems + ["load commands run past the end of the file"], [], None
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmdsize < 8 or offset + cmdsize > end:
            return problems + ["a load command has a bad size"], libraries, minos
        if cmd in DYLIB_COMMANDS:
            (name_offset,) = struct.unpack_from("<I", data, offset + 8)
            raw = data[offset + name_offset : offset + cmdsize]
            libraries.append(raw.split(b"\0", 1)[0].decode("utf-8", "replace"))
        elif cmd == LC_MAIN:
            has_main = True
        elif cmd == LC_BUILD_VERSION:
            platform, packed_minos = struct.unpack_from("<II", data, offset + 8)
            if platform != PLATFORM_MACOS:
                problems.append(f"built for platform {platform}, not macOS")
            minos = packed_minos
        elif cmd == LC_RPATH:
            problems.append("has an LC_RPATH (looks for libraries outside the system)")
        offset += cmdsize
    if not has_main:
        problems.append("no entry point (LC_MAIN)")
    if minos is None:
        problems.append("no LC_BUILD_VERSION (minimum macOS unknown)")
    elif minos > min_macos:
        problems.append(f"needs macOS {version_text(minos)}, newer than {version_text(min_macos)}")
    for library in libraries:
        if library not in SYSTEM_LIBRARIES:
            problems.append(f"links {library}, which is not a system library")
    if not libraries:
        problems.append("links no library at all (libSystem is the only way to the kernel)")
    return problems, libraries, minos


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", required=True, choices=sorted(CPU_TYPES))
    parser.add_argument("--min-macos", default="13.0", help="the oldest macOS to run on (13.0)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    major, _, minor = args.min_macos.partition(".")
    min_macos = (int(major) << 16) | (int(minor or 0) << 8)
    failed = False
    for path in args.files:
        try:
            problems, libraries, minos = check(path, args.arch, min_macos)
        except OSError as error:
            problems, libraries, minos = [f"cannot be read: {error.strerror}"], [], None
        if problems:
            failed = True
            print(f"check-macho: {path}: " + "; ".join(problems), file=sys.stderr)
        else:
            print(f"check-macho: {path}: Mach-O {args.arch} executable, macOS "
                  f"{version_text(minos)}+, links {', '.join(libraries)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
