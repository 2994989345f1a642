# A last line without a newline is written with one.
printf '{"text":"x@y.example"}' | pskd-redact
