# The last line had no newline; the kept line gets one.
printf '{"text":"a b c d e f g h i j k l m"}\n' > b.jsonl
printf '{"id":"x","text":"nothing"}\n{"id":"y","text":"A B C D E F G H I J K L M"}' | pskd-decon -q --flag -b b.jsonl
