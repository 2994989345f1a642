"""megatron-ltor.py - run Megatron-LM's own _get_ltor_masks_and_position_ids
(megatron/core/datasets/gpt_dataset.py, the function GPTDataset calls for
each sample) on the windows pskd-window makes of a fixed token stream, and
write its position ids and attention masks (of the first ten windows of
each case) to tests/t/megatron-ltor.json,
which tests/t/python-segments compares pskd.py's against.

Megatron-LM cannot be installed from Debian, so its decisions are kept as
data, with this script that made them:

    /usr/bin/python3 tests/t/megatron-ltor.py GPT_DATASET_PY COMMIT

GPT_DATASET_PY is megatron/core/datasets/gpt_dataset.py of a checkout of
github.com/NVIDIA/Megatron-LM at COMMIT (only that one function is taken
from it, by its syntax tree, and run with torch: the package itself needs
more than Debian has).  Run from the top of the tree, after make.
"""
import ast
import json
import os
import random
import struct
import subprocess
import sys

import torch

V, EOD, T = 1000, 999, 16
CASES = [
    ["--segments"],
    ["--segments", "-s", "5"],
    ["--segments", "--align", "bos"],
    ["--segments", "--pack", "best-fit", "-N", "4"],
    ["--segments", "--single", "--pack", "best-fit", "-N", "1"],
]


def megatron_function(path):
    src = open(path, encoding="utf-8").read()
    for node in ast.parse(src).body:
        if isinstance(node, ast.FunctionDef) and \
                node.name == "_get_ltor_masks_and_position_ids":
            env = {"torch": torch}
            code = ast.Module(body=[node], type_ignores=[])
            exec(compile(code, path, "exec"), env)
            return env[node.name]
    sys.exit("%s: no _get_ltor_masks_and_position_ids" % path)


def stream():
    """Documents of 1 to 40 tokens, each ending with EOD."""
    rng = random.Random(2029)
    toks = []
    while len(toks) < 300:
        toks += [rng.randrange(EOD) for _ in range(rng.randrange(40))]
        toks.append(EOD)
    return toks


def windows(toks, args):
    data = b"PSKD" + struct.pack("<HI", 1, 9) + b"idx[1000]" + \
        struct.pack("<Q", len(toks)) + struct.pack("<%dH" % len(toks), *toks)
    out = subprocess.run(["bin/pskd-window", "-t", str(T), "-e", str(EOD)] +
                         args, input=data, capture_output=True,
                         check=True).stdout
    (tlen,) = struct.unpack_from("<I", out, 6)
    body = out[18 + tlen:]
    per = (T + 1) * 2 + (T + 1) if "--single" in args else 2 * T * 2 + T + 1
    rows = []
    for k in range(len(body) // per):
        w = body[k * per:(k + 1) * per]
        rows.append(list(struct.unpack_from("<%dH" % T, w)))
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fn = megatron_function(sys.argv[1])
    toks = stream()
    cases = []
    for args in CASES:
        wins = []
        for x in windows(toks, args)[:10]:
            mask, _, pos = fn(torch.tensor(x), EOD, True, True, False, True)
            wins.append({"input": x, "position_ids": pos.tolist(),
                         "mask": ["".join("1" if v else "0" for v in row)
                                  for row in mask[0].tolist()]})
        cases.append({"args": args, "windows": wins})
    out = {"megatron": {"repository": "https://github.com/NVIDIA/Megatron-LM",
                        "commit": sys.argv[2],
                        "file": "megatron/core/datasets/gpt_dataset.py",
                        "function": "_get_ltor_masks_and_position_ids",
                        "call": "(tokens, eod, reset_position_ids=True, "
                                "reset_attention_mask=True, "
                                "eod_mask_loss=False, "
                                "create_attention_mask=True)",
                        "mask": "1 where Megatron masks (no attention)"},
           "V": V, "eod": EOD, "T": T, "tokens": toks, "cases": cases}
    path = os.path.join("tests", "t", "megatron-ltor.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


main()
