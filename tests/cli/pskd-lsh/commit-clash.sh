# --commit and --abort are modes: both asked for, refused.
. "$TESTDIR/../lib.sh"
no_usage pskd-lsh --commit idx --abort idx < /dev/null
