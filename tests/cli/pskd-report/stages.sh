# The document stages in the report, checked by hand: verdict objects
# labelled SHARD.STAGE are that shard's stages (a.lang, a.filter,
# b.filter), deduplication's are labelled SHARD; the shard's documents are
# those the stages dropped and those deduplication saw (a: 3 + 2 + 4 = 9),
# the drops by verdict are every stage's; the languages and scores come
# from the documents' objects.
printf '{"version": 1, "shards": [\n{"url": "u1", "file": "a.jsonl.zst", "bytes": 10, "sha256": null, "etag": null, "status": "complete"},\n{"url": "u2", "file": "b.jsonl.zst", "bytes": 7, "sha256": null, "etag": null, "status": "complete"}\n]}\n' > m.json
mkdir d
# a: lang drops 3 of 9 (language x2, rejected x1), filter 2 of 6, dedup 1 of 4.
printf 'a1\tkeep\na2\tlanguage\tde\t0.7\na3\tlanguage\tfr\t0.9\na4\tkeep\na5\trejected\na6\tkeep\na7\tkeep\na8\tkeep\na9\tkeep\n' |
    pskd-stats -l a.lang > d/a-lang.json
printf 'a1\tkeep\na4\tgopher_short_doc\t3\t50\na6\tkeep\na7\tc4.javascript\t1\t0\na8\tkeep\na9\tkeep\n' |
    pskd-stats -l a.filter > d/a-filter.json
printf 'a1\tkeep\na6\tnear_duplicate\ta1\t0.91\na8\tkeep\na9\tkeep\n' |
    pskd-stats -l a > d/a.json
printf '%s\n' '{"text":"x","language":"en","language_score":0.9}' \
    '{"text":"y","language":"en","language_score":0.7}' \
    '{"text":"z","language":"sw","language_score":1}' |
    pskd-stats -l a >> d/a.json
# b: filter drops 1 of 3, dedup keeps both.
printf 'b1\tgopher_short_doc\t9\t50\nb2\tkeep\nb3\tkeep\n' | pskd-stats -l b.filter > d/b-filter.json
printf 'b2\tkeep\nb3\tkeep\n' | pskd-stats -l b > d/b.json
pskd-report -o r.html m.json d
cat r.json
echo
grep -o '<section id="[a-z]*"' r.html
grep -o '<table class="drops">.*' r.html | head -4
grep -o '<p class="figures">[^<]*languages[^<]*</p>' r.html
