# A last line without its newline is a document; the line written keeps
# the newline every output line has.
. "$TESTDIR/../lib.sh"
need_vocab lid176.ftz
printf '{"text":"Der Ausschuss hat den Haushalt beraten."}' | pskd-lid -q -m lid176
printf '{"text":"x"}\n{"text":"Le comité a examiné le budget."}' |
    pskd-lid -q -m lid176 --keep fr --no-annotate
