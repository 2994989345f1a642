/*
 * ft.cc - the shim over libfasttext (Debian's libfasttext-dev), the one
 * C++ file of pskd: fastText's own code loads the model, tells what a
 * token is and which input rows it adds, and predicts.  The functions of
 * ft.h are extern "C"; every exception is caught here and becomes a
 * struct pskd_error, cut at its first line break.
 *
 * Two ways to the rows of a line, which give the same vector: fastText's
 * Dictionary::getLine over the line (lid_ft_predict_line, what python's
 * model.predict runs), or its steps one token at a time (lid_ft_token,
 * lid_ft_ngrams: getId, getType, addSubwords, addWordNgrams), which
 * src/lid/words.c calls once per distinct token and remembers.
 */
#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <istream>
#include <memory>
#include <new>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <vector>

#include <unistd.h>

#include <fasttext/fasttext.h>

/* pskd.h is C11: its _Noreturn is C++'s [[noreturn]]. */
#define _Noreturn [[noreturn]]
extern "C" {
#include "pskd.h"
}
#undef _Noreturn
#include "lid/ft.h"

namespace {

/* A file descriptor as the input stream loadModel reads. */
class FdBuf : public std::streambuf {
public:
	explicit FdBuf(int fd) : fd_(fd) {}
	int error = 0;

protected:
	int_type underflow() override {
		ssize_t n;

		do
			n = read(fd_, buf_, sizeof(buf_));
		while (n == -1 && errno == EINTR);
		if (n <= 0) {
			if (n == -1)
				error = errno;
			return traits_type::eof();
		}
		setg(buf_, buf_, buf_ + n);
		return traits_type::to_int_type(*gptr());
	}

private:
	int fd_;
	char buf_[1 << 16];
};

/* A line in memory, read in place by Dictionary::getLine. */
class LineBuf : public std::streambuf {
public:
	void set(const char *p, size_t n) {
		char *q = const_cast<char *>(p);

		setg(q, q, q + n);
	}
};

/* FastText with its file check (protected) and load as one step. */
class Model : public fasttext::FastText {
public:
	bool load(std::istream &in) {
		if (!checkModel(in))
			return false;
		loadModel(in);
		return true;
	}
};

/*
 * Two protected steps of Dictionary::getLine, named as pointers to
 * members, which a derived class may form and anyone may call.
 */
struct Steps : fasttext::Dictionary {
	static constexpr auto subwords = &Steps::addSubwords;
	static constexpr auto ngrams = &Steps::addWordNgrams;
};

/* Run f; an exception becomes e's message (its first line) and -1. */
template <class F>
int
guard(struct pskd_error *e, F f)
{
	const char *why;

	try {
		f();
		return 0;
	} catch (const std::bad_alloc &) {
		why = "out of memory";
	} catch (const std::exception &x) {
		why = x.what();
	} catch (...) {
		why = "fastText failed";
	}
	pskd_error_set(e, 0, "%.*s", (int)strcspn(why, "\n"), why);
	return -1;
}

} // namespace

struct lid_ft {
	Model		 m;
	std::shared_ptr<const fasttext::Dictionary> dict;
	std::vector<std::string> labels;
	std::string	 prefix;
	int		 wordngrams = 1;
	std::string	 tok;
	std::vector<int32_t> rows, hashes, linelabels;
	fasttext::Predictions preds;
	LineBuf		 lb;
	std::istream	 in{&lb};
};

extern "C" struct lid_ft *
lid_ft_load(int fd, struct pskd_error *e)
{
	struct lid_ft *ft = nullptr;

	if (guard(e, [&] {
		std::unique_ptr<lid_ft> p(new lid_ft);
		FdBuf fb(fd);
		std::istream in(&fb);

		if (!p->m.load(in))
			throw std::invalid_argument("not a fastText model");
		if (fb.error != 0)
			throw std::runtime_error(strerror(fb.error));
		if (!in)
			throw std::runtime_error("truncated");
		fasttext::Args a = p->m.getArgs();
		if (a.model != fasttext::model_name::sup)
			throw std::invalid_argument("not a supervised model");
		p->dict = p->m.getDictionary();
		for (int32_t i = 0; i < p->dict->nlabels(); i++)
			p->labels.push_back(p->dict->getLabel(i));
		p->prefix = a.label;
		p->wordngrams = a.wordNgrams;
		ft = p.release();
	}) == -1)
		return nullptr;
	return ft;
}

