echo hello > text
pskd-shuffle text
