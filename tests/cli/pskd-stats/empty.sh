# An empty input is no documents.
pskd-stats < /dev/null
