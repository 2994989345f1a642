// extract-readability.js - Mozilla Readability (npm @mozilla/readability)
// on linkedom's DOM, the reference extractor of tests/t/extract-f1 and
// tests/bench/unwarc.sh: reads a JSON array of UTF-8 pages on stdin,
// prints a JSON array of their textContent ("" when it finds none).
// With a count argument, extracts every page that many times and prints
// nothing but the number of pages (the bench's loop).
"use strict";
const { parseHTML } = require("linkedom");
const { Readability } = require("@mozilla/readability");
const pages = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const rounds = Number(process.argv[2] || 0);
function one(html) {
	const { document } = parseHTML(html);
	const r = new Readability(document).parse();
	return r && r.textContent ? r.textContent : "";
}
if (rounds > 0) {
	let n = 0;
	for (let i = 0; i < rounds; i++)
		for (const p of pages) {
			one(p);
			n++;
		}
	console.log(n);
} else
	console.log(JSON.stringify(pages.map(one)));
