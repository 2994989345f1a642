pskd-info nonexistent.psk
