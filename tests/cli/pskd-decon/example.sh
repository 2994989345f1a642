# The EXAMPLES of pskd-decon(1), verbatim, on small files made in the
# published formats (not the benchmarks themselves): GSM8K's test.jsonl,
# HumanEval's gzipped JSON Lines, MMLU's CSV files a subject.
cp -r "$TESTDIR/bench/grade_school_math" "$TESTDIR/bench/data" .
gzip -c "$TESTDIR/bench/HumanEval.jsonl" > HumanEval.jsonl.gz
cp "$TESTDIR/docs.jsonl" docs.jsonl
cp grade_school_math/data/test.jsonl gsm8k.jsonl
gzip -dc HumanEval.jsonl.gz > humaneval.jsonl
python3 -c 'import csv, json, os, sys; [print(json.dumps({"id": "%s-%d" % (os.path.basename(f)[:-9], i), "text": "\n".join(r[:5])})) for f in sorted(sys.argv[1:]) for i, r in enumerate(csv.reader(open(f, encoding="utf-8")), 1)]' data/test/*_test.csv > mmlu.jsonl
cat mmlu.jsonl
pskd-decon -F question,answer -b gsm8k.jsonl -I task_id -F prompt,canonical_solution -b humaneval.jsonl -I id -F text -b mmlu.jsonl --verdicts v.tsv --summary found.tsv docs.jsonl > kept.jsonl
cut -f 1,2,4 v.tsv
awk -F'\t' '$4 > 0' found.tsv
cat found.tsv
pskd-decon -q --flag -F question,answer -b gsm8k.jsonl docs.jsonl | grep -c '"contamination":'
