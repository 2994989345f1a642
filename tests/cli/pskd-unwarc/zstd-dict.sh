# A WARC zstd file with its dictionary in a skippable frame first (magic
# 0x184D2A5D), every record a frame compressed with it: the same documents
# as the plain file; and the dictionary itself compressed, as the
# convention allows.
python3 - "$TESTDIR/../../data/warc/made.warc" <<'PY'
import re, subprocess, sys
d = open(sys.argv[1], "rb").read()
recs, i = [], 0
while i < len(d):
    j = d.index(b"WARC/1.1\r\n", i)
    h = d.index(b"\r\n\r\n", j) + 4
    n = int(re.search(rb"Content-Length: (\d+)", d[j:h]).group(1))
    recs.append(d[j:h + n + 4])
    i = h + n + 4
for k, r in enumerate(recs):
    open("r%02d" % k, "wb").write(r)
subprocess.run(["zstd", "-q", "--train"] + ["r%02d" % k for k in range(len(recs))] +
               ["--maxdict=2048", "-o", "dict"], check=True, stderr=subprocess.DEVNULL)
dic = open("dict", "rb").read()
frames = b"".join(subprocess.run(["zstd", "-q", "-c", "-D", "dict"], input=r,
                  capture_output=True, check=True).stdout for r in recs)
skip = lambda b: (0x184D2A5D).to_bytes(4, "little") + len(b).to_bytes(4, "little") + b
open("dict.warc.zst", "wb").write(skip(dic) + frames)
zdic = subprocess.run(["zstd", "-q", "-c"], input=dic, capture_output=True, check=True).stdout
open("zdict.warc.zst", "wb").write(skip(zdic) + frames)
PY
pskd-unwarc -q "$TESTDIR/../../data/warc/made.warc" > plain
pskd-unwarc -q dict.warc.zst | cmp - plain && echo dictionary
pskd-unwarc -q zdict.warc.zst | cmp - plain && echo compressed dictionary
