package sqlext

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dolthub/vitess/go/mysql"
)

// Full-text search as InnoDB answers it (see fulltext.go for the index
// and the MATCH ... AGAINST call). A document is the text of a row's
// indexed columns; its words are the runs of letters, digits and
// underscores, folded to lower case. Words shorter than
// innodb_ft_min_token_size (3) or longer than innodb_ft_max_token_size
// (84) characters, and InnoDB's default stopwords, are not indexed and
// are dropped from a query.
//
// A document's relevance is InnoDB's: the sum over the query's words it
// holds of tf × idf², tf the times the word occurs in it and idf
// log10(N / df), with N the table's rows and df the documents holding the
// word, log10(1.0001) when every document holds it. As InnoDB does, a word
// named k times in the query counts k times in df, a prefix term (word*)
// counts the documents of every word it matches, and the sum is kept
// as a FLOAT. In boolean mode, > and < move a document's relevance by
// one up or down, within [-1, 1], before its words are added, and ~ moves
// it down for the documents the terms before it already found.

const (
	ftMinToken = 3
	ftMaxToken = 84
)

// ftStopwords is InnoDB's default stopword list
// (information_schema.INNODB_FT_DEFAULT_STOPWORD).
var ftStopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www") {
		m[w] = true
	}
	return m
}()

func ftWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return ftASCII[r] != 0
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// ftASCII classes the ASCII characters: 0 for none of a word's, 1 for a
// lower-case letter, a digit or an underscore, 2 for a capital.
var ftASCII = func() (t [utf8.RuneSelf]byte) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
			t[c] = 1
		case c >= 'A' && c <= 'Z':
			t[c] = 2
		}
	}
	return t
}()

// ftScanWords is ftWords for a reader that keeps nothing: fn's word is
// valid only during the call, and is lowered into buf, which it returns
// for the next call.
func ftScanWords(s string, buf []byte, fn func(w []byte)) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && ftASCII[c] == 0 {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !ftWordRune(r) {
				i += n
				continue
			}
		}
		buf = buf[:0]
		j := i
		for j < len(s) {
			c := s[j]
			if c < utf8.RuneSelf {
				switch ftASCII[c] {
				case 0:
					goto end
				case 2:
					c += 'a' - 'A'
				}
				buf = append(buf, c)
				j++
				continue
			}
			r, n := utf8.DecodeRuneInString(s[j:])
			if !ftWordRune(r) {
				break
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
			j += n
		}
	end:
		fn(buf)
		i = j
	}
	return buf
}

// ftWords calls fn with each word of s, folded to lower case, indexed
// or not (phrases match against every word).
func ftWords(s string, fn func(w string)) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !ftWordRune(r) {
			i += n
			continue
		}
		j := i + n
		lower := r < utf8.RuneSelf && (r < 'A' || r > 'Z')
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !ftWordRune(r) {
				break
			}
			lower = lower && r < utf8.RuneSelf && (r < 'A' || r > 'Z')
			j += n
		}
		w := s[i:j]
		if !lower {
			w = strings.ToLower(w)
		}
		fn(w)
		i = j
	}
}

// ftIndexed says whether word w is one an index keeps.
func ftIndexed(w string) bool {
	n := utf8.RuneCountInString(w)
	return n >= ftMinToken && n <= ftMaxToken && !ftStopwords[w]
}

// ftIndexedBytes is ftIndexed of a word as bytes.
func ftIndexedBytes(w []byte) bool {
	n := utf8.RuneCount(w)
	return n >= ftMinToken && n <= ftMaxToken && !ftStopwords[string(w)]
}

// ftOp is a boolean-mode operator before a term.
type ftOp byte

const (
	ftOptional ftOp = 0
	ftRequired ftOp = '+'
	ftExcluded ftOp = '-'
	ftUp       ftOp = '>'
	ftDown     ftOp = '<'
	ftNegate   ftOp = '~'
)

