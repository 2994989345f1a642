# The EXAMPLES of pskd-redact(1), verbatim.
printf '{"id":"a","text":"Mail bob@corp.example or 8.8.8.8, not 10.0.0.1."}\n' > docs.jsonl
pskd-redact docs.jsonl
pskd-redact -s only_remove_public_ips=0 -s ip_replacement=0.0.0.0 docs.jsonl
. "$TESTDIR/../lib.sh"
need_vocab cl100k_base.tiktoken
pskd-redact -q docs.jsonl | pskd-tok -q -E cl100k_base | pskd-tok -d -E cl100k_base
echo