extern "C" void
lid_ft_free(struct lid_ft *ft)
{
	delete ft;
}

extern "C" int32_t
lid_ft_nlabels(const struct lid_ft *ft)
{
	return (int32_t)ft->labels.size();
}

extern "C" const char *
lid_ft_label(const struct lid_ft *ft, int32_t i)
{
	return ft->labels[(size_t)i].c_str();
}

extern "C" const char *
lid_ft_prefix(const struct lid_ft *ft)
{
	return ft->prefix.c_str();
}

extern "C" int
lid_ft_token(struct lid_ft *ft, const char *tok, size_t len, uint32_t *h,
    struct pskd_buf *rows, struct pskd_error *e)
{
	int kind = LID_TOK_LABEL;

	/* Dictionary::getLine's steps for one token, in its order. */
	if (guard(e, [&] {
		const fasttext::Dictionary &d = *ft->dict;

		ft->tok.assign(tok, len);
		uint32_t hh = d.hash(ft->tok);
		int32_t wid = d.getId(ft->tok, hh);
		fasttext::entry_type t = wid < 0 ? d.getType(ft->tok) :
		    d.getType(wid);
		if (t != fasttext::entry_type::word)
			return;
		ft->rows.clear();
		(d.*Steps::subwords)(ft->rows, ft->tok, wid);
		pskd_buf_add(rows, ft->rows.data(),
		    ft->rows.size() * sizeof(int32_t));
		*h = hh;
		kind = LID_TOK_WORD;
	}) == -1)
		return -1;
	return kind;
}

extern "C" int
lid_ft_ngrams(struct lid_ft *ft, const int32_t *hashes, size_t n,
    struct pskd_buf *rows, struct pskd_error *e)
{
	/* addWordNgrams adds nothing for wordNgrams 1 or a single word. */
	if (ft->wordngrams <= 1 || n < 2)
		return 0;
	return guard(e, [&] {
		ft->hashes.assign(hashes, hashes + n);
		ft->rows.clear();
		((*ft->dict).*Steps::ngrams)(ft->rows, ft->hashes,
		    ft->wordngrams);
		pskd_buf_add(rows, ft->rows.data(),
		    ft->rows.size() * sizeof(int32_t));
	});
}

/* FastText::predict on ft->rows, and its answers as predictLine has them. */
static void
predict_rows(struct lid_ft *ft, int32_t k, float threshold,
    struct lid_pred *out, size_t *nout)
{
	size_t i = 0;

	ft->preds.clear();
	ft->m.predict(k, ft->rows, ft->preds, threshold);
	for (const auto &p : ft->preds) {
		out[i].label = p.second;
		out[i].prob = std::exp(p.first);
		i++;
	}
	*nout = i;
}

extern "C" int
lid_ft_predict(struct lid_ft *ft, const int32_t *rows, size_t n, int32_t k,
    float threshold, struct lid_pred *out, size_t *nout,
    struct pskd_error *e)
{
	return guard(e, [&] {
		ft->rows.assign(rows, rows + n);
		predict_rows(ft, k, threshold, out, nout);
	});
}

extern "C" int
lid_ft_predict_line(struct lid_ft *ft, const char *line, size_t n, int32_t k,
    float threshold, struct lid_pred *out, size_t *nout,
    struct pskd_error *e)
{
	return guard(e, [&] {
		ft->lb.set(line, n);
		ft->in.clear();
		ft->dict->getLine(ft->in, ft->rows, ft->linelabels);
		predict_rows(ft, k, threshold, out, nout);
	});
}
