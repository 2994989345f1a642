// parquet_duckdb.js - what the Parquet tests that compare with DuckDB
// share (not a test itself: not executable): a JSON parser that keeps
// each number's and string's text, and the check of pskd-unparquet's
// lines against the rows DuckDB's reader returns, value for value.
'use strict';
const duck = require('@duckdb/node-api');
const T = duck.DuckDBTypeId;

// ---- a JSON parser that keeps each number's and string's text ----------

function parseJSON(s) {
	let i = 0;
	function ws() { while (' \t\n\r'.includes(s[i])) i++; }
	function val() {
		ws();
		const c = s[i];
		if (c === '{') {
			i++;
			const keys = [], vals = [];
			ws();
			if (s[i] === '}') { i++; return { t: 'obj', keys, vals }; }
			for (;;) {
				const k = val();
				if (k.t !== 'str') throw new Error('key at ' + i);
				ws();
				if (s[i++] !== ':') throw new Error(': at ' + i);
				keys.push(k);
				vals.push(val());
				ws();
				if (s[i] === ',') { i++; continue; }
				if (s[i++] !== '}') throw new Error('} at ' + i);
				return { t: 'obj', keys, vals };
			}
		}
		if (c === '[') {
			i++;
			const items = [];
			ws();
			if (s[i] === ']') { i++; return { t: 'arr', items }; }
			for (;;) {
				items.push(val());
				ws();
				if (s[i] === ',') { i++; continue; }
				if (s[i++] !== ']') throw new Error('] at ' + i);
				return { t: 'arr', items };
			}
		}
		if (c === '"') {
			const st = i++;
			while (s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
			i++;
			const raw = s.slice(st, i);
			return { t: 'str', raw, v: JSON.parse(raw) };
		}
		const m = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/
		    .exec(s.slice(i, i + 400));
		if (!m) throw new Error('value at ' + i);
		i += m[0].length;
		if (m[0] === 'null') return { t: 'null' };
		if (m[0] === 'true' || m[0] === 'false')
			return { t: 'bool', v: m[0] === 'true' };
		return { t: 'num', raw: m[0] };
	}
	const v = val();
	ws();
	if (i !== s.length) throw new Error('trailing text');
	return v;
}

// ---- the expected text of each value, from the reader's own value ---------

// The fewest digits that read back as the same float (FLOAT columns).
function floatText(x) {
	for (let p = 1; p <= 9; p++) {
		const n = Number(x.toPrecision(p));
		if (Math.fround(n) === x)
			return String(n);
	}
	return String(x);
}

// UTF-8, each byte of an ill-formed sequence as a lone surrogate U+DCxx.
function surrogateDecode(b) {
	let s = '';
	for (let i = 0; i < b.length;) {
		const c = b[i];
		let n = 0, lo = 0x80, hi = 0xbf, cp = 0;
		if (c < 0x80) { s += String.fromCharCode(c); i++; continue; }
		if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 0x1f; }
		else if (c >= 0xe0 && c <= 0xef) {
			n = 2; cp = c & 0x0f;
			if (c === 0xe0) lo = 0xa0;
			if (c === 0xed) hi = 0x9f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3; cp = c & 0x07;
			if (c === 0xf0) lo = 0x90;
			if (c === 0xf4) hi = 0x8f;
		}
		let ok = n > 0 && i + n < b.length + 0 + 1 && i + n <= b.length - 0;
		for (let k = 1; ok && k <= n; k++) {
			const d = b[i + k];
			if (d === undefined || d < (k === 1 ? lo : 0x80) ||
			    d > (k === 1 ? hi : 0xbf))
				ok = false;
			else
				cp = cp << 6 | (d & 0x3f);
		}
		if (ok) { s += String.fromCodePoint(cp); i += n + 1; }
		else { s += String.fromCharCode(0xdc00 + c); i++; }
	}
	return s;
}

function isoDate(days) {
	const s = new Date(days * 86400000).toISOString();
	return s.slice(0, s.indexOf('T'));
}

