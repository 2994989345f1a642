# A WET record of one 3 MB line: longer than every buffer.
{ printf 'WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Record-ID: <urn:x>\r\nContent-Length: 3000000\r\n\r\n'; head -c 3000000 /dev/zero | tr '\0' x; printf '\r\n\r\n'; } | pskd-unwarc -q | wc -c
