pskd-pack a b