// ftItem is one term of a query: a word, a prefix (word*), a phrase or a
// parenthesised group, with its operator.
type ftItem struct {
	op     ftOp
	word   string   // a word or a prefix
	prefix bool     // word* matches every word starting with word
	phrase []string // the words of a "phrase", in order
	group  []*ftItem
	// unusable marks a term with no word an index keeps (a stopword, a
	// word too short): it matches nothing.
	unusable bool
}

// ftQuery is a parsed AGAINST string.
type ftQuery struct {
	items []*ftItem
	// words are the indexed words the query names, each once, in the
	// order first named; times counts how often each is named (InnoDB
	// counts a word's documents once for each).
	words    []string
	times    map[string]int
	prefixes []string
}

func (q *ftQuery) noteWord(w string, prefix bool) {
	if prefix {
		for _, p := range q.prefixes {
			if p == w {
				return
			}
		}
		q.prefixes = append(q.prefixes, w)
		return
	}
	if q.times[w] == 0 {
		q.words = append(q.words, w)
	}
	q.times[w]++
}

// parseNaturalQuery reads a natural-language AGAINST string: each word
// is an optional term, and text in double quotes a phrase.
func parseNaturalQuery(s string) *ftQuery {
	q := &ftQuery{times: map[string]int{}}
	for len(s) > 0 {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			q.addWords(s, ftOptional)
			break
		}
		q.addWords(s[:i], ftOptional)
		s = s[i+1:]
		j := strings.IndexByte(s, '"')
		if j < 0 {
			j = len(s)
		}
		q.items = append(q.items, q.phraseItem(s[:j], ftOptional))
		s = s[min(j+1, len(s)):]
	}
	return q
}

func (q *ftQuery) addWords(s string, op ftOp) {
	ftWords(s, func(w string) {
		if ftIndexed(w) {
			q.noteWord(w, false)
			q.items = append(q.items, &ftItem{op: op, word: w})
		} else if op == ftRequired {
			q.items = append(q.items, &ftItem{op: op, unusable: true})
		}
	})
}

func (q *ftQuery) phraseItem(s string, op ftOp) *ftItem {
	it := &ftItem{op: op}
	usable := false
	ftWords(s, func(w string) {
		it.phrase = append(it.phrase, w)
		if ftIndexed(w) {
			q.noteWord(w, false)
			usable = true
		}
	})
	it.unusable = !usable
	return it
}

// parseBooleanQuery reads an AGAINST string IN BOOLEAN MODE: terms with
// the operators + - > < ~, a trailing * for a prefix, "phrases" and
// (groups). Two operators in a row are a syntax error, as in InnoDB.
func parseBooleanQuery(s string) (*ftQuery, error) {
	q := &ftQuery{times: map[string]int{}}
	p := &ftParser{s: s, q: q}
	items, err := p.list(0)
	if err != nil {
		return nil, err
	}
	q.items = items
	return q, nil
}

type ftParser struct {
	s string
	i int
	q *ftQuery
}

func ftOperator(c byte) bool { return strings.IndexByte("+-<>~", c) >= 0 }