// "YYYY-MM-DDTHH:MM:SS.fff[Z]" to nanoseconds since 1970 and its Z.
function parseTimestamp(s) {
	const m = /^([+-]\d{6}|\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d+)(Z?)$/
	    .exec(s);
	if (!m) return null;
	const d = new Date(0);
	d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
	if (Number.isNaN(d.getTime()))
		return null;	/* past the years a Date holds */
	const days = BigInt(Math.round(d.getTime() / 86400000));
	const frac = BigInt(m[7].padEnd(9, '0'));
	return { ns: days * 86400000000000n + BigInt(m[4]) * 3600000000000n +
	    BigInt(m[5]) * 60000000000n + BigInt(m[6]) * 1000000000n + frac,
	    z: m[8] === 'Z', digits: m[7].length };
}

function decimalText(v, scale) {
	const neg = v < 0n;
	let d = (neg ? -v : v).toString();
	if (scale > 0) {
		d = d.padStart(scale + 1, '0');
		d = d.slice(0, d.length - scale) + '.' + d.slice(d.length - scale);
	}
	return (neg ? '-' : '') + d;
}

// Compare parsed value p with the reader's value v of type t; a reason.
function cmp(p, v, t, where) {
	const bad = (why) => where + ': ' + why + ' (got ' +
	    (p.raw || JSON.stringify(p.v !== undefined ? p.v : p.t)) + ')';
	if (v === null || v === undefined)
		return p.t === 'null' ? null : bad('want null');
	switch (t.typeId) {
	case T.BOOLEAN:
		return p.t === 'bool' && p.v === v ? null : bad('want ' + v);
	case T.TINYINT: case T.SMALLINT: case T.INTEGER: case T.UTINYINT:
	case T.USMALLINT: case T.UINTEGER: case T.BIGINT: case T.UBIGINT:
	case T.HUGEINT: case T.UHUGEINT:
		return p.t === 'num' && p.raw === v.toString() ? null :
		    bad('want ' + v);
	case T.FLOAT:
		if (!Number.isFinite(v))
			return p.t === 'null' ? null : bad('want null for ' + v);
		return p.t === 'num' && p.raw === floatText(v) ? null :
		    bad('want ' + floatText(v));
	case T.DOUBLE:
		if (!Number.isFinite(v))
			return p.t === 'null' ? null : bad('want null for ' + v);
		return p.t === 'num' && p.raw === JSON.stringify(v) ? null :
		    bad('want ' + JSON.stringify(v));
	case T.VARCHAR:
		return p.t === 'str' && p.raw === JSON.stringify(v) ? null :
		    bad('want ' + JSON.stringify(v).slice(0, 80));
	case T.BLOB:
	case T.GEOMETRY: {	/* its WKB bytes, as a BLOB's */
		const want = JSON.stringify(surrogateDecode(v.bytes));
		return p.t === 'str' && p.raw === want ? null : bad('want ' + want);
	}
	case T.DATE: {
		const want = '"' + isoDate(v.days) + '"';
		return p.raw === want ? null : bad('want ' + want);
	}
	case T.TIME: {
		const m = p.t === 'str' &&
		    /^(\d\d):(\d\d):(\d\d)\.(\d{3}|\d{6}|\d{9})$/.exec(p.v);
		if (!m) return bad('not a time');
		const us = ((BigInt(m[1]) * 60n + BigInt(m[2])) * 60n +
		    BigInt(m[3])) * 1000000n + BigInt(m[4].padEnd(9, '0')) / 1000n;
		return us === v.micros ? null : bad('want ' + v.micros + ' us');
	}
	case T.TIMESTAMP: case T.TIMESTAMP_MS: case T.TIMESTAMP_NS:
	case T.TIMESTAMP_S: case T.TIMESTAMP_TZ: {
		const q = p.t === 'str' && parseTimestamp(p.v);
		if (!q) return bad('not a timestamp');
		const ns = v.nanos !== undefined ? v.nanos : v.micros !==
		    undefined ? v.micros * 1000n : v.millis !== undefined ?
		    v.millis * 1000000n : v.seconds * 1000000000n;
		// DuckDB's TIMESTAMPTZ holds microseconds: it cuts nanoseconds.
		const got = t.typeId === T.TIMESTAMP_TZ && q.digits === 9 ?
		    q.ns / 1000n * 1000n : q.ns;
		if (got !== ns) return bad('want ' + ns + ' ns');
		if (q.z !== (t.typeId === T.TIMESTAMP_TZ))
			return bad('Z where the type says otherwise');
		return null;
	}
	case T.DECIMAL: {
		const want = '"' + decimalText(v.value, v.scale) + '"';
		return p.raw === want ? null : bad('want ' + want);
	}
	case T.UUID: {
		const want = '"' + v.toString() + '"';
		return p.raw === want ? null : bad('want ' + want);
	}
	case T.INTERVAL: {
		if (p.t !== 'obj' || p.keys.length !== 3) return bad('not an interval');
		const f = {};
		p.keys.forEach((k, i) => { f[k.v] = BigInt(p.vals[i].raw); });
		return f.months === BigInt(v.months) && f.days === BigInt(v.days) &&
		    f.milliseconds * 1000n === v.micros ? null :
		    bad('want ' + JSON.stringify([v.months, v.days, String(v.micros)]));
	}
	case T.LIST: {
		if (p.t !== 'arr' || p.items.length !== v.items.length)
			return bad('want a list of ' + v.items.length);
		for (let i = 0; i < v.items.length; i++) {
			const r = cmp(p.items[i], v.items[i], t.valueType,
			    where + '[' + i + ']');
			if (r) return r;
		}
		return null;
	}
	case T.STRUCT: {
		const names = Object.keys(v.entries);
		if (p.t !== 'obj' || p.keys.length !== names.length)
			return bad('want a struct of ' + names.join(','));
		for (let i = 0; i < names.length; i++) {
			if (p.keys[i].v !== names[i]) return bad('member ' + names[i]);
			const r = cmp(p.vals[i], v.entries[names[i]],
			    t.entryTypes[i], where + '.' + names[i]);
			if (r) return r;
		}
		return null;
	}
	case T.VARIANT: {
		/*
		 * pskd prints a VARIANT as it is stored (metadata, value,
		 * typed_value) and does not decode the variant encoding: a
		 * value shredded whole into a typed_value of a plain type is
		 * DuckDB's decoded value; anything else is not compared here.
		 */
		const k = p.t === 'obj' ? p.keys.map((x) => x.v) : [];
		const tv = p.t === 'obj' ? p.vals[k.indexOf('typed_value')] : null;
		const bv = p.t === 'obj' ? p.vals[k.indexOf('value')] : null;
		if (!tv || tv.t === 'null' || tv.t === 'obj' || tv.t === 'arr' ||
		    !bv || bv.t !== 'null')
			return bad('a variant not shredded into one plain value');
		return cmp(tv, v.value, v.type, where + '.typed_value');
	}
	case T.MAP: {
		if (p.t !== 'obj' || p.keys.length !== v.entries.length)
			return bad('want a map of ' + v.entries.length);
		for (let i = 0; i < v.entries.length; i++) {
			const k = v.entries[i].key;
			if (p.keys[i].v !== String(k)) return bad('key ' + k);
			const r = cmp(p.vals[i], v.entries[i].value, t.valueType,
			    where + '{' + k + '}');
			if (r) return r;
		}
		return null;
	}
	}
	return bad('a type this test does not know: ' + t.typeId);
}

