# -f: several members joined by a blank line, a nested one.
printf '{"title":"T","text":"abc"}\n{"text":"x"}\n' | pskd-stats -f title,text
printf '{"meta":{"body":"four"}}\n' | pskd-stats -f meta.body
