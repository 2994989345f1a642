cd "$TESTDIR/data" && pskd-unparquet --schema flat.parquet nested.parquet
