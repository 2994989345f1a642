# Content-Length past the end of the file.
{ printf 'WARC/1.0\r\nWARC-Type: conversion\r\nContent-Length: 100\r\n\r\nshort'; } > p.warc && pskd-unwarc p.warc
