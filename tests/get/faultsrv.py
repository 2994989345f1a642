#!/usr/bin/python3
# faultsrv.py - a small HTTP server for pskd-get's tests that serves the
# files of a folder with Range, ETag and If-Range, and injects one fault
# chosen by the query string:
#
#   ?drop=N[&times=K]      close the connection after N body bytes
#   ?flip=OFF[&times=K]    flip the byte at offset OFF of the file
#   ?norange               ignore Range: always 200 and the whole body
#   ?badstart=D[&times=K]  206 whose Content-Range starts D bytes early
#   ?status=S[&times=K][&retry_after=T]   answer S (500, 429, 404...)
#   ?change=N              the file changes (new bytes, new ETag) after
#                          the first response, which drops after N bytes
#   ?stall=N[&times=K]     send N bytes, then nothing until the client leaves
#   ?nolength              no Content-Length (the body ends at close)
#   ?noetag                no ETag
#   ?redirect=PATH         302 to PATH (a full URL or a path)
#   ?endless               200 without a length, a body that never ends
#   ?etag_hex=HEX          the ETag is these raw bytes (not UTF-8, say)
#   ?pause=N&secs=S        send N bytes, wait S seconds, send the rest
#   ?rate=B                send B bytes a second
#
# A hub and its CDN (as the Hugging Face Hub answers a download):
#
#   /h/FILE?cdn=HOST:PORT[&need=AUTH][&linked=bad][&uses=K][&cq=QUERY]
#       needs Authorization: AUTH (else 401), then 302 to
#       http://HOST:PORT/c/FILE?sig=N&uses=K&QUERY with a fresh N, and
#       X-Linked-Etag (the file's sha256, quoted; zeros with linked=bad)
#       and X-Linked-Size
#   /c/FILE?sig=N&uses=K&...   403 unless N is a number used at most K
#       times here (default 1000000); faults as above, counted per FILE
#       and query without the signature
#
# Faults with times=K apply to the first K requests of that URL only.  Each
# request's log line says how many were being answered at once ("active").
# Usage: faultsrv.py ROOT PORTFILE LOGFILE; writes the port it listens on
# (127.0.0.1, a free one) to PORTFILE and one line per request to LOGFILE.
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

root, portfile, logfile = sys.argv[1:4]
host = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.1"
lock = threading.Lock()
counts = {}
issued = {}            # signatures handed out by this hub
used = {}              # signature -> requests seen by this CDN
active = [0]           # requests being answered now (logged as "active")
log = open(logfile, "a", buffering=1)


