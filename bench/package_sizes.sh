#!/usr/bin/env bash
# Package sizes: what `./install.sh --package DIR` writes, measured — each artifact's bytes,
# the .deb's Installed-Size, the plugin unpacked, and the executables inside the tarballs —
# and, with --write-doc, written into doc/install.md between the package-sizes markers, so
# that the figures there are never typed by hand. Reports; asserts nothing.
#
#   bench/package_sizes.sh [--dir DIR] [--write-doc]
#
# --dir DIR    the packages an earlier `./install.sh --package DIR` wrote (default: run it into
#              a temporary directory first: two builds and the packaging, minutes on 2 cores)
# --write-doc  also write the result into doc/install.md between the package-sizes markers
set -euo pipefail
cd "$(dirname "$0")/.."

dir=""
write_doc=false
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$(realpath -- "$2")"; shift 2 ;;
    --write-doc) write_doc=true; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "bench/package_sizes.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -z "$dir" ]; then
  dir="$work/dist"
  ./install.sh --package "$dir" >"$work/log" 2>&1 ||
    { cat "$work/log" >&2; echo "bench/package_sizes.sh: ./install.sh --package failed" >&2; exit 1; }
fi
version="$(sed -n 's/^project(fleet-hooks VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
for arch in linux-x86_64 linux-aarch64 darwin-arm64 darwin-x64; do
  tarball="$dir/fleet-hooks-$version-$arch.tar.gz"
  [ -f "$tarball" ] || { echo "bench/package_sizes.sh: no $tarball" >&2; exit 1; }
  mkdir -p "$work/$arch"
  tar -xzf "$tarball" -C "$work/$arch" --strip-components=1
done
installed_size() { dpkg-deb -f "$1" Installed-Size; }

python3 - "$dir" "$version" "$work" "$(installed_size "$dir/fleet-hooks_${version}_amd64.deb")" \
  "$(installed_size "$dir/fleet-hooks_${version}_arm64.deb")" >"$work/sizes" <<'PY'
import datetime, os, sys, tarfile
dist, version, work, deb_amd64_kib, deb_arm64_kib = sys.argv[1:]

def size(name):
    return os.path.getsize(os.path.join(dist, name))

def mib(n):
    return f"{n / 1048576:.1f} MiB"

def kib(n):
    return f"{n / 1024:.0f} KiB"

def exact(n):
    return f"{n:,} bytes"

def binaries(arch):
    bin_dir = os.path.join(work, arch, "bin")
    sizes = [os.path.getsize(os.path.join(bin_dir, b)) for b in sorted(os.listdir(bin_dir))]
    return f"{min(sizes) / 1048576:.1f}–{max(sizes) / 1048576:.1f} MiB"

deb_amd64, deb_arm64 = size(f"fleet-hooks_{version}_amd64.deb"), size(f"fleet-hooks_{version}_arm64.deb")
plugin_name = f"fleet-hooks-claude-plugin-{version}.tar.gz"
plugin = size(plugin_name)
with tarfile.open(os.path.join(dist, plugin_name)) as archive:
    unpacked = sum(member.size for member in archive.getmembers() if member.isfile())
    shipped = sorted({os.path.basename(member.name) for member in archive.getmembers()
                      if member.isfile() and "/bin/linux-" in member.name})
    in_bin = [member.name.split("/bin/", 1)[1] for member in archive.getmembers()
              if member.isfile() and "/bin/" in member.name]
    machines = sorted({rest.split("/")[0] for rest in in_bin if "/" in rest})  # bin/<machine>/
names = ", ".join(f"`{name}`" for name in shipped[:-1]) + f" and `{shipped[-1]}`"
line = (
    f"Measured by `bench/package_sizes.sh` on `./install.sh --package DIR` at version {version} "
    f"({datetime.date.today().isoformat()}): the `.deb` is {mib(deb_amd64)} for amd64 "
    f"({exact(deb_amd64)}; `Installed-Size: {deb_amd64_kib}` KiB) and {mib(deb_arm64)} for arm64 "
    f"({exact(deb_arm64)}; {deb_arm64_kib} KiB); the tarballs "
    f"{mib(size(f'fleet-hooks-{version}-linux-x86_64.tar.gz'))} (linux-x86_64), "
    f"{mib(size(f'fleet-hooks-{version}-linux-aarch64.tar.gz'))} (linux-aarch64), "
    f"{mib(size(f'fleet-hooks-{version}-darwin-arm64.tar.gz'))} (darwin-arm64) and "
    f"{mib(size(f'fleet-hooks-{version}-darwin-x64.tar.gz'))} (darwin-x64)")
platforms = ["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64"]
npm = [f"fleet-hooks-{p}-{version}.tgz" for p in platforms] + [f"fleet-hooks-{version}.tgz"]
if all(os.path.exists(os.path.join(dist, n)) for n in npm):
    each = ", ".join(f"{mib(size(n))} ({p})" for n, p in zip(npm, platforms))
    line += f"; the npm platform packages {each}, the main npm package {kib(size(npm[-1]))}"
line += (
    f"; the Claude Code plugin {mib(plugin)} ({exact(plugin)}; {mib(unpacked)} unpacked: "
    f"{names} for each of {', '.join(machines[:-1])} and {machines[-1]}). The installed "
    f"executables are {binaries('linux-x86_64')} each on x86-64 Linux, "
    f"{binaries('linux-aarch64')} on aarch64 Linux, {binaries('darwin-arm64')} on arm64 macOS "
    f"and {binaries('darwin-x64')} on x86-64 macOS (stripped on Linux).")
print(line)
PY
cat "$work/sizes"
if $write_doc; then
  bench/doc_markers.py doc/install.md package-sizes "$(cat "$work/sizes")"
fi
