#!/usr/bin/env python3
"""A stand-in for the npm registry on 127.0.0.1, for tests that must not download: serves the
packages of a JSON manifest (their packuments with dist-tags, and their tarballs, packed here)
to npm view and npm install.

    npm_registry.py MANIFEST

MANIFEST: {"<package name>": {"latest": "<version>", "versions": {"<version>": {"files":
{"<path>": "<content>", ...}, "executables": ["<path>", ...], "package": {<package.json
fields besides name and version>}}}}}. Prints "registry http://127.0.0.1:<port>/" once it
listens, then serves until killed."""
import base64
import hashlib
import http.server
import io
import json
import sys
import tarfile
import urllib.parse


def pack(name, version, spec):
    """The package's tarball (package/ at its root, as npm pack writes it)."""
    files = dict(spec.get("files", {}))
    files["package.json"] = json.dumps({"name": name, "version": version, **spec.get("package", {})})
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path, content in sorted(files.items()):
            data = content.encode()
            info = tarfile.TarInfo("package/" + path)
            info.size = len(data)
            info.mode = 0o755 if path in spec.get("executables", []) else 0o644
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def main():
    manifest = json.load(open(sys.argv[1]))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), None)
    base = "http://127.0.0.1:%d/" % server.server_address[1]
    documents = {}  # URL path -> (content type, bytes)
    for name, entry in manifest.items():
        versions = {}
        for version, spec in entry["versions"].items():
            tarball = pack(name, version, spec)
            path = "/-/%s-%s.tgz" % (name.replace("/", "-"), version)
            documents[path] = ("application/octet-stream", tarball)
            versions[version] = {
                "name": name, "version": version, **spec.get("package", {}),
                "dist": {"tarball": base + path[1:],
                         "shasum": hashlib.sha1(tarball).hexdigest(),
                         "integrity": "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()},
            }
        packument = {"name": name, "dist-tags": {"latest": entry["latest"]}, "versions": versions}
        documents["/" + name] = ("application/json", json.dumps(packument).encode())

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            found = documents.get(urllib.parse.unquote(self.path.split("?")[0]))
            if found is None:
                self.send_response(404)
                self.send_header("Content-Type", "application/json")
                body = b'{"error":"Not found"}'
            else:
                self.send_response(200)
                self.send_header("Content-Type", found[0])
                body = found[1]
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server.RequestHandlerClass = Handler
    print("registry " + base, flush=True)
    server.serve_forever()


main()