def changed(data):
    return bytes(b ^ 0x5A for b in data)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, status, start):
        log.write(json.dumps({"path": self.path, "status": status,
                              "range": self.headers.get("Range"),
                              "if_range": self.headers.get("If-Range"),
                              "auth": self.headers.get("Authorization"),
                              "secret": self.headers.get("X-Secret"),
                              "agent": self.headers.get("User-Agent"),
                              "active": active[0],
                              "start": start}) + "\n")

    def empty(self, status):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.record(status, None)

    def hub(self, u, q):
        need = q.get("need", [None])[0]
        if need is not None and self.headers.get("Authorization") != need:
            self.empty(401)
            return
        name = os.path.basename(u.path)
        with open(os.path.join(root, name), "rb") as f:
            data = f.read()
        with lock:
            sig = len(issued) + 1
            issued[sig] = 0
        sha = hashlib.sha256(data).hexdigest()
        if q.get("linked", [""])[0] == "bad":
            sha = "0" * 64
        extra = q.get("cq", [""])[0]
        self.send_response(302)
        self.send_header("Location", "http://%s/c/%s?sig=%d&uses=%s%s" % (
            q["cdn"][0], name, sig, q.get("uses", ["1000000"])[0],
            "&" + extra if extra else ""))
        self.send_header("X-Linked-Etag", '"%s"' % sha)
        self.send_header("X-Linked-Size", str(len(data)))
        self.send_header("Content-Length", "0")
        self.send_header("Connection", "close")
        self.end_headers()
        self.record(302, None)

    def cdn_ok(self, q):
        # The hub may be another instance: a signature is any number,
        # its uses counted here.
        sig = q.get("sig", [""])[0]
        if not sig.isdigit():
            return False
        with lock:
            used[sig] = used.get(sig, 0) + 1
            return used[sig] <= int(q.get("uses", ["1000000"])[0])

    def do_GET(self):
        with lock:
            active[0] += 1
        try:
            self.get()
        finally:
            with lock:
                active[0] -= 1

    def get(self):
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query, keep_blank_values=True)
        if u.path.startswith("/h/"):
            return self.hub(u, q)
        if u.path.startswith("/c/") and not self.cdn_ok(q):
            self.empty(403)
            return
        key = u.path + "?" + "&".join(
            "%s=%s" % kv for kv in urllib.parse.parse_qsl(
                u.query, keep_blank_values=True) if kv[0] != "sig")
        with lock:
            n = counts.get(key, 0)
            counts[key] = n + 1
        times = int(q.get("times", ["1000000"])[0])
        active = n < times

        def num(name):
            return int(q[name][0]) if name in q else None

        if "redirect" in q:
            self.send_response(302)
            self.send_header("Location", q["redirect"][0])
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.record(302, None)
            return
        if "endless" in q:
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.record(200, 0)
            chunk = bytes(range(256)) * 256
            try:
                while True:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError, ValueError):
                pass
            self.close_connection = True
            return
        status = num("status")
        if status is not None and active:
            body = b"fault\n"
            self.send_response(status)
            if "retry_after" in q:
                self.send_header("Retry-After", q["retry_after"][0])
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.record(status, None)
            return
        path = os.path.join(root, os.path.basename(u.path))
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            self.empty(404)
            return
        version = 1
        if "change" in q and n >= 1:
            data = changed(data)
            version = 2
        etag = '"%s-%d"' % (hashlib.sha256(data).hexdigest()[:16], version)
        if "etag_hex" in q:
            # http.server encodes header values as Latin-1: raw bytes.
            etag = bytes.fromhex(q["etag_hex"][0]).decode("latin-1")
        size = len(data)
        start = 0
        rng = self.headers.get("Range")
        ifr = self.headers.get("If-Range")
        partial = False
        if rng and rng.startswith("bytes=") and "norange" not in q:
            if ifr is None or ifr == etag:
                first = rng[6:].split("-")[0]
                start = int(first)
                partial = True
        if partial and start >= size:
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % size)
            self.send_header("Content-Length", "0")
            self.send_header("ETag", etag)
            self.send_header("Connection", "close")
            self.end_headers()
            self.record(416, start)
            return
        body = data[start:]
        shown = start
        if partial and num("badstart") is not None and active:
            shown = max(0, start - num("badstart"))
            body = data[shown:]
        if num("flip") is not None and active:
            off = num("flip") - shown
            if 0 <= off < len(body):
                b = bytearray(body)
                b[off] ^= 0xFF
                body = bytes(b)
        self.send_response(206 if partial else 200)
        if "noetag" not in q:
            self.send_header("ETag", etag)
        self.send_header("Accept-Ranges", "bytes")
        if partial:
            self.send_header("Content-Range", "bytes %d-%d/%d" %
                             (shown, size - 1, size))
        if "nolength" not in q:
            self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.record(206 if partial else 200, shown)
        limit = len(body)
        if num("drop") is not None and active:
            limit = min(limit, num("drop"))
        if "change" in q and n == 0:
            limit = min(limit, num("change"))
        stall = num("stall") if active else None
        if stall is not None:
            limit = min(limit, stall)
        pause = num("pause") if active else None
        rate = num("rate")
        step = min(65536, rate // 10) if rate else 65536
        try:
            for i in range(0, limit, step):
                if pause is not None and i >= pause:
                    self.wfile.flush()
                    time.sleep(float(q["secs"][0]))
                    pause = None
                if rate:
                    time.sleep(step / rate)
                self.wfile.write(body[i:min(limit, i + step)])
            self.wfile.flush()
            if stall is not None:
                # Nothing more until the client gives up and closes.
                self.rfile.read(1)
        except (BrokenPipeError, ConnectionResetError, ValueError):
            pass
        self.close_connection = True


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 512    # pskd-get -j 256 connects at once


srv = Server((host, 0), Handler)
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(portfile + ".tmp", portfile)
srv.serve_forever()