func (p *ftParser) list(depth int) ([]*ftItem, error) {
	var items []*ftItem
	for {
		for p.i < len(p.s) && !ftOperator(p.s[p.i]) && p.s[p.i] != '(' && p.s[p.i] != ')' && p.s[p.i] != '"' && !p.wordStart() {
			p.i++
		}
		if p.i >= len(p.s) {
			return items, nil
		}
		op := ftOptional
		if c := p.s[p.i]; ftOperator(c) {
			op = ftOp(c)
			p.i++
			if p.i < len(p.s) && ftOperator(p.s[p.i]) {
				return nil, ftSyntaxError(p.s[p.i])
			}
		}
		if p.i >= len(p.s) {
			return items, nil
		}
		switch c := p.s[p.i]; {
		case c == ')':
			p.i++
			if depth > 0 {
				return items, nil
			}
		case c == '(':
			p.i++
			group, err := p.list(depth + 1)
			if err != nil {
				return nil, err
			}
			items = append(items, &ftItem{op: op, group: group})
		case c == '"':
			p.i++
			j := strings.IndexByte(p.s[p.i:], '"')
			end := len(p.s)
			if j >= 0 {
				end = p.i + j
			}
			items = append(items, p.q.phraseItem(p.s[p.i:end], op))
			p.i = min(end+1, len(p.s))
		case p.wordStart():
			start := p.i
			for p.i < len(p.s) {
				r, n := utf8.DecodeRuneInString(p.s[p.i:])
				if !ftWordRune(r) {
					break
				}
				p.i += n
			}
			w := strings.ToLower(p.s[start:p.i])
			prefix := p.i < len(p.s) && p.s[p.i] == '*'
			if prefix {
				p.i++
			}
			switch {
			case prefix && w != "":
				p.q.noteWord(w, true)
				items = append(items, &ftItem{op: op, word: w, prefix: true})
			case ftIndexed(w):
				p.q.noteWord(w, false)
				items = append(items, &ftItem{op: op, word: w})
			case op == ftRequired:
				items = append(items, &ftItem{op: op, unusable: true})
			}
		default:
			// An operator before something that is no term (a space, a
			// delimiter) applies to nothing.
		}
	}
}

func (p *ftParser) wordStart() bool {
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return ftWordRune(r)
}

func ftSyntaxError(c byte) error {
	return mysql.NewSQLError(mysql.ERParseError, "42000", "syntax error, unexpected '%c'", c)
}

// ftDoc is what one document holds of a query's words: how often each
// word occurs, and its words in order when a phrase is to be matched.
type ftDoc struct {
	tf map[string]int
	// prefixTF is, for each prefix of the query, the count in the
	// document of the smallest word it matches (prefixW): InnoDB counts
	// that word's occurrences.
	prefixTF map[string]int
	prefixW  map[string]string
	// prefixWords counts, for each prefix, the distinct words it matches
	// in the document: InnoDB adds up the document counts of those words.
	prefixWords map[string]int
	seen        map[string]bool
	seq         []string
}

func (q *ftQuery) hasPhrases() bool {
	var any func([]*ftItem) bool
	any = func(items []*ftItem) bool {
		for _, it := range items {
			if it.phrase != nil || any(it.group) {
				return true
			}
		}
		return false
	}
	return any(q.items)
}

// read gathers what a document (its columns' text) holds of q's words,
// and its words in order when keepSeq is set.
func (q *ftQuery) read(texts []string, keepSeq bool, doc *ftDoc) {
	clear(doc.tf)
	clear(doc.prefixTF)
	clear(doc.prefixW)
	clear(doc.prefixWords)
	clear(doc.seen)
	doc.seq = doc.seq[:0]
	for _, s := range texts {
		ftWords(s, func(w string) {
			if keepSeq {
				doc.seq = append(doc.seq, w)
			}
			if q.times[w] > 0 {
				doc.tf[w]++
			}
			for _, p := range q.prefixes {
				if !strings.HasPrefix(w, p) || !ftIndexed(w) {
					continue
				}
				if k := p + "\x00" + w; !doc.seen[k] {
					doc.seen[k] = true
					doc.prefixWords[p]++
				}
				switch least, ok := doc.prefixW[p]; {
				case !ok || w < least:
					doc.prefixW[p] = w
					doc.prefixTF[p] = 1
				case w == least:
					doc.prefixTF[p]++
				}
			}
		})
	}
}

func newFTDoc() *ftDoc {
	return &ftDoc{tf: map[string]int{}, prefixTF: map[string]int{}, prefixW: map[string]string{},
		prefixWords: map[string]int{}, seen: map[string]bool{}}
}

// has says whether the document holds item it, a term that is no group.
func (d *ftDoc) has(it *ftItem) bool {
	switch {
	case it.unusable:
		return false
	case it.phrase != nil:
		return containsRun(d.seq, it.phrase)
	case it.prefix:
		return d.prefixTF[it.word] > 0
	}
	return d.tf[it.word] > 0
}