// Every line of out against the rows: null, or the first difference.
function compare(out, res) {
	const lines = out.toString('utf8').split('\n');
	if (lines.pop() !== '')
		return 'output does not end with a newline';
	const rows = res.rows, names = res.names, types = res.types;
	if (lines.length !== rows.length)
		return lines.length + ' lines for ' + rows.length + ' rows';
	for (let r = 0; r < rows.length; r++) {
		let p;
		try { p = parseJSON(lines[r]); } catch (e) {
			return 'row ' + (r + 1) + ': not JSON: ' + e.message;
		}
		if (p.t !== 'obj' || p.keys.length !== names.length)
			return 'row ' + (r + 1) + ': not ' + names.length + ' members';
		for (let c = 0; c < names.length; c++) {
			if (p.keys[c].v !== names[c])
				return 'row ' + (r + 1) + ': member ' + c + ' is ' +
				    p.keys[c].raw + ', not ' + names[c];
			const why = cmp(p.vals[c], rows[r][c], types[c],
			    'row ' + (r + 1) + ' ' + names[c]);
			if (why) return why;
		}
	}
	return null;
}

async function read(conn, sql) {
	const r = await conn.runAndReadAll(sql);
	return { names: r.columnNames(), types: r.columnTypes(), rows: r.getRows() };
}

function q(file) {
	return "'" + file.replace(/'/g, "''") + "'";
}

module.exports = { parseJSON, cmp, compare, read, q };
