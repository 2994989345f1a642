// make.js - writes the made-* fixtures with warcio.js (webrecorder's
// WARC writer, npm warcio): responses whose HTTP bodies are chunked and
// compressed (gzip, deflate, br, zstd) and in odd charsets, named by the
// header, a meta tag, a BOM or nothing.  Run from the repository's top:
//   NODE_PATH=.deps/node_modules node tests/data/warc/make.js
// The files are committed; this is how they were made.
"use strict";
const { WARCRecord, WARCSerializer } = require("warcio");
const { execFileSync } = require("node:child_process");
const { writeFileSync } = require("node:fs");
const zlib = require("node:zlib");

const dir = __dirname + "/";
const enc = (s, cs) => execFileSync("iconv", ["-f", "UTF-8", "-t", cs], { input: s });
const zstd = (b) => execFileSync("zstd", ["-q", "-c", "--no-check"], { input: b });
const page = (title, body, head = "") =>
  `<!DOCTYPE html><html><head>${head}<title>${title}</title></head><body>` +
  `<nav><a href="/">Home</a> <a href="/about">About</a></nav>` +
  `<article><h1>${title}</h1>${body}</article>` +
  `<footer>Copyright the makers of this fixture</footer></body></html>`;
const para = (s) => `<p>${s}</p>`;
const chunk = (b, n) => {
  const parts = [];
  for (let i = 0; i < b.length; i += n) {
    parts.push(Buffer.from(b.length - i < n ? (b.length - i).toString(16) : n.toString(16)));
    parts.push(Buffer.from("\r\n"), b.subarray(i, i + n), Buffer.from("\r\n"));
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
};

const en = para("This page is plain English text written for a test of the WARC reader, long enough to be the main text of its page.") +
  para("A second paragraph follows the first one, so that the extractor has two blocks of prose to keep and a menu to drop.");
const ru = para("Это русский текст в кодировке windows-1251, написанный для проверки чтения старых кодировок и извлечения основного текста страницы.");
const ja = para("これはシフトJISで書かれた日本語の文章です。古い文字コードのページを正しく読めるかどうかを確かめるための試験用の段落です。");
const zh = para("这是用国标码写成的中文段落，用来检查旧的字符编码是否能被正确读取，并且确认正文能够从网页中提取出来。");
const el = para("Αυτό είναι ελληνικό κείμενο σε κωδικοποίηση ISO-8859-7, γραμμένο για να ελεγχθεί η ανάγνωση παλιών κωδικοποιήσεων.");
const koi = para("Этот абзац записан в кодировке KOI8-R, и её имя стоит только в заголовке HTTP, а не в самой странице.");

const pages = [
  // [url, status, headers, body bytes]
  ["http://example.test/gzip-chunked", "200 OK",
    { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Transfer-Encoding": "chunked" },
    chunk(zlib.gzipSync(Buffer.from(page("Gzip and chunks", en))), 100)],
  ["http://example.test/deflate", "200 OK",
    { "Content-Type": "text/html", "Content-Encoding": "deflate" },
    zlib.deflateSync(Buffer.from(page("Deflate", en)))],
  ["http://example.test/raw-deflate", "200 OK",
    { "Content-Type": "text/html", "Content-Encoding": "deflate" },
    zlib.deflateRawSync(Buffer.from(page("Raw deflate", en)))],
  ["http://example.test/brotli", "200 OK",
    { "Content-Type": "text/html; charset=UTF-8", "Content-Encoding": "br" },
    zlib.brotliCompressSync(Buffer.from(page("Brotli", en)))],
  ["http://example.test/zstd", "200 OK",
    { "Content-Type": "text/html", "Content-Encoding": "zstd" },
    zstd(Buffer.from(page("Zstandard", en)))],
  ["http://example.test/windows-1251", "200 OK",
    { "Content-Type": "text/html" },
    enc(page("Кодировка", ru, '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'), "CP1251")],
  ["http://example.test/shift_jis", "200 OK",
    { "Content-Type": "text/html" },
    enc(page("シフトJIS", ja, '<meta charset="Shift_JIS">'), "SHIFT_JIS")],
  ["http://example.test/gb2312", "200 OK",
    { "Content-Type": "text/html" },
    enc(page("国标码", zh, "<meta charset=gb2312>"), "GB2312")],
  ["http://example.test/koi8-r", "200 OK",
    { "Content-Type": "text/html; charset=\"koi8-r\"" },
    enc(page("КОИ-8", koi), "KOI8-R")],
  ["http://example.test/greek-detected", "200 OK",
    { "Content-Type": "text/html" },
    enc(page("Ελληνικά", el + el + el), "ISO-8859-7")],
  ["http://example.test/utf-16", "200 OK",
    { "Content-Type": "text/html" },
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(page("UTF-16", en), "utf16le")])],
  ["http://example.test/bad-utf8", "200 OK",
    { "Content-Type": "text/html; charset=utf-8" },
    Buffer.concat([Buffer.from(page("Bad bytes", en).slice(0, 200)), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(page("Bad bytes", en).slice(200))])],
  ["http://example.test/not-found", "404 Not Found",
    { "Content-Type": "text/html" }, Buffer.from(page("Not found", en))],
  ["http://example.test/image.png", "200 OK",
    { "Content-Type": "image/png" }, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ["http://example.test/plain.txt", "200 OK",
    { "Content-Type": "text/plain; charset=utf-8" }, Buffer.from("Plain text goes through as it is.\nA second line.\n")],
];

async function* once(b) { yield b; }

async function records(gzip) {
  const out = [];
  const date = "2026-01-02T03:04:05Z";
  const info = await WARCRecord.createWARCInfo({ filename: "made.warc", warcVersion: "WARC/1.1" },
    { software: "warcio.js", format: "WARC File Format 1.1" });
  out.push(await WARCSerializer.serialize(info, { gzip }));
  let i = 0;
  for (const [url, status, httpHeaders, body] of pages) {
    const warcHeaders = { "WARC-Record-ID": `<urn:uuid:00000000-0000-4000-8000-${String(++i).padStart(12, "0")}>` };
    const req = await WARCRecord.create({ url, date, type: "request", warcVersion: "WARC/1.1",
      statusline: "GET / HTTP/1.1", httpHeaders: { Host: "example.test" },
      warcHeaders: { "WARC-Record-ID": `<urn:uuid:00000000-0000-4000-9000-${String(i).padStart(12, "0")}>` } }, once(new Uint8Array()));
    out.push(await WARCSerializer.serialize(req, { gzip }));
    const rec = await WARCRecord.create({ url, date, type: "response", warcVersion: "WARC/1.1",
      statusline: `HTTP/1.1 ${status}`, httpHeaders, warcHeaders }, once(new Uint8Array(body)));
    out.push(await WARCSerializer.serialize(rec, { gzip }));
  }
  const rev = await WARCRecord.create({ url: "http://example.test/gzip-chunked", date, type: "revisit",
    warcVersion: "WARC/1.1", refersToUrl: "http://example.test/gzip-chunked", refersToDate: date,
    warcHeaders: { "WARC-Record-ID": "<urn:uuid:00000000-0000-4000-a000-000000000001>",
      "WARC-Profile": "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest" } }, once(new Uint8Array()));
  out.push(await WARCSerializer.serialize(rev, { gzip }));
  return out;
}

async function main() {
const plain = await records(false);
const gz = await records(true);
writeFileSync(dir + "made.warc", Buffer.concat(plain.map((b) => Buffer.from(b))));
writeFileSync(dir + "made.warc.gz", Buffer.concat(gz.map((b) => Buffer.from(b))));
// WARC zstd: a frame a record (made with the zstd program).
writeFileSync(dir + "made.warc.zst", Buffer.concat(plain.map((b) => execFileSync("zstd", ["-q", "-c"], { input: Buffer.from(b) }))));
}
main();
