pskd-report m.json
