pskd-report -z m.json d
