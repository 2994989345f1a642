# The Hugging Face Hub and S3 EXAMPLES of pskd-get(1), verbatim, on file://
# URLs: the token and the signing keys are not sent to file URLs, but the
# commands and their files are the ones the manual shows.
printf '{"text": "one"}\n' > a.jsonl
printf '{"text": "two"}\n' > b.jsonl
echo "file://$PWD/a.jsonl" > hub-urls.txt
echo "file://$PWD/b.jsonl" > s3-urls.txt
printf 'aws-sigv4 = "aws:amz:us-east-1:s3"\nuser = "ACCESS_KEY_ID:SECRET_ACCESS_KEY"\n' > s3.curlrc
export HF_TOKEN=hf_example
pskd-get -q -d shards hub-urls.txt
pskd-get -q --curl-config s3.curlrc -d shards s3-urls.txt
cat shards/a.jsonl shards/b.jsonl
grep -q -e hf_example -e SECRET_ACCESS_KEY shards/* || echo "no secret on disk"
