# lib.py - helpers for pskd-get's test scripts: servers on 127.0.0.1 that
# are always stopped, ok/not ok lines, small files.
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
failed = 0


def check(cond, what, detail=""):
    global failed
    if cond:
        print("ok - " + what, flush=True)
    else:
        failed += 1
        print("not ok - " + what, flush=True)
        if detail:
            print("    " + str(detail).replace("\n", "\n    "), flush=True)
    return cond


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def sha256_file(path):
    with open(path, "rb") as f:
        return sha256(f.read())


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def run(args, timeout=120, **kw):
    return subprocess.run(args, capture_output=True, timeout=timeout, **kw)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, proc, what, host="127.0.0.1"):
    for _ in range(400):
        if proc.poll() is not None:
            raise RuntimeError("%s exited at start" % what)
        try:
            socket.create_connection((host, port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("%s did not start" % what)


class Servers:
    """Start servers; stop every one of them on exit, even on failure."""

    def __init__(self):
        # A runner that kills the script still stops the servers.
        signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
        self.procs = []
        self.tmp = tempfile.mkdtemp(prefix="pskd-get-")

    def fault(self, root, host="127.0.0.1"):
        portfile = os.path.join(self.tmp, "fault-%s.port" % host)
        logfile = os.path.join(self.tmp, "fault-%s.log" % host)
        p = subprocess.Popen([sys.executable, os.path.join(HERE,
                              "faultsrv.py"), root, portfile, logfile,
                              host])
        self.procs.append(p)
        for _ in range(400):
            if os.path.exists(portfile):
                break
            if p.poll() is not None:
                raise RuntimeError("faultsrv.py exited at start")
            time.sleep(0.05)
        port = int(read(portfile))
        wait_port(port, p, "faultsrv.py", host)
        return port, logfile

    def nginx(self, root, template="nginx.conf.in", **subst):
        """nginx on 127.0.0.1 with template; @NAME@ in it is replaced by
        subst["NAME"] (and ROOT, PORT, PREFIX, USER).  Returns its port."""
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        prefix = os.path.join(self.tmp, "nginx-" + template)
        os.makedirs(prefix, exist_ok=True)
        port = free_port()
        conf = read(os.path.join(HERE, template)).decode()
        user = "user root root;" if os.getuid() == 0 else ""
        conf = (conf.replace("@ROOT@", root).replace("@PORT@", str(port))
                .replace("@PREFIX@", prefix).replace("@USER@", user))
        for k, v in subst.items():
            conf = conf.replace("@%s@" % k, str(v))
        write(os.path.join(prefix, "nginx.conf"), conf.encode())
        p = subprocess.Popen([nginx, "-p", prefix, "-c",
                              os.path.join(prefix, "nginx.conf")],
                             stderr=subprocess.DEVNULL)
        self.procs.append(p)
        wait_port(port, p, "nginx")
        return port

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