func containsRun(seq, run []string) bool {
	if len(run) == 0 {
		return false
	}
outer:
	for i := 0; i+len(run) <= len(seq); i++ {
		for j, w := range run {
			if seq[i+j] != w {
				continue outer
			}
		}
		return true
	}
	return false
}

// ftStats are a table's counts for a query: its rows, and the documents
// holding each word and prefix.
type ftStats struct {
	rows     int64
	df       map[string]int64
	prefixDF map[string]int64
}

// idf is InnoDB's inverse document frequency of a word (or prefix)
// counted df times over the query.
func (st *ftStats) idf(df int64) float64 {
	if df == 0 {
		return 0
	}
	if df == st.rows {
		return math.Log10(1.0001)
	}
	return math.Log10(float64(st.rows) / float64(df))
}

// rank is the relevance of a document for the query, and whether it
// matches; 0 when it does not.
func (q *ftQuery) rank(st *ftStats, doc *ftDoc) (float64, bool) {
	var pre float32
	words := map[*ftItem]bool{}
	if !q.evalGroup(q.items, doc, &pre, words) {
		return 0, false
	}
	r := pre
	seen := map[string]bool{}
	var add func(items []*ftItem)
	add = func(items []*ftItem) {
		for _, it := range items {
			if !words[it] {
				continue
			}
			switch {
			case it.group != nil:
				add(it.group)
			case it.prefix:
				if !seen["*"+it.word] {
					seen["*"+it.word] = true
					idf := st.idf(st.prefixDF[it.word])
					r += float32(float64(doc.prefixTF[it.word]) * idf * idf)
				}
			case it.phrase != nil:
				for _, w := range it.phrase {
					if q.times[w] > 0 && !seen[w] {
						seen[w] = true
						r += q.weight(st, doc, w)
					}
				}
			default:
				if !seen[it.word] {
					seen[it.word] = true
					r += q.weight(st, doc, it.word)
				}
			}
		}
	}
	add(q.items)
	return float64(r), true
}

func (q *ftQuery) weight(st *ftStats, doc *ftDoc, w string) float32 {
	idf := st.idf(st.df[w] * int64(q.times[w]))
	return float32(float64(doc.tf[w]) * idf * idf)
}

// evalGroup says whether the document matches the items of one group,
// moving pre by the operators > < ~ and marking in words the items whose
// words count toward the relevance. As InnoDB does, it reads the
// optional terms (and > < ~) first, in order, then the required ones,
// then the excluded ones.
func (q *ftQuery) evalGroup(items []*ftItem, doc *ftDoc, pre *float32, words map[*ftItem]bool) bool {
	found := false
	required := false
	move := func(by float32) {
		*pre = min(max(*pre+by, -1), 1)
	}
	holds := func(it *ftItem) bool {
		if it.group != nil {
			return q.evalGroup(it.group, doc, pre, words)
		}
		return doc.has(it)
	}
	for _, it := range items {
		switch it.op {
		case ftOptional, ftUp, ftDown:
			if holds(it) {
				found = true
				words[it] = true
				if it.op == ftUp {
					move(1)
				} else if it.op == ftDown {
					move(-1)
				}
			}
		case ftNegate:
			if found && holds(it) {
				move(-1)
			}
		}
	}
	for _, it := range items {
		if it.op != ftRequired {
			continue
		}
		required = true
		if !holds(it) {
			return false
		}
		words[it] = true
	}
	for _, it := range items {
		if it.op == ftExcluded && holds(it) {
			return false
		}
	}
	return found || required
}

// ftMode is the search modifier of a MATCH call, as the rewrite passes it.
const (
	ftNatural = "natural"
	ftBoolean = "boolean"
)

func parseFTQuery(mode, s string) (*ftQuery, error) {
	switch mode {
	case ftNatural:
		return parseNaturalQuery(s), nil
	case ftBoolean:
		return parseBooleanQuery(s)
	}
	return nil, fmt.Errorf("sqlext: unknown full-text mode %q", mode)
}
